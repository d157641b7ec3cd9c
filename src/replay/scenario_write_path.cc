#include "replay/scenario_write_path.h"

#include "pgmodel/host_scenario.h"

namespace pgstorsim {

Status ApplyScenarioWritePath(const Scenario& scenario, ReplayOptions* options) {
  options->buffered_data_writes = scenario.io.data_writes == DataWrites::kBuffered;
  options->os_cache_bytes = pgmodel::OsCacheBytes(scenario);
  options->os_dirty_background_bytes = scenario.host.dirty_background_bytes;
  options->os_dirty_limit_bytes = scenario.host.dirty_limit_bytes;
  return Status::Ok();
}

}  // namespace pgstorsim
