// `simulate --sweep`: one simulation per point of a shard of a sweep
// (scenario/sweep_spec.h), `jobs` at a time on threads. Each point runs its own
// scenario (seed included) from scratch, so its row does not depend on `jobs`, the
// order of execution or the shard it is in. Rows (sections.sweep of a "simulate"
// results document): {"settings" (SweepSettingsJson: results names, units in the
// key), "index" (in the whole sweep), "tps", "latency_ms" (mean), "p50_ms", "p95_ms", "p99_ms", "statements_ms": {name:
// {"mean", "p50", "p95", "p99"}}, "devices": [{"name", "utilization"}], "transactions",
// "duration_s", "base"}; a refused point has settings, index and "error".
// Thread safety: RunSimulationSweep is called from one thread; it starts `jobs`.
#ifndef PGSTORSIM_SIM_SWEEP_RUNNER_H_
#define PGSTORSIM_SIM_SWEEP_RUNNER_H_

#include <functional>
#include <string>

#include "common/results.h"
#include "common/status.h"
#include "scenario/scenario.h"
#include "scenario/sweep_spec.h"

namespace pgstorsim {
namespace sim {

struct SweepRun {
  Results results;  // kind "simulate", label "<base> sweep", config.sweep, sections.sweep.
  size_t refused = 0;
};

// `progress` (may be empty) is called after each point, from the worker threads, with
// the point's row; it must be thread-safe. REQUIRES: jobs >= 1.
StatusOr<SweepRun> RunSimulationSweep(const Scenario& base, const SweepSpec& spec,
                                      const Shard& shard, int jobs,
                                      const std::function<void(const nlohmann::json&)>& progress);

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_SWEEP_RUNNER_H_
