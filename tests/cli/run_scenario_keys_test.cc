// A run's results name its workload in the scenario vocabulary, so a model of the same
// workload pairs with it in the report.
#include "cli/run_scenario_keys.h"

#include <gtest/gtest.h>

#include <memory>

#include "common/units.h"
#include "driver/script_mix.h"
#include "report/report_data.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace {

RunConfig WarmTpcb() {
  RunConfig c;
  c.clients = 4;
  c.duration_ns = 20 * kNsPerSec;
  c.cache = CacheMode::kWarm;
  c.seed = 7;
  return c;
}

TEST(RunScenarioKeys, AreTheModelsNamesAndValues) {
  const nlohmann::json keys = RunScenarioKeys(WarmTpcb(), 10);
  auto s = DefaultScenario({"workload.clients=4", "workload.scale=10", "workload.duration=20s",
                            "workload.cache=warm", "workload.seed=7", "workload.type=tpcb-like"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  const nlohmann::json model = ScenarioResultsKeys(*s);
  for (const char* name : {"workload.clients", "workload.scale", "workload.duration_ns",
                           "workload.cache", "workload.seed", "workload.type", "workload.rate",
                           "workload.protocol"}) {
    ASSERT_TRUE(keys.contains(name)) << name;
    EXPECT_EQ(keys[name], model[name]) << name;
  }
  EXPECT_EQ(keys["workload.duration_ns"], 20 * kNsPerSec);
  EXPECT_FALSE(keys.contains("workload.transactions"));  // A timed run.
  EXPECT_FALSE(keys.contains("host.ram_bytes"));         // A run states its workload only.
}

TEST(RunScenarioKeys, LeaveOutWhatTheRunLeavesOpen) {
  RunConfig c = WarmTpcb();
  c.cache = CacheMode::kAsIs;
  c.prepared = true;
  auto mix = BuildScriptMix({"tpcb-like", "select-only"}, {}, "");
  ASSERT_TRUE(mix.ok()) << mix.status().message();
  c.mix = std::make_shared<const ScriptMix>(*mix);
  const nlohmann::json keys = RunScenarioKeys(c, 10);
  EXPECT_FALSE(keys.contains("workload.cache"));
  EXPECT_FALSE(keys.contains("workload.type"));  // Two scripts: no one scenario type.
  EXPECT_EQ(keys["workload.clients"], 4);
  EXPECT_EQ(keys["workload.protocol"], "prepared");
}

// The report pairs a run with a model result on the keys they share, and refuses one
// of another scale.
TEST(RunScenarioKeys, PairARunWithAModelOfTheSameWorkload) {
  nlohmann::json run_config = RunConfigToJson(WarmTpcb());
  run_config["scenario"] = RunScenarioKeys(WarmTpcb(), 10);
  auto same = DefaultScenario({"workload.clients=4", "workload.scale=10", "workload.cache=warm",
                               "workload.type=tpcb-like"});
  auto larger = DefaultScenario({"workload.clients=4", "workload.scale=100", "workload.cache=warm",
                                 "workload.type=tpcb-like"});
  ASSERT_TRUE(same.ok() && larger.ok());
  using report::ConfigsAgree;
  using report::FlattenConfig;
  const report::FlatConfig run = FlattenConfig(run_config);
  EXPECT_TRUE(ConfigsAgree(FlattenConfig(ScenarioResultsConfig(*same)), run));
  EXPECT_FALSE(ConfigsAgree(FlattenConfig(ScenarioResultsConfig(*larger)), run));
}

}  // namespace
}  // namespace pgstorsim
