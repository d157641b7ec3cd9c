#include "pgmodel/host_scenario.h"

#include <algorithm>
#include <cmath>

#include "common/units.h"

namespace pgstorsim::pgmodel {
namespace {

constexpr int64_t kOsReservedBytes = 1LL << 30;

constexpr int kDefaultCheckpointSegments = 3;
constexpr int64_t kDefaultMaxWalSizeBytes = 1LL << 30;

}  // namespace

int CheckpointSegments(const PostgresConfig& pg) {
  if (!HasCheckpointSegments(pg)) return 0;
  return pg.checkpoint_segments > 0 ? pg.checkpoint_segments : kDefaultCheckpointSegments;
}

bool CommitsWriteToDataVolume(const PostgresConfig& pg) {
  return pg.synchronous_commit && pg.wal_on_data_volume;
}

int64_t MaxWalSizeBytes(const PostgresConfig& pg) {
  return pg.max_wal_size_bytes > 0 ? pg.max_wal_size_bytes : kDefaultMaxWalSizeBytes;
}

int64_t CheckpointWalBytes(int segments, int64_t max_wal_size_bytes, double target) {
  if (segments > 0) return segments * kWalSegmentBytes;
  return static_cast<int64_t>(static_cast<double>(max_wal_size_bytes) / (1 + target));
}

int64_t WalRegionBytes(int segments, int64_t max_wal_size_bytes, double target) {
  if (segments > 0) return static_cast<int64_t>((2 + target) * segments + 1) * kWalSegmentBytes;
  return 2 * max_wal_size_bytes;
}

int64_t WalRegionBytesOf(const PostgresConfig& pg) {
  return WalRegionBytes(CheckpointSegments(pg), MaxWalSizeBytes(pg),
                        CheckpointCompletionTarget(pg));
}

OsDirtyLimits OsDirtyLimitsOf(const Scenario& s) {
  if (s.io.data_writes == DataWrites::kDirect) return {0, 0, 0};
  OsDirtyLimits limits =
      OsDirtyLimitsFor(OsCacheBytes(s), s.host.dirty_background_bytes, s.host.dirty_limit_bytes);
  auto expire = s.calibration.values.find("os_dirty_expire_s");
  if (expire != s.calibration.values.end()) {
    limits.expire_ns = static_cast<int64_t>(expire->second * 1e9);
  }
  return limits;
}

int OsWritesInFlight(const Scenario& s) {
  auto given = s.calibration.values.find("os_writes_outstanding");
  if (given == s.calibration.values.end()) return kOsWritesInFlight;
  return static_cast<int>(std::lround(given->second));
}

int64_t OsCacheBytes(const Scenario& s) {
  const int64_t beside_shared = s.host.ram_bytes - s.postgres.shared_buffers_bytes;
  if (s.host.os_cache_bytes > 0) return s.host.os_cache_bytes;
  auto fraction = s.calibration.values.find("cache_fraction");
  if (fraction != s.calibration.values.end()) {
    const auto bytes =
        static_cast<int64_t>(fraction->second * static_cast<double>(s.host.ram_bytes));
    return std::max<int64_t>(0, std::min(beside_shared, bytes));
  }
  return std::max<int64_t>(0, beside_shared - kOsReservedBytes);
}

void SizeCaches(int64_t shared_buffers_bytes, int64_t os_cache_bytes, bool linux_page_cache,
                CacheConfig* cache) {
  cache->shared_buffers_pages = shared_buffers_bytes / kPageBytes;
  cache->os_cache_pages = os_cache_bytes / kPageBytes;
  // Linux's active and inactive lists (docs/lab.md, "What a warm run caches").
  cache->os_active_ratio = OsActiveRatio(cache->os_cache_pages, linux_page_cache);
}

HostConfig HostConfigFromScenario(const Scenario& s) {
  HostConfig h;
  h.workload = s.workload.type;
  h.scale = s.workload.scale;
  SizeCaches(s.postgres.shared_buffers_bytes, OsCacheBytes(s), UsesLinuxPageCache(s.filesystem),
             &h.cache);
  h.cache.readahead_max_pages = s.filesystem.os_readahead_bytes / kPageBytes;
  h.start = s.workload.cache == CacheState::kWarm ? CacheStart::kWarm : CacheStart::kCold;
  h.full_page_writes = s.postgres.full_page_writes;
  h.checkpoint_timeout_ns = s.postgres.checkpoint_timeout_ns;
  const int segments = CheckpointSegments(s.postgres);
  const double target = CheckpointCompletionTarget(s.postgres);
  const int64_t max_wal = MaxWalSizeBytes(s.postgres);
  h.checkpoint_wal_bytes = CheckpointWalBytes(segments, max_wal, target);
  h.checkpoint_completion_target = target;
  h.wal_cache_region_bytes = WalRegionBytesOf(s.postgres);
  return h;
}

}  // namespace pgstorsim::pgmodel
