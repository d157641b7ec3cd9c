#include "model/mva.h"

#include <algorithm>
#include <cmath>

namespace pgstorsim {

MvaResult SolveMva(int clients, const std::vector<double>& demands_ms, double delay_ms) {
  const size_t k = demands_ms.size();
  MvaResult r;
  r.residence_ms.assign(k, 0);
  r.queue_length.assign(k, 0);
  for (int n = 1; n <= clients; ++n) {
    double total = delay_ms;
    for (size_t i = 0; i < k; ++i) {
      r.residence_ms[i] = demands_ms[i] * (1 + r.queue_length[i]);
      total += r.residence_ms[i];
    }
    r.throughput_per_ms = total > 0 ? n / total : 0;
    r.cycle_ms = total;
    for (size_t i = 0; i < k; ++i) r.queue_length[i] = r.throughput_per_ms * r.residence_ms[i];
  }
  r.utilization.resize(k);
  for (size_t i = 0; i < k; ++i) r.utilization[i] = r.throughput_per_ms * demands_ms[i];
  return r;
}

MvaResult SolvePacedMva(int clients, const std::vector<double>& demands_ms, double delay_ms) {
  const size_t k = demands_ms.size();
  MvaResult r;
  r.residence_ms.assign(k, 0);
  r.queue_length.assign(k, 0);
  r.utilization.assign(k, 0);
  double max_demand = 0;
  for (double d : demands_ms) max_demand = std::max(max_demand, d);
  for (int n = 1; n <= clients; ++n) {
    double total = delay_ms;
    for (size_t i = 0; i < k; ++i) {
      r.residence_ms[i] = demands_ms[i] * (r.queue_length[i] + r.utilization[i] / 2);
      total += r.residence_ms[i];
    }
    double x = total > 0 ? n / total : 0;
    if (max_demand > 0) x = std::min(x, 1 / max_demand);
    r.throughput_per_ms = x;
    r.cycle_ms = x > 0 ? n / x : total;
    for (size_t i = 0; i < k; ++i) {
      r.queue_length[i] = x * r.residence_ms[i];
      r.utilization[i] = x * demands_ms[i];
    }
  }
  return r;
}

double ForkJoinFactor(double k) {
  if (k <= 1) return 1;
  const int whole = static_cast<int>(std::floor(k));
  double h = 0;
  for (int i = 1; i <= whole; ++i) h += 1.0 / i;
  return h + (k - whole) / (whole + 1);
}

}  // namespace pgstorsim
