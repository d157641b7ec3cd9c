#include "report/report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/file_util.h"
#include "synthetic_results.h"
#include "xml_check.h"

namespace pgstorsim {
namespace {

using testing_report::MeasuredRun;
using testing_report::Prediction;
using testing_report::PredictionWithSweep;
using testing_xml::CheckWellFormed;
using testing_xml::CountElements;

ReportInput In(Results r) {
  std::string label = r.label;
  return {label + ".json", label, std::move(r)};
}

std::vector<ReportInput> StripeInputs() {
  return {In(MeasuredRun("32k warm", 32768, 254.19, 13.0, 25.73)),
          In(MeasuredRun("1M warm", 1048576, 626.01, 5.24, 10.22)),
          In(Prediction("predict 1M", 1048576, 625, 600, 650))};
}

bool Has(const std::string& doc, const std::string& text) {
  return doc.find(text) != std::string::npos;
}

TEST(Report, StripeComparisonRecommendationWithPredictedBand) {
  ReportDocuments docs = BuildReport(StripeInputs(), {});
  const std::string headline = "stripe 1 MiB: +146% tps (626 vs 254 measured), predicted 600-650";
  EXPECT_TRUE(Has(docs.html, "<p class=\"lead\">" + headline + "</p>")) << docs.html;
  EXPECT_TRUE(Has(docs.markdown, "**" + headline + "**")) << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown, "UPDATE accounts: mean 13.00 -> 5.24 ms (-60%)"));
  EXPECT_TRUE(Has(docs.markdown, "Assumption: Baseline: 32k warm"));
  EXPECT_TRUE(Has(docs.markdown, "Assumption: Prediction from predict 1M with its calibrated"));
}

TEST(Report, HtmlIsSelfContainedWellFormedAndHasEveryChart) {
  std::vector<ReportInput> inputs = StripeInputs();
  inputs.push_back(In(PredictionWithSweep()));
  ReportDocuments docs = BuildReport(inputs, {});
  EXPECT_EQ(CheckWellFormed(docs.html.substr(docs.html.find("<html"))), "");
  EXPECT_FALSE(Has(docs.html, "<script"));
  // No external references: only in-page anchors and the SVG namespace name.
  EXPECT_FALSE(Has(docs.html, "src="));
  EXPECT_FALSE(Has(docs.html, "url("));
  EXPECT_FALSE(Has(docs.html, "@import"));
  EXPECT_FALSE(Has(docs.html, "href=\"http"));
  EXPECT_TRUE(Has(docs.html, "@media print"));
  for (const char* id : {"recommendation", "inputs", "config", "throughput", "statements", "sweep",
                         "series", "prediction", "devices"}) {
    EXPECT_TRUE(Has(docs.html, std::string("<section id=\"") + id + "\">")) << id;
  }
  // throughput, statements, sweep, series, prediction, devices.
  EXPECT_EQ(CountElements(docs.html, "svg"), 6);
  EXPECT_FALSE(Has(docs.html, "id=\"clients\""));  // One client count only.
}

TEST(Report, TablesCarryTheNumbers) {
  ReportDocuments docs = BuildReport(StripeInputs(), {});
  const std::string& md = docs.markdown;
  EXPECT_TRUE(Has(md, "| array.stripe_bytes | 32 KiB | 1 MiB | 1 MiB |")) << md;
  EXPECT_FALSE(Has(md, "| scale |"));  // Same everywhere: not a difference.
  EXPECT_TRUE(Has(md, "| UPDATE accounts | 13.000 | 5.240 |"));
  EXPECT_TRUE(Has(md, "| END | 25.730 | 10.220 |"));
  EXPECT_TRUE(Has(md, "| predict 1M | predict | 32k warm |") ||
              Has(md, "| predict 1M | predict | 1M warm |"));
  EXPECT_TRUE(Has(md, "| predict 1M | predict | 1M warm | 626.0 | 625.0 | 600-650 | 0% |")) << md;
  EXPECT_TRUE(Has(md, "| 1M warm | 93.0 | 88.0 |"));
}

TEST(Report, SweepOnlyRecommendsBestRowAgainstBaseRow) {
  ReportDocuments docs = BuildReport({In(PredictionWithSweep())}, {});
  // The answer: the best configuration with its band against the base row.
  EXPECT_TRUE(Has(docs.markdown,
                  "**Best: stripe 1 MiB: 625 tps (band 600-650), vs current stripe 32 KiB: "
                  "250 tps (no band: uncalibrated) (+150% tps).**"))
      << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown,
                  "| predict 32k sweep | stripe 64 KiB | 300.0 | - | 33.300 | "
                  "+20% |"));
  EXPECT_TRUE(Has(docs.markdown, "not measured"));
}

TEST(Report, OverlappingBandsAreNotDistinguishable) {
  Results r = testing_report::PredictionWithSweep();
  for (auto& row : r.sections["sweep"]) {
    if (row.value("base", false)) row["tps_low"] = 200, row["tps_high"] = 610;
  }
  ReportDocuments docs = BuildReport({In(r)}, {});
  // The answer says so first (the recommendation section would repeat it).
  EXPECT_TRUE(Has(docs.markdown,
                  "**Not distinguishable: stripe 1 MiB (625 tps (band 600-650)) overlaps the "
                  "current stripe 32 KiB's band 200-610; keep the current configuration.**"))
      << docs.markdown;
}

TEST(Report, SweepWhoseBaseIsBestKeepsItAndEachQuestionLeadsItsBullets) {
  Results r = testing_report::PredictionWithSweep();
  r.label = "kept sweep";
  for (auto& row : r.sections["sweep"]) {
    if (!row.value("base", false)) row["tps"] = 100, row.erase("tps_low"), row.erase("tps_high");
  }
  ReportDocuments docs = BuildReport({In(r), In(testing_report::PredictionWithSweep())}, {});
  const std::string& md = docs.markdown;
  EXPECT_TRUE(Has(md,
                  "**Keep the current configuration (stripe 32 KiB): no other is predicted "
                  "faster (250 tps (no band: uncalibrated)"))
      << md;
  EXPECT_FALSE(Has(md, "vs current stripe 32 KiB: 250 tps (no band: uncalibrated) (0% tps)")) << md;
  // The second question's line comes after the first question's answer.
  const size_t keep = md.find("- Keep the current configuration");
  const size_t second = md.find("- Question (", md.find("- Question (") + 1);
  ASSERT_NE(keep, std::string::npos) << md;
  ASSERT_NE(second, std::string::npos) << md;
  EXPECT_LT(keep, second) << md;
}

TEST(Report, RunAndReplayAreNeverCompared) {
  // The demo's mix: a live run and a trace replay on a file (16x the tps) are different
  // kinds; a recommendation between them would attribute the gap to config keys.
  std::vector<ReportInput> inputs = {In(MeasuredRun("warm", 32768, 1215, 1, 2)),
                                     In(testing_report::ReplayOfTrace("replay", 19267))};
  ReportDocuments docs = BuildReport(inputs, {});
  EXPECT_TRUE(Has(docs.markdown, "**No recommendation:")) << docs.markdown;
  EXPECT_FALSE(Has(docs.markdown, "+1486%")) << docs.markdown;
  // With a sweep present, the recommendation comes from the sweep rows only.
  inputs.push_back(In(PredictionWithSweep()));
  docs = BuildReport(inputs, {});
  EXPECT_TRUE(Has(docs.markdown, "**Best: stripe 1 MiB: 625 tps")) << docs.markdown;
  // The answer section is the one place that chooses among swept configurations.
  EXPECT_FALSE(Has(docs.markdown, "No recommendation")) << docs.markdown;
  EXPECT_FALSE(Has(docs.markdown, "## Recommendation")) << docs.markdown;
  // A cold run is not compared with a warm one either (different conditions).
  Results cold = MeasuredRun("cold", 65536, 1187, 1, 2);
  cold.config["cache"] = "cold";
  Results warm = MeasuredRun("warm", 32768, 1215, 1, 2);
  warm.config["cache"] = "warm";
  docs = BuildReport({In(warm), In(cold), In(testing_report::ReplayOfTrace("replay", 19267))}, {});
  EXPECT_TRUE(Has(docs.markdown, "**No recommendation:")) << docs.markdown;
}

TEST(Report, TwoReplaysAreCompared) {
  Results a = testing_report::ReplayOfTrace("psync", 1000);
  Results b = testing_report::ReplayOfTrace("uring", 1500);
  b.config["engine"] = "io_uring";
  ReportDocuments docs =
      BuildReport({In(MeasuredRun("warm", 32768, 1215, 1, 2)), In(a), In(b)}, {});
  EXPECT_TRUE(Has(docs.markdown, "**engine io_uring: +50% tps (1500 vs 1000 measured)"))
      << docs.markdown;
}

TEST(Report, LongConfigTextIsOmittedFromTheConfigTable) {
  Results a = MeasuredRun("a", 32768, 254, 13, 25.7);
  Results b = MeasuredRun("b", 65536, 300, 13, 25.7);
  a.config["scenario_toml"] = "[array]\nstripe = \"32k\"\n";
  b.config["scenario_toml"] = "[array]\nstripe = \"64k\"\n";
  ReportDocuments docs = BuildReport({In(a), In(b)}, {});
  EXPECT_TRUE(Has(docs.markdown, "Omitted (long text): scenario_toml.")) << docs.markdown;
  EXPECT_FALSE(Has(docs.markdown, "| scenario_toml |")) << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown, "| array.stripe_bytes |")) << docs.markdown;
}

TEST(Report, KeepsBaselineWhenItIsBestAndIgnoresOtherClientCounts) {
  std::vector<ReportInput> inputs = {In(MeasuredRun("32k", 32768, 254, 13, 25.7, 10)),
                                     In(MeasuredRun("64k 1 client", 65536, 700, 1, 1, 1)),
                                     In(MeasuredRun("128k", 131072, 200, 15, 30, 10))};
  ReportDocuments docs = BuildReport(inputs, {});
  EXPECT_TRUE(Has(docs.markdown,
                  "**Keep the current configuration (32k): its 254 tps is the "
                  "highest measured.**"))
      << docs.markdown;
  EXPECT_TRUE(Has(docs.html, "<section id=\"clients\">"));  // 1 and 10 clients.
}

TEST(Report, ComparesOnlyUnderTheSameConditionsAndIgnoresRunControlKeys) {
  Results warm = MeasuredRun("32k warm", 32768, 254, 13, 25.7);
  warm.config["cache"] = "warm";
  warm.config["seed"] = 1;
  Results cold = MeasuredRun("1M cold", 1048576, 900, 1, 2);
  cold.config["cache"] = "cold";  // Different condition: not a candidate.
  Results other = MeasuredRun("64k warm", 65536, 300, 11, 20);
  other.config["cache"] = "warm";
  other.config["seed"] = 2;  // Run control: not part of the change.
  other.config["duration_s"] = 60;
  ReportDocuments docs = BuildReport({In(warm), In(cold), In(other)}, {});
  EXPECT_TRUE(Has(docs.markdown, "**stripe 64 KiB: +18% tps (300 vs 254 measured)**"))
      << docs.markdown;
}

TEST(Report, AcceptsTheSimulatorsUtilizationSpelling) {
  Results sim = Prediction("sim", 32768, 250, 240, 260);
  sim.kind = "simulate";
  sim.sections["devices"] = nlohmann::json::array(
      {{{"name", "member0"}, {"utilization", 0.5}}, {{"name", "member1"}, {"utilization", 0.25}}});
  ReportDocuments docs = BuildReport({In(sim)}, {});
  EXPECT_TRUE(Has(docs.markdown, "| sim | 50.0 | 25.0 |")) << docs.markdown;
}

TEST(Report, SmallGainIsCalledNoise) {
  ReportDocuments docs = BuildReport(
      {In(MeasuredRun("32k", 32768, 254, 13, 25.7)), In(MeasuredRun("64k", 65536, 260, 13, 25))},
      {});
  EXPECT_TRUE(Has(docs.markdown,
                  "**No clear gain: stripe 64 KiB: +2% tps (260 vs 254 measured) "
                  "is within the 5% run-to-run noise; keep the current "
                  "configuration**"))
      << docs.markdown;
}

TEST(Report, SparseInputsSkipSectionsAndSayWhy) {
  Results bare = NewResults("calibrate");
  bare.label = "fit";
  bare.sections["fit"] = {{"residual", 0.1}};
  ReportDocuments docs = BuildReport({In(bare)}, {});
  EXPECT_EQ(CheckWellFormed(docs.html.substr(docs.html.find("<html"))), "");
  EXPECT_TRUE(Has(docs.markdown, "**No recommendation:"));
  EXPECT_TRUE(Has(docs.markdown, "- per-statement latency (no statements)"));
  EXPECT_TRUE(Has(docs.markdown, "- device utilisation (no sections.devices)"));
  EXPECT_FALSE(Has(docs.html, "id=\"statements\""));
}

TEST(Report, MalformedSectionsAreIgnored) {
  Results r = MeasuredRun("odd", 32768, 100, 1, 2);
  r.sections["devices"] = "not a list";
  r.sections["sweep"] = {{"settings", 1}};
  r.sections["prediction"] = 42;
  ReportDocuments docs = BuildReport({In(r)}, {});
  EXPECT_FALSE(Has(docs.html, "id=\"devices\""));
  EXPECT_FALSE(Has(docs.html, "id=\"sweep\""));
}

TEST(Report, DeterministicAndTitleEscaped) {
  ReportOptions options;
  options.title = "Stripes <32k & 1M>";
  // The same inputs twice: NewResults stamps the wall clock, so inputs built
  // a second apart differ in created_utc.
  const std::vector<ReportInput> inputs = StripeInputs();
  ReportDocuments a = BuildReport(inputs, options);
  ReportDocuments b = BuildReport(inputs, options);
  EXPECT_EQ(a.html, b.html);
  EXPECT_TRUE(Has(a.html, "<h1>Stripes &lt;32k &amp; 1M&gt;</h1>"));
}

class ReportFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pgstorsim-report-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(ReportFiles, ErrorsNameTheFile) {
  std::string missing = Path("missing.json");
  auto r = LoadReportInputs({missing});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Has(r.status().message(), missing)) << r.status().message();
  ASSERT_TRUE(WriteFileAtomically(Path("bad.json"), "{not json").ok());
  r = LoadReportInputs({Path("bad.json")});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Has(r.status().message(), Path("bad.json")));
  ASSERT_TRUE(WriteFileAtomically(Path("other.json"), "{\"a\":1}").ok());
  r = LoadReportInputs({Path("other.json")});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(Has(r.status().message(), Path("other.json")));
}

TEST_F(ReportFiles, WritesBothDocumentsAndLabelsAreUnique) {
  Results a = MeasuredRun("", 32768, 254, 13, 25.7);
  ASSERT_TRUE(SaveResults(Path("a.json"), a).ok());
  ASSERT_TRUE(SaveResults(Path("b.json"), MeasuredRun("x", 65536, 300, 10, 20)).ok());
  ASSERT_TRUE(SaveResults(Path("c.json"), MeasuredRun("x", 65536, 310, 10, 20)).ok());
  auto inputs = LoadReportInputs({Path("a.json"), Path("b.json"), Path("c.json")});
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  EXPECT_EQ((*inputs)[0].label, "a");
  EXPECT_EQ((*inputs)[1].label, "x (b)");
  EXPECT_EQ((*inputs)[2].label, "x (c)");
  inputs = LoadReportInputs({Path("b.json"), Path("b.json")});
  ASSERT_TRUE(inputs.ok());
  EXPECT_EQ((*inputs)[0].label, "x (b)");
  EXPECT_EQ((*inputs)[1].label, "x (b) #2");
  Status st = WriteReport({Path("a.json"), Path("b.json")}, Path("out/r.html"),
                          DefaultMarkdownPath(Path("out/r.html")), {});
  ASSERT_TRUE(st.ok()) << st.message();
  auto html = ReadFile(Path("out/r.html"));
  auto md = ReadFile(Path("out/r.md"));
  ASSERT_TRUE(html.ok() && md.ok());
  EXPECT_TRUE(Has(*html, "<!DOCTYPE html>"));
  EXPECT_TRUE(Has(*md, "stripe 64 KiB: +18% tps (300 vs 254 measured)"));
}

TEST(DefaultMarkdownPath, ReplacesOrAddsExtension) {
  EXPECT_EQ(DefaultMarkdownPath("out/report.html"), "out/report.md");
  EXPECT_EQ(DefaultMarkdownPath("report"), "report.md");
}

}  // namespace
}  // namespace pgstorsim

namespace pgstorsim {
namespace {

// A cold/warm pair of runs shares one chart and gets the time to 90 % of warm tps (the
// cold series climbs by a tenth of it every 90 s: 3-interval mean >= 900 at t = 900 s);
// a simulation of the same stripe is drawn apart (another kind: another time axis).
TEST(Report, ColdWarmRampsAreGroupedWithTimeToWarm) {
  Results warm = MeasuredRun("warm", 32768, 1000, 1, 2);
  warm.config["cache"] = "warm";
  Results cold = MeasuredRun("cold", 32768, 1000, 1, 2, 10, /*cold=*/true);
  cold.config["cache"] = "cold";
  Results sim = MeasuredRun("sim", 32768, 500, 1, 2);
  sim.kind = "simulate";
  ReportDocuments docs = BuildReport({In(warm), In(cold), In(sim)}, {});
  EXPECT_TRUE(Has(docs.markdown, "| 1 | warm | warm | 10 | 1000.0 | - |")) << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown, "| 1 | cold | cold | 10 | 800.0 | 900 |")) << docs.markdown;
  EXPECT_TRUE(Has(docs.markdown, "| 2 | sim | - | 10 | 500.0 | - |")) << docs.markdown;
  EXPECT_TRUE(Has(docs.html, "Group 1: tps over time (run)"));
  EXPECT_TRUE(Has(docs.html, "Group 2: tps over time (simulate)"));
  EXPECT_FALSE(Has(docs.html, "Group 3:"));
}

}  // namespace
}  // namespace pgstorsim
