// `pgstorsim replay` end to end through the binary: option errors are one line and a
// non-zero exit; a run writes a "replay" results file.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>

#include "common/results.h"
#include "replay_test_util.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

using CommandRun = ShellResult;

CommandRun Replay(const std::string& args) { return RunPgstorsim("replay " + args); }

// Exit 2 (usage) for options the command refuses by themselves, 1 for what fails later.
TEST(ReplayCommandTest, OptionErrorsAreOneLine) {
  const std::pair<std::string, int> cases[] = {
      {"--pattern randrw", 2},
      {"--pattern bogus --target /tmp/x", 1},
      {"--target /tmp/x", 2},
      {"--pattern randrw --array raid7 --members a,b", 2},
      {"--pattern randrw --array raid10 --members a,b,c --no-direct", 1},
      {"--pattern randrw --target /tmp/x --engine libaio", 1}};
  for (const auto& [args, code] : cases) {
    SCOPED_TRACE(args);
    CommandRun r = Replay(args);
    EXPECT_EQ(r.exit_code, code) << r.output;
    EXPECT_EQ(r.output.rfind("pgstorsim replay: ", 0), 0u) << r.output;
    EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  }
}

TEST(ReplayCommandTest, WritesReplayResults) {
  TempDir dir;
  CommandRun r =
      Replay("--pattern randrw --pattern-size 4MiB --pattern-ops 50 --workers 2 --target " +
             dir.File("data") + " --array raid5 --members " + dir.File("a") + "," + dir.File("b") +
             "," + dir.File("c") + " --out " + dir.File("r.json"));
  // --target and --members together are refused (usage); run again without --target.
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = Replay(
      "--pattern randrw --pattern-size 4MiB --pattern-ops 50 --workers 2 --array raid5 "
      "--stripe 16k --members " +
      dir.File("a") + "," + dir.File("b") + "," + dir.File("c") + " --out " + dir.File("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("iops |"), std::string::npos);
  auto results = LoadResults(dir.File("r.json"));
  ASSERT_TRUE(results.ok()) << results.status().message();
  EXPECT_EQ(results->kind, "replay");
  EXPECT_EQ(results->transactions, 100u);
  EXPECT_EQ(results->sections["devices"].size(), 3u);
  EXPECT_EQ(results->config["array"], "raid5");
}

}  // namespace
}  // namespace pgstorsim
