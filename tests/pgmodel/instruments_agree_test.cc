// The trace generator and the simulator drive the one PostgreSQL host model: on the same
// scenario and seed (one client, so both run the same transactions in the same order)
// they count the same page reads, page writes, WAL bytes, full-page images and
// checkpoint writes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"
#include "trace/trace_scenario.h"

namespace pgstorsim {
namespace {

struct Case {
  const char* name;
  std::vector<std::string> sets;
};

void ExpectSameHost(const Case& c) {
  SCOPED_TRACE(c.name);
  StatusOr<Scenario> s = DefaultScenario(c.sets);
  ASSERT_TRUE(s.ok()) << s.status().message();
  StatusOr<GeneratorOptions> options = GeneratorOptionsFromScenario(*s);
  ASSERT_TRUE(options.ok()) << options.status().message();
  GeneratorSummary trace;
  Status generated = GenerateTrace(
      *options, [](const TraceRecord&) { return Status::Ok(); }, &trace);
  ASSERT_TRUE(generated.ok()) << generated.message();
  StatusOr<sim::SimConfig> config = sim::SimConfigFromScenario(*s);
  ASSERT_TRUE(config.ok()) << config.status().message();
  StatusOr<sim::SimulationOutput> run = sim::RunSimulation(*config);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const nlohmann::json sim = run->results.sections["host"];
  const nlohmann::json tr = trace.host.ToJson();
  ASSERT_EQ(tr["transactions"], s->workload.transactions);
  ASSERT_EQ(sim["transactions"], tr["transactions"]);
  for (const char* key : {"read_ios", "pages_read", "eviction_writes", "extend_writes",
                          "checkpoint_writes", "wal_record_bytes", "wal_lsn_bytes",
                          "full_page_images", "full_page_image_bytes", "checkpoints",
                          "non_hot_updates", "prunes", "buffers_dirtied"}) {
    EXPECT_EQ(sim[key], tr[key]) << key;
  }
  EXPECT_EQ(sim["per_transaction"], tr["per_transaction"]);
  // Not trivially equal: the scenario exercises what it is meant to.
  EXPECT_GT(tr["read_ios"].get<uint64_t>(), 0u);
  EXPECT_GT(tr["full_page_images"].get<uint64_t>(), 0u);
  EXPECT_GT(tr["checkpoints"].get<uint64_t>(), 0u);
  EXPECT_GT(tr["checkpoint_writes"].get<uint64_t>(), 0u);
  EXPECT_GT(tr["eviction_writes"].get<uint64_t>(), 0u);
}

const std::vector<std::string> kBase = {
    "workload.scale=5",          "workload.clients=1",          "workload.transactions=3000",
    "workload.seed=7",           "postgres.shared_buffers=2MiB", "host.os_cache=8MiB",
    "postgres.checkpoint_timeout=3600s", "postgres.max_wal_size=32MiB"};

std::vector<std::string> With(std::vector<std::string> extra) {
  std::vector<std::string> sets = kBase;
  sets.insert(sets.end(), extra.begin(), extra.end());
  return sets;
}

TEST(InstrumentsAgree, WarmTpcbWithWalTriggeredCheckpoints) {
  ExpectSameHost({"warm tpcb", With({"workload.cache=warm"})});
}

TEST(InstrumentsAgree, ColdSimpleUpdateOnALinuxPageCache) {
  ExpectSameHost({"cold simple-update", With({"workload.cache=cold",
                                              "workload.type=simple-update",
                                              "filesystem.type=ext4"})});
}

TEST(InstrumentsAgree, NinePointOneCheckpointSegments) {
  // 3 segments (9.1's default) trigger a checkpoint every ~48 MiB of WAL: enough
  // transactions for two. 9.1 has no max_wal_size (refused): the base's is reset to
  // the default.
  ExpectSameHost({"9.1", With({"workload.cache=warm", "postgres.version=9.1",
                               "postgres.max_wal_size=0", "filesystem.type=ufs2",
                               "workload.transactions=40000"})});
}

}  // namespace
}  // namespace pgstorsim
