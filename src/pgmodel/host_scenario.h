// The host model's settings derived from a Scenario, once for every instrument
// (trace --scenario, simulate, the analytic model's demands).
// Units: bytes, ns. Thread safety: pure functions.
#ifndef PGSTORSIM_PGMODEL_HOST_SCENARIO_H_
#define PGSTORSIM_PGMODEL_HOST_SCENARIO_H_

#include <cstdint>

#include "common/status.h"
#include "pgmodel/host.h"
#include "pgmodel/os_dirty_limits.h"
#include "scenario/scenario.h"

namespace pgstorsim::pgmodel {

// checkpoint_segments in force: postgres.checkpoint_segments (default 3, 48 MiB) before
// 9.5, 0 since (max_wal_size).
int CheckpointSegments(const PostgresConfig& pg);
// True when a commit waits for a write on the data volume: synchronous commit with the
// WAL on the data array (postgres.wal_on_data_volume). A WAL on its own device is an
// ideal one in every instrument (the simulator's WalLog without a controller).
bool CommitsWriteToDataVolume(const PostgresConfig& pg);
// max_wal_size in force: postgres.max_wal_size, default 1 GiB (not used before 9.5).
int64_t MaxWalSizeBytes(const PostgresConfig& pg);

// The WAL inserted since the redo point that starts the next checkpoint:
// checkpoint_segments x 16 MiB when segments > 0 (before 9.5), else
// max_wal_size / (1 + completion_target) (xlog.c CalculateCheckpointSegments).
int64_t CheckpointWalBytes(int checkpoint_segments, int64_t max_wal_size_bytes,
                           double completion_target);
// The WAL files kept on disk (the circular region their pages wrap in):
// (2 + completion_target) x checkpoint_segments + 1 segments before 9.5, else
// 2 x max_wal_size.
int64_t WalRegionBytes(int checkpoint_segments, int64_t max_wal_size_bytes,
                       double completion_target);
// The same for the settings in force in `pg` (CheckpointSegments, MaxWalSizeBytes,
// CheckpointCompletionTarget): HostConfig::wal_cache_region_bytes.
int64_t WalRegionBytesOf(const PostgresConfig& pg);

// The OS page cache that holds database pages: host.os_cache when given, else
// calibration cache_fraction x RAM (at most RAM - shared_buffers) when calibrated,
// else RAM - shared_buffers - 1 GiB (the kernel and the processes keep the rest).
int64_t OsCacheBytes(const Scenario& s);
// The OS's dirty thresholds over that cache (host.dirty_background, host.dirty_limit),
// expiring after calibration os_dirty_expire_s when given. With io.data_writes = direct
// the OS page cache holds no data page dirty: every threshold and the expiry are 0.
OsDirtyLimits OsDirtyLimitsOf(const Scenario& s);
// The OS's writes in flight during write-back: calibration os_writes_outstanding, else
// kOsWritesInFlight. ValidateScenario refuses a value below 1.
int OsWritesInFlight(const Scenario& s);

// Sizes `cache` for shared buffers and an OS page cache of these bytes (in whole 8 KiB
// pages) and sets the OS cache's lists for that size: Linux's active and inactive lists
// when `linux_page_cache` (scenario UsesLinuxPageCache), else one list.
void SizeCaches(int64_t shared_buffers_bytes, int64_t os_cache_bytes, bool linux_page_cache,
                CacheConfig* cache);

// Every HostConfig field from the scenario (workload, caches, checkpoints, WAL).
HostConfig HostConfigFromScenario(const Scenario& s);

}  // namespace pgstorsim::pgmodel

#endif  // PGSTORSIM_PGMODEL_HOST_SCENARIO_H_
