#include "pgmodel/os_dirty_limits.h"

#include <gtest/gtest.h>

#include "pgmodel/host_scenario.h"
#include "scenario/scenario.h"

namespace pgstorsim::pgmodel {
namespace {

constexpr int64_t kMiB = 1 << 20;

TEST(OsDirtyLimits, LinuxDefaultRatiosOfThePageCache) {
  const OsDirtyLimits l = OsDirtyLimitsFor(100 * kMiB);
  EXPECT_EQ(l.background_bytes, 10 * kMiB);
  EXPECT_EQ(l.limit_bytes, 20 * kMiB);
  EXPECT_EQ(l.expire_ns, 30LL * 1000 * 1000 * 1000);
  EXPECT_EQ(OsDirtyLimitsFor(0).limit_bytes, 0);  // No page cache: written at once.
}

TEST(OsDirtyLimits, GivenThresholdsAtMostThePageCache) {
  const OsDirtyLimits given = OsDirtyLimitsFor(100 * kMiB, 5 * kMiB, 8 * kMiB);
  EXPECT_EQ(given.background_bytes, 5 * kMiB);
  EXPECT_EQ(given.limit_bytes, 8 * kMiB);
  // A machine's thresholds over a memory cgroup's smaller cache: the cache bounds them.
  const OsDirtyLimits cgroup = OsDirtyLimitsFor(200 * kMiB, 2300 * kMiB, 4600 * kMiB);
  EXPECT_EQ(cgroup.background_bytes, 200 * kMiB);
  EXPECT_EQ(cgroup.limit_bytes, 200 * kMiB);
}

TEST(OsDirtyLimits, SteadyDirtyIsTheThresholdOrExpiresWorth) {
  const OsDirtyLimits l = OsDirtyLimitsFor(100 * kMiB);
  EXPECT_DOUBLE_EQ(SteadyDirtyBytes(l, 1 * kMiB), 10.0 * kMiB);   // 30 MiB aged > 10.
  EXPECT_DOUBLE_EQ(SteadyDirtyBytes(l, 0.1 * kMiB), 3.0 * kMiB);  // 30 s of 0.1 MiB/s.
  EXPECT_DOUBLE_EQ(SteadyDirtyBytes(l, 0), 0);
}

TEST(OsDirtyLimits, FromTheScenariosKeys) {
  Scenario s;
  s.host.ram_bytes = 1024 * kMiB;
  s.host.os_cache_bytes = 400 * kMiB;
  EXPECT_EQ(OsDirtyLimitsOf(s).background_bytes, 40 * kMiB);
  s.host.dirty_background_bytes = 16 * kMiB;
  s.host.dirty_limit_bytes = 48 * kMiB;
  EXPECT_EQ(OsDirtyLimitsOf(s).background_bytes, 16 * kMiB);
  EXPECT_EQ(OsDirtyLimitsOf(s).limit_bytes, 48 * kMiB);
  EXPECT_EQ(OsDirtyLimitsOf(s).expire_ns, kDirtyExpireNs);
  s.calibration.values["os_dirty_expire_s"] = 5;
  EXPECT_EQ(OsDirtyLimitsOf(s).expire_ns, 5LL * 1000 * 1000 * 1000);
}

// O_DIRECT data writes pass the page cache by: it holds none of them dirty, whatever
// the thresholds or the calibrated expiry say.
TEST(OsDirtyLimits, DirectDataWritesLeaveTheOsNothingToHold) {
  Scenario s;
  s.host.dirty_background_bytes = 16 * kMiB;
  s.calibration.values["os_dirty_expire_s"] = 5;
  s.io.data_writes = DataWrites::kDirect;
  const OsDirtyLimits l = OsDirtyLimitsOf(s);
  EXPECT_EQ(l.background_bytes, 0);
  EXPECT_EQ(l.limit_bytes, 0);
  EXPECT_EQ(l.expire_ns, 0);
  EXPECT_DOUBLE_EQ(SteadyDirtyBytes(l, 10.0 * kMiB), 0);
}

}  // namespace
}  // namespace pgstorsim::pgmodel
