// The root of a falling function on a bracket, by regula falsi (Illinois variant), for
// the model's fixed points x = g(x) whose excess g(x) - x falls as x rises
// (run_writes.h's written share, regimes.h's read-bound throughput).
// Thread safety: pure over `f`.
#ifndef PGSTORSIM_MODEL_FALLING_ROOT_H_
#define PGSTORSIM_MODEL_FALLING_ROOT_H_

#include <functional>

#include "common/status.h"

namespace pgstorsim {

// When to stop: after max_steps evaluations, or once |f(x)| <= f_abs + f_rel * x, or
// once the bracket before x's evaluation is at most width_rel x its upper end.
struct RootStop {
  int max_steps = 40;
  double f_abs = 0;
  double f_rel = 0;
  double width_rel = 0;
};

// The root of `f` in [lo, hi], given f_lo = f(lo) > 0 > f_hi = f(hi): each step takes
// the chord's zero and keeps the bracket, an end kept twice in a row having its value
// halved so that the bracket closes from both sides. Returns the last x evaluated (a
// caller whose `f` records state holds the answer's), or the first error of `f`.
StatusOr<double> FallingRoot(const std::function<StatusOr<double>(double x)>& f, double lo,
                             double f_lo, double hi, double f_hi, const RootStop& stop);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_FALLING_ROOT_H_
