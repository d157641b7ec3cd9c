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

void HostCpu::Report(ResultsWriter& out) const {
  const int cores = static_cast<int>(core_free_ns_.size());
  out.Section("cpu") = {
      {"cores", cores},
      {"utilization", static_cast<double>(busy_ns_) /
                          (static_cast<double>(out.elapsed_ns()) * cores)}};
}

}  // namespace sim
}  // namespace pgstorsim
