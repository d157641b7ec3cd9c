// Every command that writes a file the user names applies the one consent rule
// (common/output_path.h): an output that is also an input is refused, an existing
// output is replaced only with --force, and default result names never collide.
// Each case below is a command line that must not replace its input or an existing file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <set>
#include <string>

#include "common/file_util.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

class OutputConsentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pgstorsim-consent-XXXXXX";
    dir_ = mkdtemp(tmpl) ? tmpl : "";
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override { RunShell("rm -rf '" + dir_ + "'"); }

  std::string File(const std::string& name) const { return dir_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    ASSERT_TRUE(WriteFileAtomically(File(name), text).ok());
  }
  std::string Read(const std::string& name) const {
    auto text = ReadFile(File(name));
    return text.ok() ? *text : "<missing>";
  }
  // Runs pgstorsim in the test directory; expects a one-line refusal naming `option`.
  void ExpectRefused(const std::string& args, const std::string& option) const {
    ShellResult r = RunShell("cd '" + dir_ + "' && " + PGSTORSIM_BINARY + " " + args);
    EXPECT_EQ(r.exit_code, 1) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(option), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  }
  ShellResult Run(const std::string& args) const {
    return RunShell("cd '" + dir_ + "' && " + PGSTORSIM_BINARY + " " + args);
  }

  std::string dir_;
};

TEST_F(OutputConsentTest, TraceOutIsNeverItsKeysLog) {
  Write("k.keys", "pgstorsim keys-log 1\n0 0 1 1 1 5 0 10 1\n");
  ExpectRefused("trace --scale 1 --keys-log k.keys --out k.keys", "is also an input");
  EXPECT_EQ(Read("k.keys"), "pgstorsim keys-log 1\n0 0 1 1 1 5 0 10 1\n");
}

TEST_F(OutputConsentTest, ReplayOutIsNeverItsTrace) {
  ASSERT_EQ(Run("trace --scale 1 --transactions 5 --out t.trace").exit_code, 0);
  const std::string before = Read("t.trace");
  ExpectRefused("replay --trace t.trace --target data --out t.trace", "is also an input");
  EXPECT_EQ(Read("t.trace"), before);
  // An existing trace is not replaced by a second `trace` without --force.
  ExpectRefused("trace --scale 1 --transactions 9 --out t.trace", "--force");
  EXPECT_EQ(Read("t.trace"), before);
  EXPECT_EQ(Run("trace --scale 1 --transactions 9 --out t.trace --force").exit_code, 0);
  EXPECT_NE(Read("t.trace"), before);
}

TEST_F(OutputConsentTest, ReportOutIsNeverOneOfItsResults) {
  ASSERT_EQ(Run("simulate --set workload.scale=2 --set workload.clients=2 --duration 1s "
                "--quiet --out r.json")
                .exit_code,
            0);
  const std::string before = Read("r.json");
  ExpectRefused("report r.json -o r.json", "is also an input");
  ExpectRefused("report r.json -o x.html --markdown r.json", "is also an input");
  EXPECT_EQ(Read("r.json"), before);
}

TEST_F(OutputConsentTest, CalibrateOutIsNeverItsScenarioOrMeasurement) {
  const std::string scenario = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";
  const std::string measured =
      std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-32k-warm.pgbench.txt";
  Write("s.toml", *ReadFile(scenario));
  Write("m.txt", *ReadFile(measured));
  ExpectRefused("calibrate --scenario s.toml --measured m.txt --out s.toml", "is also an input");
  ExpectRefused("calibrate --scenario s.toml --measured m.txt --out m.txt", "is also an input");
  EXPECT_EQ(Read("s.toml"), *ReadFile(scenario));
  EXPECT_EQ(Read("m.txt"), *ReadFile(measured));
}

TEST_F(OutputConsentTest, ExistingOutputsNeedForce) {
  const std::string scenario = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";
  Write("old", "keep\n");
  ExpectRefused("predict --scenario " + scenario + " --out old", "--force");
  ExpectRefused("validate --scenario " + scenario + " --out old", "--force");
  ExpectRefused("simulate --duration 1s --out old", "--force");
  EXPECT_EQ(Read("old"), "keep\n");
  EXPECT_EQ(Run("predict --scenario " + scenario + " --out old --force").exit_code, 0);
  EXPECT_NE(Read("old"), "keep\n");
}

// Three short runs in one second write three files under three default names.
TEST_F(OutputConsentTest, DefaultResultNamesNeverCollide) {
  std::set<std::string> paths;
  for (int i = 0; i < 3; ++i) {
    ShellResult r =
        Run("simulate --set workload.scale=2 --set workload.clients=1 "
            "--duration 100ms --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const size_t at = r.output.find("results: ");
    ASSERT_NE(at, std::string::npos) << r.output;
    const std::string path = r.output.substr(at + 9, r.output.find('\n', at) - at - 9);
    paths.insert(path);
    EXPECT_NE(Read(path), "<missing>");
  }
  EXPECT_EQ(paths.size(), 3u);
}

}  // namespace
}  // namespace pgstorsim
