#include "sim/host_cpu.h"

#include <algorithm>

#include "sim/results_writer.h"

namespace pgstorsim {
namespace sim {

HostCpu::HostCpu(const Simulator& sim, int cores) : sim_(sim), core_free_ns_(cores, 0) {}

// Any idle core will do (time only moves forward, so every idle core starts the next
// job now, as the one freed first would), and usually the first is idle: no scan of
// all cores.
int64_t HostCpu::Run(int64_t cost_ns) {
  const int64_t now = sim_.now_ns();
  auto core = std::find_if(core_free_ns_.begin(), core_free_ns_.end(),
                           [now](int64_t free_ns) { return free_ns <= now; });
  if (core == core_free_ns_.end()) {
    core = std::min_element(core_free_ns_.begin(), core_free_ns_.end());
  }
  const int64_t start = std::max(*core, now);
  *core = start + cost_ns;
  busy_ns_ += cost_ns;
  return *core;
}

// Busy time up to the end of the measured span: jobs start no later than the last
// event, so a core whose work runs past the end is busy from the end on; not counted.
void HostCpu::Report(ResultsWriter& out) const {
  const int cores = static_cast<int>(core_free_ns_.size());
  int64_t busy_ns = busy_ns_;
  for (int64_t free_ns : core_free_ns_) busy_ns -= std::max<int64_t>(0, free_ns - out.elapsed_ns());
  out.Section("cpu") = {{"cores", cores},
                        {"utilization", static_cast<double>(busy_ns) /
                                            (static_cast<double>(out.elapsed_ns()) * cores)}};
}

}  // namespace sim
}  // namespace pgstorsim
