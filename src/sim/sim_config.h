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

struct SimConfig {
  uint64_t seed = 1;
  // Workload.
  WorkloadKind workload = WorkloadKind::kTpcbLike;
  int64_t scale = 100;
  int clients = 10;
  int64_t duration_ns = 60LL * 1000 * 1000 * 1000;
  int64_t transactions_per_client = 0;  // 0 = run for duration_ns.
  double rate_tps = 0;                  // 0 = closed loop (think time 0).
  bool warm = true;                     // Caches pre-filled hottest first.
  // Host.
  int cpu_cores = 8;
  int64_t ram_bytes = 16LL << 30;
  int64_t os_reserved_bytes = 1LL << 30;  // RAM not available to the OS page cache.
  bool linux_page_cache = true;           // OS cache as Linux's two lists (UsesLinuxPageCache).
  std::array<int64_t, kStatementCount> cpu_ns = {20'000, 60'000, 50'000, 60'000,
                                                 60'000, 40'000, 20'000};
  int64_t client_rtt_ns = 30'000;
  // PostgreSQL.
  int64_t shared_buffers_bytes = 128LL << 20;
  bool synchronous_commit = true;
  // UPDATEs wait for row locks held by other open transactions (sim/row_locks.h).
  bool row_locks = true;
  bool full_page_writes = true;
  // Non-HOT updates and pruning (workload/heap_churn.h); false = every update HOT.
  bool heap_churn = true;
  int64_t checkpoint_timeout_ns = 300LL * 1000 * 1000 * 1000;
  int64_t max_wal_size_bytes = 1LL << 30;
  // > 0: PostgreSQL before 9.5 (postgres.version): a checkpoint every this many
  // 16 MiB WAL segments (checkpoint_segments, default 3); max_wal_size is not used.
  int checkpoint_segments = 0;
  double checkpoint_completion_target = 0.9;  // Set from the version by SimConfigFromScenario.
  bool wal_on_data_volume = true;
  int64_t wal_writer_delay_ns = 200'000'000;
  // Filesystem and OS.
  FsGeometry fs;
  int64_t os_readahead_bytes = 128 << 10;
  // OS writes in flight to the device (the syncer and fsync issue every expired or
  // synced buffer; the device queue, not the OS, bounds them).
  int background_writes_outstanding = 256;
  int64_t os_dirty_expire_ns = pgmodel::kDirtyExpireNs;  // OS write-back age.
  int64_t os_dirty_background_bytes = 0;  // host.dirty_background (0 = the default).
  int64_t os_dirty_limit_bytes = 0;       // host.dirty_limit (0 = the default).
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

// WAL written since the last checkpoint that starts the next one.
int64_t CheckpointWalBytes(const SimConfig& config);
// The WAL files' size on disk (the circular region of the volume).
int64_t WalRegionBytes(const SimConfig& config);

// The OS page cache for the database's files: RAM - shared_buffers - os_reserved_bytes,
// at least 0 (bytes; SimConfigFromScenario sets os_reserved_bytes so that this is
// pgmodel::OsCacheBytes of the scenario).
int64_t OsCacheBytes(const SimConfig& config);
// The PostgreSQL host model (pgmodel/host.h) of this configuration.
pgmodel::HostConfig HostConfigFor(const SimConfig& config);
// The OS page cache's dirty thresholds (over HostConfigFor's OS cache), with the
// configured expiry.
pgmodel::OsDirtyLimits OsDirtyLimitsOf(const SimConfig& config);

// Maps a validated Scenario (plus its [calibration] values) to a SimConfig.
StatusOr<SimConfig> SimConfigFromScenario(const Scenario& scenario);

// Whether the simulator binds calibration key `key` to a SimConfig field (every
// simulator row of scenario/calibration_keys.h, and nothing else).
bool SimulatorReadsCalibrationKey(const std::string& key);

// The parameters that shaped the run, for Results::config.
nlohmann::json SimConfigToJson(const SimConfig& config);

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_SIM_CONFIG_H_
