// replay --scenario F replays on the host `simulate --scenario F` simulates: the same OS
// page cache (pgmodel::OsCacheBytes) and dirty thresholds.
#include "replay/scenario_write_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/units.h"
#include "pgmodel/host_scenario.h"
#include "sim/sim_config.h"

namespace pgstorsim {
namespace {

const std::string kBase = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";

void ExpectSimulatorsHost(const std::vector<std::string>& overrides) {
  auto scenario = LoadScenario(kBase, overrides);
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  ReplayOptions options;
  ASSERT_TRUE(ApplyScenarioWritePath(*scenario, &options).ok());
  auto sim = sim::SimConfigFromScenario(*scenario);
  ASSERT_TRUE(sim.ok()) << sim.status().message();
  EXPECT_EQ(options.os_cache_bytes / kPageBytes, sim->host.cache.os_cache_pages);
  EXPECT_GT(options.os_cache_bytes, 0);
  const pgmodel::OsDirtyLimits limits = pgmodel::OsDirtyLimitsFor(
      options.os_cache_bytes, options.os_dirty_background_bytes, options.os_dirty_limit_bytes);
  EXPECT_EQ(limits.background_bytes, pgmodel::OsDirtyLimitsOf(*scenario).background_bytes);
  EXPECT_EQ(limits.limit_bytes, pgmodel::OsDirtyLimitsOf(*scenario).limit_bytes);
  EXPECT_EQ(limits.background_bytes, sim->os_dirty.background_bytes);
  EXPECT_EQ(limits.limit_bytes, sim->os_dirty.limit_bytes);
}

TEST(ScenarioWritePathTest, RamLessSharedBuffersAndTheOsReserve) {
  ExpectSimulatorsHost({"host.ram=8GiB", "postgres.shared_buffers=1GiB"});
}

TEST(ScenarioWritePathTest, HostOsCacheAndDirtyThresholds) {
  ExpectSimulatorsHost(
      {"host.os_cache=3GiB", "host.dirty_background=64MiB", "host.dirty_limit=256MiB"});
}

TEST(ScenarioWritePathTest, CalibratedCacheFraction) {
  ExpectSimulatorsHost({"calibration.cache_fraction=0.3", "host.ram=24GiB"});
}

TEST(ScenarioWritePathTest, DataWritesFromTheScenario) {
  auto scenario = LoadScenario(kBase, {"io.data_writes=direct"});
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  ReplayOptions options;
  options.buffered_data_writes = true;
  ASSERT_TRUE(ApplyScenarioWritePath(*scenario, &options).ok());
  EXPECT_FALSE(options.buffered_data_writes);
}

}  // namespace
}  // namespace pgstorsim
