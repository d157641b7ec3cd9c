// Runs the `pgstorsim trace` command end to end through the built binary.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/results.h"
#include "trace/trace_io.h"

namespace pgstorsim {
namespace {

struct Output {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Temp(const std::string& name) {
  return ::testing::TempDir() + "/trace_cmd_" + std::to_string(::getpid()) + "_" + name;
}

Output RunTrace(const std::string& args) {
  const std::string out = Temp("stdout"), err = Temp("stderr");
  const std::string cmd =
      std::string(PGSTORSIM_BINARY) + " trace " + args + " </dev/null >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Output o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = Slurp(out);
  o.err = Slurp(err);
  return o;
}

TEST(TraceCommandTest, WritesTraceAndPrintsSummary) {
  const std::string path = Temp("t.txt");
  Output o = RunTrace("--scale 1 --transactions 200 --clients 2 --seed 5 --text --out " + path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("records: "), std::string::npos);
  EXPECT_NE(o.out.find("fsyncs 200"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("hit ratio: shared"), std::string::npos);
  auto reader = TraceReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ((*reader)->header().meta["transactions"], 200);
  EXPECT_EQ((*reader)->header().meta["clients"], 2);
  TraceRecord r;
  uint64_t n = 0;
  while (*(*reader)->Next(&r)) ++n;
  EXPECT_GT(n, 400u);
  std::remove(path.c_str());
}

TEST(TraceCommandTest, MeasuredRelationsOverrideSizes) {
  const std::string init = Temp("init.json"), path = Temp("t.bin");
  Results results = NewResults("init");
  results.sections["relations"] = {{"pgbench_accounts", 2000}, {"pgbench_accounts_pkey", 300}};
  ASSERT_TRUE(SaveResults(init, results).ok());
  Output o =
      RunTrace("--scale 1 --transactions 10 --hot-only --relations " + init + " --out " + path);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  auto reader = TraceReader::Open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->header().files[0].size_bytes, 2000 * 8192);
  EXPECT_EQ((*reader)->header().files[1].size_bytes, 300 * 8192);
  std::remove(path.c_str());
  std::remove(init.c_str());
}

std::string DataFile(const std::string& name) {
  return std::string(PGSTORSIM_SOURCE_DIR) + "/tests/trace/data/" + name;
}

// `trace` with `flags` and `trace --scenario data_file scenario_flags` write the same trace,
// byte for byte: one scenario, one host model (checkpoints, OS cache lists and readahead
// are in the records, the settings in the header).
void ExpectSameTrace(const std::string& flags, const std::string& data_file,
                     const std::string& scenario_flags) {
  const std::string a = Temp("flags.txt"), b = Temp("scenario.txt");
  Output by_flags = RunTrace(flags + " --text --out " + a);
  ASSERT_EQ(by_flags.exit_code, 0) << by_flags.err;
  Output by_scenario =
      RunTrace("--scenario " + DataFile(data_file) + " " + scenario_flags + " --text --out " + b);
  ASSERT_EQ(by_scenario.exit_code, 0) << by_scenario.err;
  const std::string trace = Slurp(a);
  EXPECT_GT(trace.size(), 10000u);
  EXPECT_TRUE(trace == Slurp(b)) << flags << " vs " << data_file;
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(TraceCommandTest, FlagsAreTheEquivalentScenario) {
  // 3000 transactions at 1000 tps: checkpoints every 1 s; scale 6 overflows both caches.
  ExpectSameTrace(
      "--scale 6 --clients 2 --seed 3 --shared-buffers 8MiB --os-cache 24MiB --readahead 64k "
      "--checkpoint-interval 1s --transactions 3000",
      "flags-equivalent.toml", "--transactions 3000");
  // --set host.os_cache without --scenario is --os-cache.
  ExpectSameTrace(
      "--set host.os_cache=24MiB --scale 6 --clients 2 --seed 3 --shared-buffers 8MiB "
      "--readahead 64k --checkpoint-interval 1s --transactions 3000",
      "flags-equivalent.toml", "--transactions 3000");
}

TEST(TraceCommandTest, FlagDefaultsAreTheEquivalentScenario) {
  ExpectSameTrace("--scale 3 --transactions 1500 --shared-buffers 4MiB", "flags-defaults.toml",
                  "--os-cache 0 --transactions 1500 --shared-buffers 4MiB");
}

TEST(TraceCommandTest, ErrorsAreOneLineAndNonZero) {
  const std::string path = Temp("never.bin");
  Output missing =
      RunTrace("--scale 1 --transactions 10 --relations /nonexistent.json --out " + path);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err.rfind("pgstorsim trace: ", 0), 0u) << missing.err;
  EXPECT_NE(missing.err.find("/nonexistent.json"), std::string::npos);
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1);
  Output workload = RunTrace("--scale 1 --workload tpcc --out " + path);
  EXPECT_NE(workload.exit_code, 0);
  EXPECT_NE(workload.err.find("--workload"), std::string::npos) << workload.err;
  Output no_out = RunTrace("--scale 1");
  EXPECT_NE(no_out.exit_code, 0);
  EXPECT_NE(::access(path.c_str(), F_OK), 0);  // Nothing written on error.
}

}  // namespace
}  // namespace pgstorsim
