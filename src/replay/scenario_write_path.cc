#include "replay/scenario_write_path.h"

#include <algorithm>

#include "sim/sim_config.h"

namespace pgstorsim {

Status ApplyScenarioWritePath(const Scenario& scenario, ReplayOptions* options) {
  auto sim = sim::SimConfigFromScenario(scenario);
  if (!sim.ok()) return sim.status().WithContext("--scenario " + scenario.source_file);
  options->buffered_data_writes = scenario.io.data_writes == DataWrites::kBuffered;
  options->os_cache_bytes =
      std::max<int64_t>(0, sim->ram_bytes - sim->shared_buffers_bytes - sim->os_reserved_bytes);
  options->os_dirty_background_bytes = scenario.host.dirty_background_bytes;
  options->os_dirty_limit_bytes = scenario.host.dirty_limit_bytes;
  return Status::Ok();
}

}  // namespace pgstorsim
