// The replay's share of a scenario's host: the data-write path (io.data_writes) and the
// OS page cache that buffered writes go through, pgmodel::OsCacheBytes (host.os_cache,
// else calibration cache_fraction x RAM, else RAM - shared_buffers - the OS reserve), the
// one the simulator and predict use, so that `replay --scenario F` and
// `simulate --scenario F` describe the same host.
// Thread safety: pure function.
#ifndef PGSTORSIM_REPLAY_SCENARIO_WRITE_PATH_H_
#define PGSTORSIM_REPLAY_SCENARIO_WRITE_PATH_H_

#include "common/status.h"
#include "replay/replayer.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// Sets options->buffered_data_writes, options->os_cache_bytes and its dirty thresholds
// from `scenario`.
Status ApplyScenarioWritePath(const Scenario& scenario, ReplayOptions* options);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_SCENARIO_WRITE_PATH_H_
