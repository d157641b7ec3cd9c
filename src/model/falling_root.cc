// Regula falsi, Illinois variant (falling_root.h).
#include "model/falling_root.h"

#include <cmath>

namespace pgstorsim {

StatusOr<double> FallingRoot(const std::function<StatusOr<double>(double x)>& f, double lo,
                             double f_lo, double hi, double f_hi, const RootStop& stop) {
  double x = hi;
  int kept = 0;  // -1: lo was replaced last, +1: hi.
  for (int step = 0; step < stop.max_steps; ++step) {
    x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    auto fx = f(x);
    if (!fx.ok()) return fx.status();
    if (std::fabs(*fx) <= stop.f_abs + stop.f_rel * x || hi - lo <= stop.width_rel * hi) break;
    if (*fx > 0) {
      lo = x, f_lo = *fx;
      if (kept == -1) f_hi /= 2;
      kept = -1;
    } else {
      hi = x, f_hi = *fx;
      if (kept == 1) f_lo /= 2;
      kept = 1;
    }
  }
  return x;
}

}  // namespace pgstorsim
