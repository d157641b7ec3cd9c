// The report pairs `simulate` results with the `predict` sweep point of the same scenario
// and says where they differ by more than 10 %. Built from the real binaries' output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "common/results.h"
#include "report/report.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

namespace fs = std::filesystem;

class ReportAgreement : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("report_agreement_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs a model command on the small M5110e variant and loads its results.
  Results Model(const std::string& command, const std::string& extra, const std::string& name) {
    const std::string scenario = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";
    ShellResult r = RunPgstorsim(command + " --scenario " + scenario +
                                 " --set workload.scale=100 " + extra + " --out " + Path(name));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    auto loaded = LoadResults(Path(name));
    EXPECT_TRUE(loaded.ok()) << r.output;
    return loaded.ok() ? *loaded : Results{};
  }

  fs::path dir_;
};

std::string Section(const std::string& html, const std::string& id) {
  size_t start = html.find("id=\"" + id + "\"");
  if (start == std::string::npos) return "";
  return html.substr(start, html.find("</section>", start) - start);
}

TEST_F(ReportAgreement, PairsSimulateWithTheMatchingSweepPoint) {
  Results sweep = Model("predict", "--sweep array.stripe=32k,1MiB", "predict.json");
  Results sim_1m = Model("simulate", "--set array.stripe=1MiB --duration 5s --quiet", "sim.json");
  ASSERT_GT(sim_1m.tps, 0);
  // Another seed and duration ask the same question: still paired.
  Results sim_base = Model("simulate", "--seed 7 --duration 3s --quiet", "sim_base.json");
  ASSERT_GT(sim_base.tps, 0);
  // A scale the sweep never predicted: not paired with anything.
  Results other = Model("simulate", "--set workload.scale=50 --duration 2s --quiet", "o.json");

  ReportDocuments docs = BuildReport({{"predict.json", "predict", sweep},
                                      {"sim.json", "sim 1MiB", sim_1m},
                                      {"sim_base.json", "sim base", sim_base},
                                      {"o.json", "sim scale 50", other}},
                                     {});
  const std::string html = Section(docs.html, "agreement");
  ASSERT_FALSE(html.empty()) << docs.markdown;
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("sim 1MiB"), std::string::npos);
  // The sweep point's settings, the unit from the schema (array.stripe_bytes: bytes).
  EXPECT_NE(html.find("stripe 1 MiB"), std::string::npos);
  EXPECT_NE(html.find("sim base"), std::string::npos);
  EXPECT_EQ(html.find("sim scale 50"), std::string::npos);
  EXPECT_NE(docs.markdown.find("Simulator vs analytic model"), std::string::npos);
}

TEST_F(ReportAgreement, FlagsADifferenceOverTenPercent) {
  Results predicted = Model("predict", "", "predict.json");
  Results simulated = Model("simulate", "--duration 3s --quiet", "sim.json");
  ASSERT_GT(predicted.tps, 0);
  simulated.tps = predicted.tps * 1.5;  // What a broken simulator would report.
  ReportDocuments bad =
      BuildReport({{"p.json", "predict", predicted}, {"s.json", "sim", simulated}}, {});
  const std::string html = Section(bad.html, "agreement");
  EXPECT_NE(html.find(">NO<"), std::string::npos) << html;
  EXPECT_NE(html.find("1 configuration(s)"), std::string::npos) << html;
  EXPECT_NE(html.find("1.500"), std::string::npos) << html;  // The ratio.

  simulated.tps = predicted.tps * 1.05;
  ReportDocuments good =
      BuildReport({{"p.json", "predict", predicted}, {"s.json", "sim", simulated}}, {});
  const std::string ok = Section(good.html, "agreement");
  EXPECT_NE(ok.find(">yes<"), std::string::npos) << ok;
  EXPECT_NE(ok.find("agree within 10 %"), std::string::npos) << ok;
}

}  // namespace
}  // namespace pgstorsim
