#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/file_util.h"
#include "common/results.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

// Runs the pgstorsim binary; returns its exit status and captures stdout+stderr.
int RunCli(const std::string& args, std::string* output) {
  ShellResult r = RunPgstorsim(args);
  *output = r.output;
  return r.exit_code;
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/pgstorsim_sim_cli_" + name + "_" +
         std::to_string(getpid()) + ".json";
}

TEST(SimulateCommandTest, WritesResultsAndPrintsPgbenchLikeSummary) {
  const std::string out = TempPath("ok");
  std::string text;
  const std::string args =
      "simulate --set workload.scale=2 --set workload.clients=2 "
      "--duration 3s --seed 7 --out " +
      out;
  ASSERT_EQ(RunCli(args, &text), 0) << text;
  EXPECT_NE(text.find("tps = "), std::string::npos) << text;
  EXPECT_NE(text.find("UPDATE accounts"), std::string::npos);
  StatusOr<Results> r = LoadResults(out);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->kind, "simulate");
  EXPECT_GT(r->transactions, 0u);
  EXPECT_EQ(r->config["scenario"]["workload.seed"], 7);
  // Same seed again: the same document apart from its creation time.
  const std::string out2 = TempPath("ok2");
  ASSERT_EQ(RunCli(args.substr(0, args.size() - out.size()) + out2, &text), 0) << text;
  StatusOr<Results> r2 = LoadResults(out2);
  ASSERT_TRUE(r2.ok());
  nlohmann::json a = r->ToJson(), b = r2->ToJson();
  a.erase("created_utc");
  b.erase("created_utc");
  EXPECT_EQ(a, b);
  std::remove(out.c_str());
  std::remove(out2.c_str());
}

TEST(SimulateCommandTest, BadOverrideIsOneLineAndNonZero) {
  std::string text;
  EXPECT_NE(RunCli("simulate --set array.disks=3 --duration 1s --out " + TempPath("bad"), &text),
            0);
  EXPECT_NE(text.find("array.disks"), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;  // Exactly one line.
}

// io.data_writes = direct: backends wait for their dirty victims' writes (the lab's
// throttled disk at scale 30 in a 256 MiB cgroup: 164 vs 121 tps over 30 s).
TEST(SimulateCommandTest, DirectDataWritesCostTheBackends) {
  const std::string scenario = std::string(PGSTORSIM_SOURCE_DIR) +
                               "/results/validation/lab-matrix-scenarios/lab-150-s30.toml";
  double tps[2] = {0, 0};
  for (int direct = 0; direct < 2; ++direct) {
    const std::string out = TempPath(direct ? "direct" : "buffered");
    std::string text;
    ASSERT_EQ(RunCli("simulate --scenario " + scenario +
                         " --set workload.clients=4 --duration 30s --seed 1 --set io.data_writes=" +
                         (direct ? "direct" : "buffered") + " --out " + out,
                     &text),
              0)
        << text;
    StatusOr<Results> r = LoadResults(out);
    ASSERT_TRUE(r.ok()) << r.status().message();
    tps[direct] = r->tps;
    std::remove(out.c_str());
  }
  EXPECT_LT(tps[1], 0.9 * tps[0]) << "buffered " << tps[0] << ", direct " << tps[1];
}

// A run in which no transaction completes (100000 clients for 1 s) is an error, not zeros.
TEST(SimulateCommandTest, NoCompletedTransactionIsRefused) {
  std::string text;
  const std::string out = TempPath("absurd");
  EXPECT_EQ(RunCli("simulate --set workload.scale=2 --set workload.clients=100000 "
                   "--duration 1ms --out " +
                       out,
                   &text),
            1)
      << text;
  EXPECT_EQ(text.rfind("pgstorsim simulate: no transaction completed", 0), 0u) << text;
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
  EXPECT_FALSE(LoadResults(out).ok()) << "no results for a run without transactions";
}

// The same run to an existing --out: refused without --force, replaced with it.
TEST(SimulateCommandTest, ExistingOutNeedsForce) {
  const std::string out = TempPath("exists");
  ASSERT_TRUE(WriteFileAtomically(out, "keep me\n").ok());
  std::string text;
  const std::string args =
      "simulate --set workload.scale=2 --set workload.clients=2 "
      "--duration 1s --quiet --out " +
      out;
  EXPECT_EQ(RunCli(args, &text), 1) << text;
  EXPECT_NE(text.find("--force"), std::string::npos) << text;
  EXPECT_EQ(*ReadFile(out), "keep me\n");
  EXPECT_EQ(RunCli(args + " --force", &text), 0) << text;
  EXPECT_TRUE(LoadResults(out).ok());
  std::remove(out.c_str());
}

}  // namespace
}  // namespace pgstorsim
