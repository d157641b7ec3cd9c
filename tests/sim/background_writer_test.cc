// The simulator's OS write-back (sim/background_writer.h) under Linux's dirty
// thresholds (pgmodel/os_dirty_limits.h), on a throttled RAID 10 without a controller
// cache, where the OS page cache is the only place a dirty page can wait.
#include <gtest/gtest.h>

#include "common/units.h"
#include "pgmodel/host_scenario.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"
#include "sim_test_util.h"

namespace pgstorsim::sim {
namespace {

constexpr double kWriteIops = 150;
constexpr int64_t kSeconds = 40;

SimConfig Rig(int64_t os_cache_bytes) {
  return ThrottledRaid10(os_cache_bytes, 150, kWriteIops, kSeconds);
}

TEST(BackgroundWriterTest, DirtyLimitHoldsBackendsToTheDisksWriteRate) {
  const Results r = MustSimulate(Rig(16LL << 20));
  const nlohmann::json& bw = r.sections["background_writes"];
  EXPECT_EQ(bw["os_dirty_limit_bytes"], (16LL << 20) / 5);  // 20 % of the cache.
  EXPECT_GT(bw["throttled_backend_writes"].get<uint64_t>(), 0u);
  // What the backends wrote reached the members, but for what the OS still holds.
  const auto evicted = bw["eviction_writes"].get<double>();
  uint64_t member_writes = 0;
  for (const auto& d : r.sections["devices"]) {
    const auto writes = d["writes"].get<uint64_t>();
    EXPECT_LE(writes, kWriteIops * kSeconds * 1.02) << d["name"];  // Never above the cap.
    member_writes += writes;
  }
  // Two copies of each write; dirty or in flight at the end: at most the limit's 409
  // pages and what the four clients wrote since they last checked it.
  const auto held = bw["os_dirty_at_end"].get<double>() + bw["queued_at_end"].get<double>() +
                    bw["in_flight_at_end"].get<double>();
  EXPECT_NEAR(member_writes / 2.0 + held, evicted, 420);
  EXPECT_LT(held, 420);
  // Throttled backends always resume: no interval without transactions.
  for (const auto& point : r.series) EXPECT_GT(point.tps, 0) << point.t_s;
}

TEST(BackgroundWriterTest, LargePageCacheHoldsAShortRunsWrites) {
  // 25 s: no page is 30 s old, and no checkpoint (max_wal_size 16 GiB).
  auto short_run = [](int64_t os_cache_bytes) {
    SimConfig c = Rig(os_cache_bytes);
    c.duration_ns = 25 * kNsPerSec;
    c.host.checkpoint_wal_bytes = pgmodel::CheckpointWalBytes(0, 16LL << 30, 0.9);
    c.host.wal_cache_region_bytes = pgmodel::WalRegionBytes(0, 16LL << 30, 0.9);
    return c;
  };
  const Results small = MustSimulate(short_run(16LL << 20));
  SimConfig c = short_run(8LL << 30);
  const Results large = MustSimulate(c);
  const nlohmann::json& bw = large.sections["background_writes"];
  EXPECT_EQ(bw["throttled_backend_writes"], 0);
  for (const auto& d : large.sections["devices"]) EXPECT_EQ(d["writes"], 0) << d["name"];
  EXPECT_GT(large.tps, 1.2 * small.tps);
  // The same cache with the thresholds given small: the writes reach the members again.
  c.os_dirty.background_bytes = 1LL << 20;
  c.os_dirty.limit_bytes = 2LL << 20;
  const Results given = MustSimulate(c);
  EXPECT_GT(given.sections["background_writes"]["throttled_backend_writes"].get<uint64_t>(), 0u);
  EXPECT_LT(given.tps, 0.9 * large.tps);
}

}  // namespace
}  // namespace pgstorsim::sim
