// A real `predict --sweep` result (built by the model's code path, saved and loaded as
// the command does) must render the report's sweep chart and a sweep recommendation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/results.h"
#include "model/prediction_results.h"
#include "model/storage_model.h"
#include "model/sweep.h"
#include "report/report.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

bool Has(const std::string& doc, const std::string& text) {
  return doc.find(text) != std::string::npos;
}

// The part of the HTML inside the section with id `id` (empty when absent).
std::string SectionHtml(const std::string& html, const std::string& id) {
  size_t start = html.find("id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  size_t end = html.find("</section>", start);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(ReportPredict, RealSweepResultRendersSweepChart) {
  auto loaded_scenario = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(loaded_scenario.ok()) << loaded_scenario.status().message();
  Scenario scenario = *loaded_scenario;
  // Spelled differently from the sweep's "32k": the base row is found by value.
  ASSERT_TRUE(SetScenarioKey(&scenario, "array.stripe", "32KiB").ok());
  const Scenario* base = &scenario;
  auto table = RunSweepTable(*base, {"array.stripe=32k,64k,1MiB,2MiB",
                                     "controller.write_policy=write-back,write-through"});
  ASSERT_TRUE(table.ok()) << table.status().message();
  auto current = Predict(*base);
  ASSERT_TRUE(current.ok()) << current.status().message();
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("report_predict_" + std::to_string(getpid()) + ".json"))
                               .string();
  ASSERT_TRUE(SaveResults(path, SweepPredictionToResults(*base, *current, *table)).ok());
  auto loaded = LoadResults(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_GT(loaded->tps, 0);
  EXPECT_DOUBLE_EQ(loaded->tps, current->tps);

  ReportDocuments docs = BuildReport({{path, loaded->label, *loaded}}, {});
  EXPECT_FALSE(Has(docs.markdown, "no sections.sweep")) << docs.markdown;
  const std::string sweep = SectionHtml(docs.html, "sweep");
  ASSERT_FALSE(sweep.empty()) << docs.html;
  EXPECT_TRUE(Has(sweep, "<svg"));
  // Settings named with their units (array.stripe_bytes) and shown in them.
  EXPECT_TRUE(Has(sweep, "stripe 1 MiB, write_policy write-back"));  // Table row.
  EXPECT_TRUE(Has(sweep, ">1 MiB, write-through<"));                 // Bar label.
  // 2 MiB is refused by the controller: those rows carry no tps and are not drawn.
  EXPECT_FALSE(Has(sweep, "stripe 2 MiB"));
  // The best point is compared with the base point (32k, write-back), by the model.
  EXPECT_TRUE(Has(docs.markdown, "vs current stripe 32 KiB, write_policy write-back")) << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown, "**Best: stripe 1 MiB, write_policy write-back")) << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown, "the sweep's base configuration")) << docs.markdown;
  EXPECT_FALSE(Has(docs.markdown, "[scenario]")) << docs.markdown;
}

}  // namespace
}  // namespace pgstorsim
