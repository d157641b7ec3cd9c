// Simulated throughput for comparisons with the analytic model: the mean tps of a
// simulation's per-interval series after its first `warmup_fraction` of intervals (the
// write-back cache filling, the first checkpoint), or the run's tps without a series.
#ifndef PGSTORSIM_TESTS_SUPPORT_STEADY_TPS_H_
#define PGSTORSIM_TESTS_SUPPORT_STEADY_TPS_H_

#include <cstddef>
#include <cstdint>

#include "common/results.h"

namespace pgstorsim::testing_support {

inline double SteadyTps(const Results& r, double warmup_fraction = 0.1) {
  const size_t skip = static_cast<size_t>(r.series.size() * warmup_fraction);
  uint64_t transactions = 0;
  double seconds = 0, last_t = 0;
  for (size_t i = 0; i < r.series.size(); ++i) {
    const double dt = r.series[i].t_s - last_t;
    last_t = r.series[i].t_s;
    if (i < skip) continue;
    transactions += r.series[i].transactions;
    seconds += dt;
  }
  return seconds > 0 ? transactions / seconds : r.tps;
}

}  // namespace pgstorsim::testing_support

#endif  // PGSTORSIM_TESTS_SUPPORT_STEADY_TPS_H_
