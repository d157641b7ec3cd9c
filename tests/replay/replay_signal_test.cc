// `pgstorsim replay` stopped by SIGINT: the binary is started in the background with a
// long --duration, sent SIGINT once it is running (its first interval row printed, or
// its target created for an open-loop replay that mostly sleeps), and must exit 130 with partial
// results (complete=false, flag "interrupted") long before the duration is over. Closed loop, and
// open loop with workers asleep until their next scheduled transaction.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "common/results.h"
#include "replay_test_util.h"
#include "support/shell.h"
#include "support/signal_group.h"

namespace pgstorsim {
namespace {

// Runs `replay <args>` as its own process group (output in out.txt), polls (up to 20 s
// each) until `ready_test` (a shell test; the handler is installed before the target
// file's creation marker appears) holds and then until the replay has printed an
// interval row, sends SIGINT and returns the exit status with the output.
ShellResult ReplayThenInterrupt(const TempDir& dir, const std::string& args,
                                const std::string& ready_test) {
  GroupProcess p(std::string(PGSTORSIM_BINARY) + " replay " + args, dir.File("out.txt"));
  ShellResult r;
  const bool ready =
      GroupProcess::WaitFor([&] { return RunShell(ready_test).exit_code == 0; }, 20) &&
      p.LogContains("iops", 20);
  p.SignalGroup(SIGINT);
  r.exit_code = p.WaitExit(60);
  r.output = p.Log() + (ready ? "" : "\n(not ready within 20 s)");
  return r;
}

Results ExpectInterrupted(const TempDir& dir, const std::string& args,
                          const std::string& ready_test) {
  const std::string all = args + " --duration 120s --interval 100ms --no-direct --target " +
                          dir.File("data") + " --out " + dir.File("r.json");
  ShellResult r = ReplayThenInterrupt(dir, all, ready_test);
  EXPECT_EQ(r.exit_code, 130) << r.output;
  EXPECT_NE(r.output.find("(partial: interrupted)"), std::string::npos) << r.output;
  auto results = LoadResults(dir.File("r.json"));
  EXPECT_TRUE(results.ok()) << results.status().message() << "\n" << r.output;
  if (!results.ok()) return Results();
  EXPECT_EQ(results->kind, "replay");
  EXPECT_FALSE(results->complete);
  EXPECT_NE(std::find(results->flags.begin(), results->flags.end(), "interrupted"),
            results->flags.end());
  EXPECT_LT(results->duration_s, 60.0);  // Stopped, not run to the 120 s duration.
  return *results;
}

TEST(ReplaySignalTest, SigintWritesPartialResultsAndExits130) {
  TempDir dir;
  // Ready once the first interval row is printed: transactions have run.
  Results r = ExpectInterrupted(dir, "--pattern randrw --pattern-size 8MiB --workers 2",
                                "grep -q iops " + dir.File("out.txt"));
  EXPECT_GT(r.transactions, 0u);
}

TEST(ReplaySignalTest, SigintStopsAnOpenLoopReplayWaitingForItsSchedule) {
  TempDir dir;
  // Two transactions per second of trace time: the workers mostly sleep.
  ShellResult trace = RunPgstorsim(
      "trace --scale 1 --transactions 400 --clients 2 --rate 2 --out " + dir.File("t.trace"));
  ASSERT_EQ(trace.exit_code, 0) << trace.output;
  Results r = ExpectInterrupted(dir, "--trace " + dir.File("t.trace") + " --open-loop",
                                "[ -e " + dir.File("data.pgstorsim-created") + " ]");
  EXPECT_LT(r.transactions, 100u);
}

// GNU timeout signals the command and its own process group: two SIGTERMs at once.
// Under `timeout` the replay exits 130 with its partial results saved, in every attempt.
TEST(ReplaySignalTest, UnderTimeoutPartialResultsAreSaved) {
  TempDir dir;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string json = dir.File("t" + std::to_string(attempt) + ".json");
    ShellResult r =
        RunShell("timeout --preserve-status -s TERM 3 " + std::string(PGSTORSIM_BINARY) +
                 " replay --pattern randrw --pattern-size 8MiB --workers 2"
                 " --duration 120s --no-direct --target " +
                 dir.File("data") + " --out " + json);
    EXPECT_EQ(r.exit_code, 130) << r.output;
    auto results = LoadResults(json);
    ASSERT_TRUE(results.ok()) << results.status().message() << "\n" << r.output;
    EXPECT_FALSE(results->complete);
  }
}

// SIGTERM to the whole group, then more SIGTERM and SIGINT while the results are being
// saved: ignored; the replay exits 130 with its partial results.
TEST(ReplaySignalTest, RepeatedGroupSignalsAreIgnoredWhileSaving) {
  TempDir dir;
  GroupProcess p(std::string(PGSTORSIM_BINARY) +
                     " replay --pattern randrw --pattern-size 8MiB --workers 2 --duration 120s"
                     " --interval 100ms --no-direct --target " +
                     dir.File("data") + " --out " + dir.File("r.json"),
                 dir.File("log"));
  ASSERT_TRUE(p.LogContains("iops", 30)) << p.Log();
  p.SignalGroup(SIGTERM);
  ASSERT_TRUE(p.LogContains("further signals are ignored", 10)) << p.Log();
  p.SignalGroup(SIGTERM);
  p.SignalGroup(SIGINT);
  EXPECT_EQ(p.WaitExit(30), 130) << p.Log();
  auto results = LoadResults(dir.File("r.json"));
  ASSERT_TRUE(results.ok()) << results.status().message() << "\n" << p.Log();
  EXPECT_FALSE(results->complete);
  EXPECT_GT(results->transactions, 0u);
}

}  // namespace
}  // namespace pgstorsim
