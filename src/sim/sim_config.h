// SimConfig: every parameter of one simulation, in explicit units, filled from a
// Scenario (SimConfigFromScenario) or built directly by tests. Plain value type.
//
// The [calibration] keys it reads, the analytic model's parameters and the
// simulator-only ones, are the rows of scenario/calibration_keys.h with `simulator`
// set (docs/simulator.md maps each to its physical meaning); sim_config.cc binds each
// to its SimConfig field and applies them in the table's order.
#ifndef PGSTORSIM_SIM_SIM_CONFIG_H_
#define PGSTORSIM_SIM_SIM_CONFIG_H_

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"
#include "layout/fs_mapping.h"
#include "layout/raid_layout.h"
#include "pgmodel/host.h"
#include "pgmodel/os_dirty_limits.h"
#include "sim/controller.h"
#include "sim/disk.h"
#include "workload/tpcb.h"

namespace pgstorsim {
struct Scenario;
namespace sim {

// The built-in scenario's (a default Scenario's) host model and OS dirty thresholds, by
// pgmodel::HostConfigFromScenario and pgmodel::OsDirtyLimitsOf: SimConfig's defaults.
pgmodel::HostConfig DefaultHost();
pgmodel::OsDirtyLimits DefaultOsDirtyLimits();

struct SimConfig {
  uint64_t seed = 1;
  // PostgreSQL on the host (pgmodel/host.h): the workload's kind and scale, the caches,
  // how they start, heap churn, full-page writes, checkpoints and the WAL files' size
  // (wal_cache_region_bytes, also the WAL's region of the volume).
  pgmodel::HostConfig host = DefaultHost();
  // Workload.
  int clients = 10;
  int64_t duration_ns = 60LL * 1000 * 1000 * 1000;
  int64_t transactions_per_client = 0;  // 0 = run for duration_ns.
  double rate_tps = 0;                  // 0 = closed loop (think time 0).
  // Host.
  int cpu_cores = 8;
  int64_t ram_bytes = 16LL << 30;  // host.ram, reported (the caches' sizes are in `host`).
  std::array<int64_t, kStatementCount> cpu_ns = {20'000, 60'000, 50'000, 60'000,
                                                 60'000, 40'000, 20'000};
  int64_t client_rtt_ns = 30'000;
  // PostgreSQL.
  bool synchronous_commit = true;
  // UPDATEs wait for row locks held by other open transactions (sim/row_locks.h).
  bool row_locks = true;
  bool wal_on_data_volume = true;
  int64_t wal_writer_delay_ns = 200'000'000;
  // Filesystem and OS.
  FsGeometry fs;
  // OS writes in flight to the device (pgmodel::OsWritesInFlight).
  int background_writes_outstanding = pgmodel::kOsWritesInFlight;
  // The OS page cache's dirty thresholds (over the cache's bytes, as predict's) and
  // write-back age.
  pgmodel::OsDirtyLimits os_dirty = DefaultOsDirtyLimits();
  // io.data_writes = direct: a backend writes its dirty victim synchronously before
  // reading into the buffer, and the checkpointer's writes go to the disks at once
  // (no OS page cache between); false: PostgreSQL's buffered path.
  bool direct_data_writes = false;
  // Storage.
  SimControllerConfig controller;
  ArrayGeometry array;
  SimDiskConfig disk;
  // Output.
  int64_t series_interval_ns = 0;  // 0 = max(1 s, duration / 60).
};

// Range checks of the host/PostgreSQL/workload part (storage parts are validated by
// Controller::Create); messages name the scenario key.
Status ValidateSimConfig(const SimConfig& config);

// Sizes shared buffers and the OS page cache (bytes) of a configuration built directly
// as a scenario on Linux with these sizes does: the host model's caches
// (pgmodel::SizeCaches) and the OS's default dirty thresholds over that cache (the
// write-back age stays).
void SetCacheSizes(int64_t shared_buffers_bytes, int64_t os_cache_bytes, SimConfig* config);

// Maps a validated Scenario (plus its [calibration] values) to a SimConfig; its host is
// pgmodel::HostConfigFromScenario's, its dirty thresholds pgmodel::OsDirtyLimitsOf's.
StatusOr<SimConfig> SimConfigFromScenario(const Scenario& scenario);

// Whether the simulator binds calibration key `key` to a SimConfig field (every
// simulator row of scenario/calibration_keys.h, and nothing else).
bool SimulatorReadsCalibrationKey(const std::string& key);

// The simulator's own parameters, for Results::config.sim: what the scenario keys do not
// say themselves (config.scenario holds those, ScenarioResultsConfig), each under one
// name with its unit in it: the OS cache as sized (os_cache_sized_bytes,
// pgmodel::OsCacheBytes), the WAL between checkpoints (checkpoint_wal_bytes), the
// [calibration] values bound to the simulator (cpu_ns per statement, client_rtt_ns,
// row_locks, disk_seek_scale, controller_whole_block_reads,
// controller_destage_position_ns: -1 when not set) and the storage as derived from the
// keys (disk_scheduler, controller_cache, controller_write_back,
// controller_write_cache_bytes, controller_read_ahead).
nlohmann::json SimConfigToJson(const SimConfig& config);

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_SIM_CONFIG_H_
