// synchronous_commit = off in the analytic model: commits do not wait for their WAL
// flush; the WAL writer flushes every wal_writer_delay in the background.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/storage_model.h"
#include "model_test_util.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

// TPC-B in cache on HDDs without a write-back cache: each commit waits for its WAL write.
// 10 s: shorter than the first checkpoint's write-out, and the page cache holds the
// evicted pages, so no data page reaches the disks and only the commit path differs
// (longer runs write the checkpoints' pages, and at these rates the disks bind).
const std::vector<std::string> kWriteThrough = {"controller.write_policy=write-through",
                                                "workload.scale=10", "workload.clients=8",
                                                "calibration.cpu_ms=0.5", "workload.duration=10s"};

std::vector<std::string> With(std::vector<std::string> sets, const std::string& more) {
  sets.push_back(more);
  return sets;
}

TEST(SynchronousCommit, OffTakesTheWalWriteOffTheCommitPath) {
  const Prediction on = MustPredict(With(kWriteThrough, "postgres.synchronous_commit=on"));
  const Prediction off = MustPredict(With(kWriteThrough, "postgres.synchronous_commit=off"));
  EXPECT_GT(off.tps, 1.5 * on.tps);
  EXPECT_LT(off.statement_latency_ms.at("END"), 0.2 * on.statement_latency_ms.at("END"));
}

// The WAL on its own device (postgres.wal_on_data_volume = off): the commit waits for an
// ideal flush, as in the simulator, not for a write on the data disks.
TEST(SynchronousCommit, AWalOnItsOwnDeviceLeavesTheDataDisksCommitPath) {
  const Prediction shared = MustPredict(With(kWriteThrough, "postgres.wal_on_data_volume=on"));
  const Prediction own = MustPredict(With(kWriteThrough, "postgres.wal_on_data_volume=off"));
  EXPECT_GT(own.tps, 1.5 * shared.tps);
  EXPECT_LT(own.statement_latency_ms.at("END"), 0.2 * shared.statement_latency_ms.at("END"));
}

// Over checkpoint bursts (300 s of the built-in scenario, write-through): with commits
// that flush, a commit in the burst waits behind the OS's writes; with none, nothing.
TEST(SynchronousCommit, OffNoCommitWaitsBehindTheBurst) {
  const std::vector<std::string> wt = {"controller.write_policy=write-through",
                                       "workload.duration=300s"};
  const Prediction on = MustPredict(With(wt, "postgres.synchronous_commit=on"));
  const Prediction off = MustPredict(With(wt, "postgres.synchronous_commit=off"));
  EXPECT_GT(on.burst_flush_wait_ms, 0);
  EXPECT_EQ(off.wal_flush_ms, 0);
  EXPECT_EQ(off.burst_flush_wait_ms, 0);
}

TEST(SynchronousCommit, OffSavesTheWriteBackAcknowledgement) {
  const std::vector<std::string> wb = {"workload.scale=10", "workload.clients=8",
                                       "calibration.cpu_ms=0.5", "calibration.commit_ms=0.3",
                                       "workload.duration=10s"};
  const Prediction on = MustPredict(With(wb, "postgres.synchronous_commit=on"));
  const Prediction off = MustPredict(With(wb, "postgres.synchronous_commit=off"));
  EXPECT_GT(off.tps, on.tps);
  EXPECT_LT(off.statement_latency_ms.at("END"), on.statement_latency_ms.at("END"));
}

// The calibrated M5110e (HDD RAID 10 behind a write-back cache, scale 2000, 900 s).
Prediction M5110e(std::vector<std::string> sets) {
  auto s = LoadScenario(
      std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml", sets);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? MustPredict(*s) : Prediction();
}

// Past the disks' destage capacity (the M5110e at 10 clients):
// with commits that wait for room, END holds the wait; with none, the transaction's
// reads wait behind the writes, END keeps only its CPU share, and the throughput is
// the same destage bound, never lower.
TEST(SynchronousCommit, OffTheWaitForTheDisksIsTheReadsNotTheCommits) {
  const Prediction on = M5110e({"postgres.synchronous_commit=on"});
  const Prediction off = M5110e({"postgres.synchronous_commit=off"});
  EXPECT_GT(on.statement_latency_ms.at("END"), 5);
  EXPECT_LT(off.statement_latency_ms.at("END"), 0.5);
  EXPECT_GT(off.statement_latency_ms.at("UPDATE accounts"),
            on.statement_latency_ms.at("UPDATE accounts"));
  EXPECT_GE(off.tps, on.tps);
  EXPECT_LT(off.tps, 1.2 * on.tps);       // The disks bind either way.
  EXPECT_EQ(off.checkpoint_stall_ms, 0);  // The cache takes the checkpoint's burst.
}

// The busiest disk's write utilisation.
double BusiestDiskWrites(const Prediction& p) {
  double busiest = 0, writes = 0;
  for (const DeviceLoad& d : p.devices) {
    if (d.name != "cpu" && d.utilization > busiest) {
      busiest = d.utilization;
      writes = d.destage_utilization;
    }
  }
  return writes;
}

// With commits that wait for nothing, the regime is what the reads wait for: at the
// M5110e's disks, busy writing the OS's write-back, the writes they queue behind
// ("write-bound"); on 24 disks behind the write-back cache at one client, mostly their
// own reads ("read-bound").
TEST(SynchronousCommit, OffTheRegimeIsWhatTheReadsQueueBehind) {
  const Prediction behind_writes =
      M5110e({"postgres.synchronous_commit=off", "controller.write_policy=write-through"});
  EXPECT_GT(BusiestDiskWrites(behind_writes), 0.9);
  EXPECT_EQ(behind_writes.regime, "write-bound");
  EXPECT_GT(behind_writes.statement_latency_ms.at("UPDATE accounts"),
            10 * behind_writes.statement_latency_ms.at("END"));

  const Prediction own_reads =
      M5110e({"postgres.synchronous_commit=off", "array.disks=24", "workload.clients=1"});
  EXPECT_LT(BusiestDiskWrites(own_reads), 0.4);
  EXPECT_EQ(own_reads.regime, "read-bound");
}

// The M5110e with one client, synchronous_commit off: below the destage capacity nothing
// waits for the cache, so the throughput is the free solution's, not a blend with the
// cache-full regime.
TEST(SynchronousCommit, OffBelowTheDestageCapacityTheCacheNeverFills) {
  const Prediction off = MustPredict(
      std::vector<std::string>{"postgres.synchronous_commit=off", "workload.clients=1"});
  EXPECT_EQ(off.cache_full_probability, 0);
  for (const DeviceLoad& d : off.devices) EXPECT_LT(d.utilization, 1) << d.name;
}

TEST(SynchronousCommit, WalWriterDelaySetsTheBackgroundWalWrites) {
  // Flushing every 10 ms keeps the disks busy (off the commit path); every 10 s,
  // almost never.
  auto off = With(kWriteThrough, "postgres.synchronous_commit=off");
  const Prediction often = MustPredict(With(off, "postgres.wal_writer_delay=10ms"));
  const Prediction rare = MustPredict(With(off, "postgres.wal_writer_delay=10s"));
  double busy_often = 0, busy_rare = 0;
  for (const DeviceLoad& d : often.devices) busy_often += d.destage_utilization / often.tps;
  for (const DeviceLoad& d : rare.devices) busy_rare += d.destage_utilization / rare.tps;
  EXPECT_GT(busy_often, busy_rare * 1.05);
  EXPECT_LE(often.tps, rare.tps);
  for (const DeviceLoad& d : often.devices) EXPECT_LE(d.utilization, 1 + 1e-6) << d.name;
  // A flush every millisecond is more than one writer can do: no disk above capacity.
  for (const DeviceLoad& d : MustPredict(With(off, "postgres.wal_writer_delay=1ms")).devices)
    EXPECT_LE(d.utilization, 1 + 1e-6) << d.name;
  // With synchronous commit the WAL writer's interval changes nothing.
  EXPECT_DOUBLE_EQ(MustPredict(With(kWriteThrough, "postgres.wal_writer_delay=1ms")).tps,
                   MustPredict(With(kWriteThrough, "postgres.wal_writer_delay=10s")).tps);
}

}  // namespace
}  // namespace pgstorsim
