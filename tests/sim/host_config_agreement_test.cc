// One scenario, one host model: simulate (SimConfigFromScenario), predict's demands and
// replay (pgmodel::HostConfigFromScenario, pgmodel::OsDirtyLimitsOf) and trace
// (GeneratorOptionsFromScenario's host) get the same pgmodel::HostConfig and OS dirty
// thresholds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pgmodel/host_scenario.h"
#include "scenario/scenario.h"
#include "sim/sim_config.h"
#include "trace/trace_scenario.h"

namespace pgstorsim {
namespace {

// Every HostConfig field, by name.
nlohmann::json Fields(const pgmodel::HostConfig& h) {
  const CacheConfig& c = h.cache;
  return {{"workload", WorkloadKindName(h.workload)},
          {"scale", h.scale},
          {"fillfactor", h.fillfactor},
          {"measured_relations", h.measured_relations},
          {"shared_buffers_pages", c.shared_buffers_pages},
          {"os_cache_pages", c.os_cache_pages},
          {"max_usage_count", c.max_usage_count},
          {"readahead_max_pages", c.readahead_max_pages},
          {"bgwriter_lru_maxpages", c.bgwriter_lru_maxpages},
          {"bgwriter_lru_multiplier", c.bgwriter_lru_multiplier},
          {"bgwriter_delay_ms", c.bgwriter_delay_ms},
          {"os_active_ratio", c.os_active_ratio},
          {"start", static_cast<int>(h.start)},
          {"heap_churn", h.heap_churn},
          {"full_page_writes", h.full_page_writes},
          {"checkpoint_timeout_ns", h.checkpoint_timeout_ns},
          {"checkpoint_wal_bytes", h.checkpoint_wal_bytes},
          {"checkpoint_completion_target", h.checkpoint_completion_target},
          {"wal_cache_region_bytes", h.wal_cache_region_bytes}};
}

void ExpectOneHost(const std::vector<std::string>& overrides) {
  SCOPED_TRACE(nlohmann::json(overrides).dump());
  StatusOr<Scenario> s = DefaultScenario(overrides);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const nlohmann::json model = Fields(pgmodel::HostConfigFromScenario(*s));
  StatusOr<sim::SimConfig> sim = sim::SimConfigFromScenario(*s);
  ASSERT_TRUE(sim.ok()) << sim.status().message();
  EXPECT_EQ(Fields(sim->host), model);
  StatusOr<GeneratorOptions> trace = GeneratorOptionsFromScenario(*s);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_EQ(Fields(trace->host), model);
  // The OS's dirty thresholds in bytes of the same cache (the expiry is the simulator's
  // calibration).
  const pgmodel::OsDirtyLimits limits = pgmodel::OsDirtyLimitsOf(*s);
  EXPECT_EQ(sim->os_dirty.background_bytes, limits.background_bytes);
  EXPECT_EQ(sim->os_dirty.limit_bytes, limits.limit_bytes);
}

TEST(HostConfigAgreement, BuiltInScenario) { ExpectOneHost({}); }

TEST(HostConfigAgreement, ColdSelectOnlyWithoutFullPageWrites) {
  ExpectOneHost({"workload.cache=cold", "workload.type=select-only", "workload.scale=7",
                 "postgres.full_page_writes=off", "postgres.checkpoint_timeout=90s"});
}

TEST(HostConfigAgreement, PostgreSql91CheckpointSegments) {
  ExpectOneHost({"postgres.version=9.1", "postgres.checkpoint_segments=10",
                 "postgres.checkpoint_completion_target=0.7"});
}

TEST(HostConfigAgreement, MaxWalSizeAndCompletionTarget) {
  ExpectOneHost({"postgres.max_wal_size=3GiB", "postgres.checkpoint_completion_target=0.5"});
}

// An OS cache that is not a whole number of pages: the host counts whole pages, the
// dirty thresholds take the bytes.
TEST(HostConfigAgreement, OsCacheOfOddBytesAndGivenThresholds) {
  ExpectOneHost(
      {"host.os_cache=1000000001", "postgres.shared_buffers=1GiB", "host.dirty_background=64MiB"});
  StatusOr<Scenario> s = DefaultScenario({"host.os_cache=1000000001"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<sim::SimConfig> sim = sim::SimConfigFromScenario(*s);
  ASSERT_TRUE(sim.ok()) << sim.status().message();
  EXPECT_EQ(sim->host.cache.os_cache_pages, 1000000001 / 8192);
  EXPECT_EQ(sim->os_dirty.background_bytes, 100000000);  // 10 % of the bytes.
}

TEST(HostConfigAgreement, CalibratedCacheFractionOnUfs2) {
  ExpectOneHost({"calibration.cache_fraction=0.37", "host.ram=24GiB", "filesystem.type=ufs2",
                 "filesystem.os_readahead=1MiB"});
}

}  // namespace
}  // namespace pgstorsim
