// The configuration table of real simulate and predict results: one results schema, so
// their configs line up key by key, and each scenario key is shown with the unit the
// schema gives it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/prediction_results.h"
#include "model/storage_model.h"
#include "report/report.h"
#include "report/report_sections.h"
#include "scenario/scenario.h"
#include "sim/io_clients.h"

namespace pgstorsim::report {
namespace {

Scenario Small(const std::string& clients, const std::string& duration) {
  auto s = DefaultScenario(
      {"workload.scale=20", "workload.clients=" + clients, "workload.duration=" + duration});
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

ReportInput Simulated(const std::string& label, const Scenario& s) {
  auto out = sim::SimulateScenario(s);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return {label + ".json", label, out.ok() ? out->results : Results()};
}

ReportInput Predicted(const std::string& label, const Scenario& s) {
  auto p = Predict(s);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return {label + ".json", label, p.ok() ? PredictionToResults(s, *p) : Results()};
}

std::vector<std::string> Row(const Section& s, const std::string& key) {
  for (const auto& row : s.table.rows) {
    if (!row.empty() && row[0] == key) return row;
  }
  return {};
}

TEST(ReportModelConfig, SimulateAndPredictLineUpKeyByKeyWithUnits) {
  const Scenario base = Small("3", "2s"), other = Small("4", "3s");
  const Inputs inputs = {Simulated("sim 3", base), Simulated("sim 4", other),
                         Predicted("predict 3", base)};
  const std::optional<Section> config = ConfigSection(inputs);
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(Row(*config, "scenario.workload.clients"),
            std::vector<std::string>(
                {"scenario.workload.clients", "3 connections", "4 connections", "3 connections"}));
  EXPECT_EQ(
      Row(*config, "scenario.workload.duration_ns"),
      std::vector<std::string>({"scenario.workload.duration_ns", "2.000 s", "3.000 s", "2.000 s"}));
  // Nothing else differs but what only the simulator has (config.sim): no scenario key
  // under a second name beside predict's.
  for (const auto& row : config->table.rows) {
    const std::string& key = row[0];
    if (key == "scenario.workload.clients" || key == "scenario.workload.duration_ns") continue;
    EXPECT_EQ(key.rfind("sim.", 0), 0u) << key;
    EXPECT_EQ(row.back(), "-") << key;  // Absent from predict's config.
  }
  EXPECT_FALSE(Row(*config, "sim.os_cache_sized_bytes").empty());
}

}  // namespace
}  // namespace pgstorsim::report
