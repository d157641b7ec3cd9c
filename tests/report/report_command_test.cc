// `pgstorsim report` end to end through the built binary.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "common/file_util.h"
#include "support/shell.h"
#include "synthetic_results.h"

namespace pgstorsim {
namespace {

using Outcome = ShellResult;  // output: stdout + stderr.

Outcome RunBinary(const std::string& args) { return RunPgstorsim(args); }

class ReportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pgstorsim-report-cmd-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(ReportCommand, MissingInputFailsWithOneLineNamingTheFile) {
  Outcome o = RunBinary("report " + Path("nope.json") + " --out " + Path("r.html"));
  EXPECT_NE(o.exit_code, 0);
  EXPECT_NE(o.output.find("pgstorsim report: "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find(Path("nope.json")), std::string::npos) << o.output;
  EXPECT_EQ(std::count(o.output.begin(), o.output.end(), '\n'), 1) << o.output;
  EXPECT_FALSE(std::filesystem::exists(Path("r.html")));
}

TEST_F(ReportCommand, WritesHtmlAndDefaultMarkdown) {
  using testing_report::MeasuredRun;
  ASSERT_TRUE(SaveResults(Path("a.json"), MeasuredRun("32k", 32768, 254, 13, 25.7)).ok());
  ASSERT_TRUE(SaveResults(Path("b.json"), MeasuredRun("1M", 1048576, 626, 5.2, 10.2)).ok());
  Outcome o = RunBinary("report " + Path("a.json") + " " + Path("b.json") + " --out " +
                        Path("out/report.html") + " --title 'Stripe test'");
  ASSERT_EQ(o.exit_code, 0) << o.output;
  auto html = ReadFile(Path("out/report.html"));
  auto md = ReadFile(Path("out/report.md"));
  ASSERT_TRUE(html.ok());
  ASSERT_TRUE(md.ok());
  EXPECT_NE(html->find("<title>Stripe test</title>"), std::string::npos);
  EXPECT_NE(md->find("stripe 1 MiB: +146% tps (626 vs 254 measured)"), std::string::npos);
}

TEST_F(ReportCommand, ExplicitMarkdownPathAndRequiredOut) {
  using testing_report::MeasuredRun;
  ASSERT_TRUE(SaveResults(Path("a.json"), MeasuredRun("32k", 32768, 254, 13, 25.7)).ok());
  Outcome o = RunBinary("report " + Path("a.json") + " --out " + Path("r.html") + " --markdown " +
                        Path("summary.md"));
  ASSERT_EQ(o.exit_code, 0) << o.output;
  EXPECT_TRUE(std::filesystem::exists(Path("summary.md")));
  EXPECT_FALSE(std::filesystem::exists(Path("r.md")));
  EXPECT_NE(RunBinary("report " + Path("a.json")).exit_code, 0);
}

}  // namespace
}  // namespace pgstorsim
