// The OS page cache's fill (model/page_cache_fill.h): where no commit waits behind the
// data writes, the clients run ahead of the disks until the OS holds its dirty limit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/prediction_results.h"
#include "model/storage_model.h"
#include "model_test_util.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

// scenarios/m5110e.toml (TPC-B at scale 2000, RAID 10 x4 of 15K disks behind a 512 MiB
// write-back controller, 24 GiB of RAM) on ext4 at 10 clients: the disks cannot write
// the pages the clients dirty (destage-bound).
std::vector<std::string> FillRun(const std::string& commit, const std::string& limit,
                                 const std::string& duration) {
  return {"filesystem.type=ext4",
          "filesystem.blocks_per_group=0",
          "filesystem.max_blocks_per_group=0",
          "filesystem.block_size=4k",
          "filesystem.fragment_size=4k",
          "filesystem.partition_offset=1MiB",
          "workload.clients=10",
          "host.dirty_background=32MiB",
          commit,
          "host.dirty_limit=" + limit,
          "workload.duration=" + duration};
}

double Tps(const std::vector<std::string>& sets) {
  return MustPredict(testing_util::M5110eScenario(sets)).tps;
}

const char kWalOwn[] = "postgres.wal_on_data_volume=off";

TEST(PageCacheFill, AWalOnItsOwnVolumeRunsAheadUntilTheDirtyLimit) {
  // 24 GiB of RAM: a limit of 20 % of the page cache, minutes of the disks' writes.
  const double large_300 = Tps(FillRun(kWalOwn, "0", "300s"));
  const double large_900 = Tps(FillRun(kWalOwn, "0", "900s"));
  const double small_300 = Tps(FillRun(kWalOwn, "64MiB", "300s"));
  const double small_900 = Tps(FillRun(kWalOwn, "64MiB", "900s"));
  EXPECT_GT(large_300, 1.4 * small_300);  // Most of 300 s is the fill.
  EXPECT_LT(large_900, large_300);        // The fill is a smaller share of 900 s.
  EXPECT_GT(large_900, 1.1 * small_900);
  // 64 MiB fill in well under a second: the steady state's pace.
  EXPECT_NEAR(small_900, small_300, 0.02 * small_300);
}

TEST(PageCacheFill, AsynchronousCommitFillsAsWell) {
  const char off[] = "postgres.synchronous_commit=off";
  const double large = Tps(FillRun(off, "0", "300s"));
  const double small = Tps(FillRun(off, "64MiB", "300s"));
  EXPECT_GT(large, 1.4 * small);
}

// Commits that wait behind the data writes (synchronous commit, the WAL on the data
// volume) hold the clients to the disks' pace from the start: the limit changes nothing.
TEST(PageCacheFill, NoFillWhereCommitsWaitBehindTheDataWrites) {
  const char shared[] = "postgres.wal_on_data_volume=on";
  const double large = Tps(FillRun(shared, "0", "300s"));
  const double small = Tps(FillRun(shared, "64MiB", "300s"));
  EXPECT_DOUBLE_EQ(large, small);
}

// Direct data writes: the OS holds no dirty page, so nothing fills.
TEST(PageCacheFill, NoFillWithDirectDataWrites) {
  std::vector<std::string> direct = FillRun(kWalOwn, "0", "300s");
  direct.push_back("io.data_writes=direct");
  std::vector<std::string> direct_small = FillRun(kWalOwn, "64MiB", "300s");
  direct_small.push_back("io.data_writes=direct");
  EXPECT_DOUBLE_EQ(Tps(direct), Tps(direct_small));
}

// While it fills the disks write all the time the reads leave them: the members that
// take writes are busy the whole run.
TEST(PageCacheFill, TheDisksAreBusyWhileItFills) {
  const Prediction p = MustPredict(testing_util::M5110eScenario(FillRun(kWalOwn, "0", "300s")));
  ASSERT_FALSE(p.devices.empty());
  for (const auto& d : p.devices) {
    if (d.name.rfind("disk", 0) != 0) continue;
    EXPECT_GT(d.utilization, 0.97) << d.name;
  }
}

// The run's throughput is the time-weighted mean of its two phases, and the results
// carry both with the fill's length.
TEST(PageCacheFill, ThePhasesAreReportedAndAverageToTheRun) {
  const Prediction p = MustPredict(testing_util::M5110eScenario(FillRun(kWalOwn, "0", "900s")));
  ASSERT_GT(p.fill_s, 10);
  ASSERT_LT(p.fill_s, 900);
  EXPECT_GT(p.fill_tps, 1.3 * p.after_fill_tps);
  EXPECT_NEAR(p.tps, (p.fill_tps * p.fill_s + p.after_fill_tps * (900 - p.fill_s)) / 900,
              1e-6 * p.tps);
  const nlohmann::json j = PredictionToJson(p);
  EXPECT_EQ(j.at("page_cache_fill_s").get<double>(), p.fill_s);
  EXPECT_EQ(j.at("page_cache_fill_tps").get<double>(), p.fill_tps);
  EXPECT_EQ(j.at("after_page_cache_fill_tps").get<double>(), p.after_fill_tps);
  const Prediction none = MustPredict(
      testing_util::M5110eScenario(FillRun("postgres.wal_on_data_volume=on", "0", "900s")));
  EXPECT_EQ(none.fill_s, 0);
  EXPECT_EQ(none.fill_tps, 0);
}

// A commit whose WAL goes to its own (ideal) device writes nothing to the array: END is
// its CPU share, without the controller's acknowledgement, room waits or stalls behind
// the OS's writes; the transaction's wait for the disks is UPDATE accounts' (its reads,
// as the simulator's: END 0.12 ms, UPDATE accounts 7.5 ms over 900 s at the defaults).
TEST(PageCacheFill, ACommitToItsOwnWalDeviceWaitsForNothingOnTheArray) {
  const Prediction own = MustPredict(testing_util::M5110eScenario(FillRun(kWalOwn, "0", "900s")));
  const Prediction shared = MustPredict(
      testing_util::M5110eScenario(FillRun("postgres.wal_on_data_volume=on", "0", "900s")));
  EXPECT_LT(own.statement_latency_ms.at("END"), 0.15);
  EXPECT_LT(own.statement_percentiles.at("END").p99_ms, 0.15);
  EXPECT_EQ(own.stalled_transaction_share, 0);
  EXPECT_GT(own.statement_latency_ms.at("UPDATE accounts"), 5.0);
  // On the array the commit waits for the controller's acknowledgement.
  EXPECT_GT(shared.statement_latency_ms.at("END"), own.statement_latency_ms.at("END") + 0.1);
}

// While the OS page cache fills and once it holds its dirty limit the disks always have
// writes: a read waits behind the few in flight (a narrow wait), not behind an open
// stream at the disks' utilisation (exponential): every transaction is in the
// saturated share, and the p99 stays within twice the mean of a reading transaction.
TEST(PageCacheFill, ReadsWaitBehindTheWritesInFlightThroughTheRun) {
  for (const char* duration : {"300s", "900s"}) {
    const Prediction p = MustPredict(testing_util::M5110eScenario(FillRun(kWalOwn, "0", duration)));
    ASSERT_GT(p.fill_s, 0) << duration;
    EXPECT_DOUBLE_EQ(p.destage_saturated_share, 1) << duration;
    const double reading_mean_ms = p.transaction_latency_ms / p.reads_per_transaction;
    EXPECT_LT(p.transaction_percentiles.p99_ms, 2 * reading_mean_ms) << duration;
  }
}

}  // namespace
}  // namespace pgstorsim
