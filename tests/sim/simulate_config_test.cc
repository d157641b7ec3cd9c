// One results schema: simulate's config is predict's (ScenarioResultsConfig: the
// canonical scenario keys, units from the key table) plus the simulator's own parameters
// apart under "sim", none of them a scenario key under a second name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/prediction_results.h"
#include "model/storage_model.h"
#include "model/sweep.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"
#include "sim/io_clients.h"
#include "sim/sweep_runner.h"

namespace pgstorsim::sim {
namespace {

Scenario Small(std::vector<std::string> sets) {
  std::vector<std::string> base = {"workload.duration=2s", "workload.scale=20",
                                   "workload.clients=3", "array.stripe=64k"};
  base.insert(base.end(), sets.begin(), sets.end());
  auto s = DefaultScenario(base);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

// config of `s` as simulate and predict write it.
struct Configs {
  nlohmann::json simulate, predict;
};

Configs Both(const Scenario& s) {
  Configs c;
  auto sim = SimulateScenario(s);
  EXPECT_TRUE(sim.ok()) << sim.status().message();
  auto prediction = Predict(s);
  EXPECT_TRUE(prediction.ok()) << prediction.status().message();
  if (sim.ok()) c.simulate = sim->results.config;
  if (prediction.ok()) c.predict = PredictionToResults(s, *prediction).config;
  return c;
}

// Everything but "sim" is predict's config, key by key and value by value.
void ExpectPredictsConfigPlusSim(Configs c) {
  ASSERT_TRUE(c.simulate.contains("sim")) << c.simulate.dump();
  c.simulate.erase("sim");
  EXPECT_EQ(c.simulate, c.predict);
  EXPECT_EQ(c.simulate.size(), 3u) << c.simulate.dump();  // scenario_toml, _file, scenario.
}

TEST(SimulateConfig, IsPredictsConfigPlusTheSimulatorsOwn) {
  const Configs c = Both(Small({}));
  ExpectPredictsConfigPlusSim(c);
  const nlohmann::json& keys = c.simulate["scenario"];
  EXPECT_EQ(keys["workload.clients"], 3);
  EXPECT_EQ(keys["array.stripe_bytes"], 65536);
  EXPECT_EQ(keys["workload.duration_ns"], 2'000'000'000LL);
  // The unit of each name is the schema's.
  EXPECT_EQ(FindResultsName("array.stripe_bytes")->unit, "bytes");
  EXPECT_EQ(FindResultsName("workload.duration_ns")->unit, "ns");
  EXPECT_EQ(FindResultsName("workload.clients")->unit, "connections");
}

TEST(SimulateConfig, IoWorkloadIsPredictsConfigPlusTheSimulatorsOwn) {
  ExpectPredictsConfigPlusSim(
      Both(Small({"workload.type=io", "workload.io_size=8KiB", "workload.clients=1",
                  "workload.read_fraction=0.5", "workload.file_size=40GB", "io.queue_depth=1",
                  "workload.io_direct=on"})));
}

// No parameter under "sim" repeats a scenario key: none is a results name, nor the last
// part of one ("ram_bytes" for host.ram_bytes, "clients" for workload.clients).
TEST(SimulateConfig, SimParametersAreNoScenarioKeyUnderASecondName) {
  const Configs c = Both(Small({}));
  std::vector<std::string> lasts;
  for (const auto& [name, value] : c.simulate["scenario"].items()) {
    lasts.push_back(name.substr(name.rfind('.') + 1));
  }
  ASSERT_FALSE(c.simulate["sim"].empty());
  for (const auto& [name, value] : c.simulate["sim"].items()) {
    EXPECT_FALSE(FindResultsName(name).has_value()) << name;
    for (const std::string& last : lasts) EXPECT_NE(name, last) << "sim." << name;
  }
}

// The OS cache as sized: host.os_cache when given, else what RAM leaves beside
// shared_buffers (less the OS's reserve).
TEST(SimulateConfig, SimCarriesTheOsCacheAsSized) {
  const Configs given = Both(Small({"host.os_cache=1GiB"}));
  EXPECT_EQ(given.simulate["sim"]["os_cache_sized_bytes"], 1LL << 30);
  const Configs sized = Both(Small({"host.ram=8GiB", "postgres.shared_buffers=1GiB"}));
  // 8 GiB of RAM - 1 GiB shared_buffers - the OS's 1 GiB.
  EXPECT_EQ(sized.simulate["sim"]["os_cache_sized_bytes"], 6LL << 30);
  EXPECT_EQ(sized.simulate["scenario"]["host.os_cache_bytes"], 0);
}

TEST(SimulateConfig, SweepIsPredictsSweepConfig) {
  const Scenario base = Small({});
  const std::vector<std::string> specs = {"array.stripe=32k,64k"};
  auto spec = ParseSweepSpec(base, specs);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  auto simulated = RunSimulationSweep(base, *spec, {}, 1, nullptr);
  ASSERT_TRUE(simulated.ok()) << simulated.status().message();
  auto table = RunSweepTable(base, specs);
  ASSERT_TRUE(table.ok()) << table.status().message();
  auto current = Predict(base);
  ASSERT_TRUE(current.ok()) << current.status().message();
  const Results predicted = SweepPredictionToResults(base, *current, *table);
  EXPECT_EQ(simulated->results.config, predicted.config);
  // A name's unit is the schema's, not a second copy in the sweep's config.
  EXPECT_FALSE(simulated->results.config["sweep"].contains("units"));
}

}  // namespace
}  // namespace pgstorsim::sim
