// simulate --sweep: rows are the same whatever the number of threads and the shard.
#include "sim/sweep_runner.h"

#include <gtest/gtest.h>

#include <mutex>

#include "scenario/scenario_results.h"

namespace pgstorsim::sim {
namespace {

Scenario Base() {
  auto s = DefaultScenario({"workload.duration=2s", "workload.scale=20"});
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

TEST(SimulationSweep, RowsDoNotDependOnJobsOrShards) {
  const Scenario base = Base();
  auto spec = ParseSweepSpec(base, {"array.stripe=32k,1MiB,4MiB", "workload.clients=1,4"});
  ASSERT_TRUE(spec.ok());
  std::mutex mu;
  int calls = 0;
  auto count = [&](const nlohmann::json&) {
    std::lock_guard<std::mutex> lock(mu);
    ++calls;
  };
  auto one = RunSimulationSweep(base, *spec, {}, 1, count);
  auto three = RunSimulationSweep(base, *spec, {}, 3, nullptr);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(calls, 6);
  const auto& rows = one->results.sections["sweep"];
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows, three->results.sections["sweep"]);
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i]["index"], i);
  // 4 MiB is above the default controller's largest stripe: refused, with the reason.
  EXPECT_TRUE(rows[4].contains("error"));
  EXPECT_EQ(one->refused, 2u);
  EXPECT_GT(rows[1]["tps"].get<double>(), 0);
  EXPECT_LE(rows[1]["p50_ms"].get<double>(), rows[1]["p95_ms"].get<double>());
  EXPECT_TRUE(rows[1]["statements_ms"].contains("END"));
  // Shard 2 of 4 holds points [1, 3): the same rows.
  auto shard = RunSimulationSweep(base, *spec, {2, 4}, 2, nullptr);
  ASSERT_TRUE(shard.ok());
  const auto& part = shard->results.sections["sweep"];
  ASSERT_EQ(part.size(), 2u);
  EXPECT_EQ(part[0], rows[1]);
  EXPECT_EQ(part[1], rows[2]);
  EXPECT_EQ(shard->results.config["sweep"]["shard"], "2/4");
}

TEST(SimulationSweep, SettingsCarryTheResultsNamesPredictWrites) {
  // One schema: the swept keys under their results names, units in the key (the
  // schema's, FindResultsName), and the same names in config.sweep's roles.
  const Scenario base = Base();
  auto spec = ParseSweepSpec(base, {"array.stripe=32k", "workload.clients=3"});
  ASSERT_TRUE(spec.ok());
  auto run = RunSimulationSweep(base, *spec, {}, 1, nullptr);
  ASSERT_TRUE(run.ok());
  const nlohmann::json& settings = run->results.sections["sweep"][0]["settings"];
  EXPECT_EQ(settings, nlohmann::json({{"array.stripe_bytes", 32768}, {"workload.clients", 3}}));
  for (const auto& [name, value] : settings.items()) {
    EXPECT_TRUE(run->results.config["sweep"]["roles"].contains(name)) << name;
    EXPECT_TRUE(FindResultsName(name).has_value()) << name;
  }
  EXPECT_EQ(FindResultsName("array.stripe_bytes")->unit, "bytes");
  EXPECT_EQ(FindResultsName("workload.clients")->unit, "connections");
}

}  // namespace
}  // namespace pgstorsim::sim
