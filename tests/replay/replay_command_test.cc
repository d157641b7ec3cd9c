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
      {"--pattern randrw --array raid10 --members a,b,c --no-direct", 2},
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
  const nlohmann::json& keys = results->config["scenario"];
  EXPECT_EQ(keys.value("array.level", ""), "raid5");
  EXPECT_EQ(keys.value("array.disks", 0), 3);
  EXPECT_EQ(keys.value("array.stripe_bytes", 0), 16384);
  // No filesystem flag or scenario: raw requests, no filesystem keys.
  EXPECT_FALSE(keys.contains("filesystem.block_size_bytes"));
}

// A replay states the workload its trace holds (the trace's clients and scale), not the
// scenario's defaults; the scenario gives the storage only.
TEST(ReplayCommandTest, StatesTheTracesWorkload) {
  TempDir dir;
  ShellResult t = RunPgstorsim("trace --scale 1 --clients 3 --transactions 60 --cache warm --out " +
                               dir.File("t.trace"));
  ASSERT_EQ(t.exit_code, 0) << t.output;
  CommandRun r = Replay("--trace " + dir.File("t.trace") + " --target " + dir.File("data") +
                        " --out " + dir.File("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto results = LoadResults(dir.File("r.json"));
  ASSERT_TRUE(results.ok()) << results.status().message();
  const nlohmann::json& keys = results->config["scenario"];
  EXPECT_EQ(keys.value("workload.clients", 0), 3);
  EXPECT_EQ(keys.value("workload.scale", 0), 1);
  EXPECT_EQ(keys.value("workload.type", ""), "tpcb-like");
  EXPECT_EQ(keys.value("workload.cache", ""), "warm");
  EXPECT_FALSE(keys.contains("workload.duration_ns"));  // Not in the trace: not stated.
  EXPECT_TRUE(keys.contains("host.ram_bytes"));          // The scenario's storage and host.
}

// --scenario gives the array and filesystem geometry; the flags are aliases of --set
// applied after it; the members must match array.disks.
TEST(ReplayCommandTest, ScenarioGivesTheGeometry) {
  TempDir dir;
  const std::string scenario = dir.File("array.toml");
  FILE* f = std::fopen(scenario.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(
      "[controller]\nkind = \"hba\"\n[array]\nlevel = \"raid100\"\ndisks = 4\nspans = 2\n"
      "stripe = \"16k\"\nspan_stripe = \"64k\"\n[filesystem]\nblock_size = \"64k\"\n"
      "fragment_size = \"8k\"\npartition_offset = \"63s\"\n",
      f);
  std::fclose(f);
  const std::string members =
      dir.File("a") + "," + dir.File("b") + "," + dir.File("c") + "," + dir.File("d");
  const std::string common = "--pattern randrw --pattern-size 4MiB --pattern-ops 20 --workers 2 ";
  CommandRun r = Replay(common + "--scenario " + scenario + " --members " + members +
                        " --stripe 32k --out " + dir.File("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto results = LoadResults(dir.File("r.json"));
  ASSERT_TRUE(results.ok()) << results.status().message();
  const nlohmann::json& keys = results->config["scenario"];
  EXPECT_EQ(keys.value("array.level", ""), "raid100");
  EXPECT_EQ(keys.value("array.stripe_bytes", 0), 32768);  // --stripe over the file.
  EXPECT_EQ(keys.value("array.span_stripe_bytes", 0), 65536);
  EXPECT_EQ(keys.value("filesystem.block_size_bytes", 0), 65536);
  EXPECT_EQ(keys.value("filesystem.partition_offset_bytes", 0), 63 * 512);
  // Three members for a four-disk scenario: refused, naming array.disks.
  r = Replay(common + "--scenario " + scenario + " --members " + dir.File("a") + "," +
             dir.File("b") + "," + dir.File("c") + " --out " + dir.File("r2.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("array.disks"), std::string::npos) << r.output;
  // A bad nested array from --set: refused naming the key.
  r = Replay(common + "--scenario " + scenario + " --members " + members +
             " --set array.spans=3 --out " + dir.File("r3.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("array.disks"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace pgstorsim
