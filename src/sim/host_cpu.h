// HostCpu: the database host's cores as one first-come-first-served station of
// identical cores. A job of cost_ns that arrives now takes the core that frees first
// and ends at the returned time; the busy time gives the utilization in the section
// "cpu". Units: ns. Thread safety: none.
#ifndef PGSTORSIM_SIM_HOST_CPU_H_
#define PGSTORSIM_SIM_HOST_CPU_H_

#include <cstdint>
#include <vector>

#include "sim/simulator.h"

namespace pgstorsim {
namespace sim {

class HostCpu : public Component {
 public:
  // `sim` must outlive the station. REQUIRES: cores >= 1.
  HostCpu(const Simulator& sim, int cores);

  // Queues a job of cost_ns now; returns the simulated time it ends.
  int64_t Run(int64_t cost_ns);

  void HandleEvent(const Event& e) override {}
  void Report(ResultsWriter& out) const override;

 private:
  const Simulator& sim_;
  std::vector<int64_t> core_free_ns_;
  int64_t busy_ns_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_HOST_CPU_H_
