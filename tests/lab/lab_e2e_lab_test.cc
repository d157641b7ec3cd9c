// The short version of the lab validation (docs/lab.md, results/validation/lab.md):
// scripts/lab/lab-matrix.sh on one point (live PostgreSQL on a throttled lab disk in a
// memory cgroup, measured by `pgstorsim run`, predicted by `simulate` and `predict`) and
// scripts/lab/lab-array.sh with one run per stripe (replay on four throttled lab disks
// as a RAID 10, 32 KiB vs 1 MiB stripe). Bounds are generous, but a broken throttle,
// driver, replayer or model moves the numbers far outside them. Skips when not root,
// without cgroup v1 blkio/memory, loop devices, PostgreSQL 15 or python3.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/lab_requirements.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

using Row = std::map<std::string, std::string>;

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, '\t')) out.push_back(field);
  return out;
}

// Rows of a TSV with a header line, as column -> value.
std::vector<Row> ReadTsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<Row> rows;
  if (!std::getline(in, line)) return rows;
  const std::vector<std::string> header = SplitTabs(line);
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = SplitTabs(line);
    Row row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

double Number(const Row& row, const std::string& key) {
  auto it = row.find(key);
  return it == row.end() ? -1 : std::stod(it->second);
}

class LabEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = LabMissing({kLabMemoryLimit, kLabPgCtl, kLabPython});
    if (!missing.empty()) GTEST_SKIP() << "lab: skipped: " << missing;
    name_ = "pgstorsim-lab-e2e-test-" + std::to_string(::getpid());
    tsv_ = "/tmp/" + name_ + ".tsv";
  }
  void TearDown() override {
    if (name_.empty()) return;
    std::filesystem::remove(tsv_);
    std::filesystem::remove("/tmp/" + name_ + "-measured.tsv");
    std::filesystem::remove_all("/tmp/" + name_ + "-scenarios");
    std::filesystem::remove_all("/tmp/" + name_ + "-runs");  // lab-array.sh's saved replays.
  }
  // Runs a lab script with our own lab name; returns its output (exit code checked).
  std::string Script(const std::string& script, const std::string& env) {
    ShellResult r =
        RunShell("PGSTORSIM_LAB_NAME=" + name_ + " PGSTORSIM_BINARY=" + PGSTORSIM_BINARY + " " +
                 env + " " + PGSTORSIM_SOURCE_DIR + "/scripts/lab/" + script + " " + tsv_);
    if (r.output.find("lab: skipped:") != std::string::npos) skipped_ = r.output;
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
  }
  std::string name_, tsv_, skipped_;
};

TEST_F(LabEndToEnd, OnePointMeasuredAgainstSimulatedAndPredicted) {
  // 150 IOPS, scale 5 (75 MB, fits in 256 MiB), warm, 4 clients: no reads, and every
  // commit's WAL write is throttled, so the run sits at the write cap even on a loaded
  // machine (results/validation/lab.md: 145-171 tps at load 5-20; predict -10..-19 %,
  // simulate +49..+59 %). A lab that charged fsync's cache flush as a write (two writes
  // per commit), leaked the throttle, did not empty the cache before the point, or a
  // model off by 2x fails.
  std::string out = Script("lab-matrix.sh",
                           "LAB_MATRIX_IOPS=150 LAB_MATRIX_SCALES=5 LAB_MATRIX_CACHES=warm "
                           "LAB_MATRIX_CLIENTS=4 LAB_MATRIX_SECONDS=15 LAB_MATRIX_REPS=1 "
                           "LAB_MATRIX_SETTLE=1");
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
  std::vector<Row> rows = ReadTsv(tsv_);
  ASSERT_EQ(rows.size(), 1u) << out;
  const Row& r = rows[0];
  const double tps = Number(r, "tps");
  std::printf(
      "lab: measured %.1f tps (%.0f writes/s, %.2f per txn), "
      "simulate %.1f, predict %.1f\n",
      tps, Number(r, "w_iops"), Number(r, "writes_txn"), Number(r, "simulate_tps"),
      Number(r, "predict_tps"));
  EXPECT_GT(Number(r, "w_iops"), 150 * 0.8) << out;  // At the write cap.
  EXPECT_LT(Number(r, "w_iops"), 150 * 1.1) << out;
  EXPECT_LT(Number(r, "r_iops"), 15) << out;  // Warm and fits: (almost) no reads.
  EXPECT_GT(Number(r, "writes_txn"), 0.6) << out;
  EXPECT_LT(Number(r, "writes_txn"), 1.2) << out;
  EXPECT_GT(tps, 100);
  EXPECT_LT(tps, 250);
  EXPECT_GT(Number(r, "simulate_tps"), tps * 0.5);
  EXPECT_LT(Number(r, "simulate_tps"), tps * 2.0);
  EXPECT_GT(Number(r, "predict_tps"), tps * 0.5);
  EXPECT_LT(Number(r, "predict_tps"), tps * 2.0);
  EXPECT_GT(Number(r, "end_ms"), Number(r, "update_ms"));  // Commits wait, updates hit.
  // Every point starts from an emptied memory cgroup (the 75 MB database is not cached).
  EXPECT_LT(Number(r, "cached_mib_start"), 20) << out;
  // pg_stat_wal around the run: PostgreSQL groups few commits per WAL flush here
  // (measured 1.03-1.2 at 4 clients); 0 syncs or one per 4 commits means a broken count.
  EXPECT_GT(Number(r, "commits_per_flush"), 0.9) << out;
  EXPECT_LT(Number(r, "commits_per_flush"), 2.5) << out;

  // The predictions alone, again from the saved measurement and scenario: same rows.
  std::string again = Script("lab-matrix.sh", "LAB_MATRIX_PREDICT_ONLY=1");
  std::vector<Row> rows2 = ReadTsv(tsv_);
  ASSERT_EQ(rows2.size(), 1u) << again;
  EXPECT_EQ(rows2[0], r) << again;  // Measured columns kept; simulate --seed 1, predict pure.
}

TEST_F(LabEndToEnd, StripeRatioOnTheEmulatedArray) {
  // Aligned partition: a 64 KiB block on a 32 KiB stripe is two pieces on the two
  // mirrored pairs, on a 1 MiB stripe one piece, so the replayer and the simulator
  // issue the same member I/Os whatever they do with pieces that are contiguous on one
  // member (the 63-sector case, results/validation/lab.md). Measured: replayed 1.46-1.65x,
  // simulated 1.51x.
  std::string out =
      Script("lab-array.sh", "LAB_ARRAY_RUNS=1 LAB_ARRAY_SECONDS=6 LAB_ARRAY_OFFSET=0");
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
  std::vector<Row> rows = ReadTsv(tsv_);
  ASSERT_EQ(rows.size(), 2u) << out;
  ASSERT_EQ(rows[0]["stripe"], "32KiB");
  ASSERT_EQ(rows[1]["stripe"], "1MiB");
  const double measured = Number(rows[1], "median_tps") / Number(rows[0], "median_tps");
  const double simulated = Number(rows[1], "simulate_tps") / Number(rows[0], "simulate_tps");
  std::printf("lab: 1 MiB / 32 KiB stripe: replayed %.2fx, simulated %.2fx\n", measured, simulated);
  // Twice the member reads per page read on 32 KiB, fewer elsewhere: between 1.2x and 2.5x.
  EXPECT_GT(measured, 1.2) << out;
  EXPECT_LT(measured, 2.5) << out;
  EXPECT_GT(simulated / measured, 0.75) << out;
  EXPECT_LT(simulated / measured, 1.33) << out;
}

}  // namespace
}  // namespace pgstorsim
