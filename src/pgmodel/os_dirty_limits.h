// The OS page cache's dirty-data thresholds, Linux's defaults (mm/page-writeback.c:
// vm.dirty_background_ratio 10, vm.dirty_ratio 20, vm.dirty_expire_centisecs 3000) over
// the page cache the database's files get (pgmodel::OsCacheBytes):
// - above `background_bytes` dirty, the flusher writes the oldest dirty pages back;
// - a page dirty for `expire_ns` is written back whatever the amount;
// - a writer that finds more than `limit_bytes` dirty is throttled until it is below
//   (balance_dirty_pages).
// One truth for the replayer's emulated write-back, the simulator's and predict's.
// Units: bytes, ns, bytes per second.
#ifndef PGSTORSIM_PGMODEL_OS_DIRTY_LIMITS_H_
#define PGSTORSIM_PGMODEL_OS_DIRTY_LIMITS_H_

#include <algorithm>
#include <cstdint>

namespace pgstorsim::pgmodel {

inline constexpr double kDirtyBackgroundRatio = 0.10;
inline constexpr double kDirtyRatio = 0.20;
inline constexpr int64_t kDirtyExpireNs = 30LL * 1000 * 1000 * 1000;
// Writes the OS keeps in flight to the device while it writes back (the syncer and
// fsync issue every expired or synced buffer; the device queue, not the OS, bounds
// them), unless calibration os_writes_outstanding says otherwise.
inline constexpr int kOsWritesInFlight = 256;

struct OsDirtyLimits {
  int64_t background_bytes = 0;
  int64_t limit_bytes = 0;
  int64_t expire_ns = kDirtyExpireNs;
};

// The thresholds over an OS page cache of `os_cache_bytes`: the given ones
// (`background_bytes`, `limit_bytes`: host.dirty_background / host.dirty_limit, 0 =
// the ratios above), at most the cache itself (dirty pages are cached pages; where the
// system-wide thresholds exceed a memory cgroup's cache, reclaim writes them back).
inline OsDirtyLimits OsDirtyLimitsFor(int64_t os_cache_bytes, int64_t background_bytes = 0,
                                      int64_t limit_bytes = 0) {
  const int64_t cache = std::max<int64_t>(0, os_cache_bytes);
  const auto share = [cache](int64_t given, double ratio) {
    const int64_t bytes =
        given > 0 ? given : static_cast<int64_t>(ratio * static_cast<double>(cache));
    return std::min(cache, bytes);
  };
  return {share(background_bytes, kDirtyBackgroundRatio), share(limit_bytes, kDirtyRatio),
          kDirtyExpireNs};
}

// The bytes a steady stream of dirtying at `bytes_per_s` keeps dirty in the page cache:
// the flusher holds the dirty set at the background threshold or at `expire_ns` worth of
// the stream, whichever is smaller.
inline double SteadyDirtyBytes(const OsDirtyLimits& limits, double bytes_per_s) {
  const double aged = std::max(0.0, bytes_per_s) * static_cast<double>(limits.expire_ns) / 1e9;
  return std::min(static_cast<double>(limits.background_bytes), aged);
}

}  // namespace pgstorsim::pgmodel

#endif  // PGSTORSIM_PGMODEL_OS_DIRTY_LIMITS_H_
