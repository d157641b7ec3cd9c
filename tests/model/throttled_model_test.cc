// The analytic model on a throttled disk (independent read and write caps) and on JBOD.
#include <gtest/gtest.h>

#include "model/storage_model.h"

namespace pgstorsim {
namespace {

Scenario Lab(std::vector<std::string> sets = {}) {
  std::vector<std::string> base = {
      "controller.kind=hba",  "controller.cache_size=0",      "array.level=jbod",
      "array.disks=1",        "disks.type=throttled",         "disks.read_iops=150",
      "disks.write_iops=100", "disks.read_latency=30us",      "disks.write_latency=30us",
      "host.ram=1GiB",        "postgres.shared_buffers=32MiB"};
  base.insert(base.end(), sets.begin(), sets.end());
  auto s = DefaultScenario(base);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

// randomio (an io workload: 8 KiB requests with an fsync after each write) on a file
// far larger than the cache, in 16 KiB filesystem blocks: every operation reads its
// block, and with write fraction 1 also writes it: one read + one write per operation.
Prediction Randomio(Scenario s, int threads, double write_fraction) {
  for (const std::string& o :
       {std::string("workload.type=io"), std::string("workload.io_size=8KiB"),
        std::string("workload.file_size=64GiB"), std::string("workload.io_fsync_writes=on"),
        std::string("workload.duration=100s"), std::string("filesystem.block_size=16KiB"),
        "workload.clients=" + std::to_string(threads),
        "workload.read_fraction=" + std::to_string(1 - write_fraction)}) {
    EXPECT_TRUE(ApplyOverride(&s, o).ok()) << o;
  }
  EXPECT_TRUE(ValidateScenario(s).ok()) << ValidateScenario(s).message();
  auto p = PredictWith(s, ParamsFromScenario(s));
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : Prediction();
}

double RandomioTps(const Scenario& s, int threads, double write_fraction) {
  return Randomio(s, threads, write_fraction).tps;
}

TEST(ThrottledModel, OneReaderGetsTheReadCap) {
  const Prediction p = Randomio(Lab(), 1, 0);
  const double reads_per_s = p.tps * p.reads_per_transaction;  // ~1% of blocks cached.
  EXPECT_GT(p.reads_per_transaction, 0.95);
  EXPECT_GT(reads_per_s, 0.97 * 150);
  EXPECT_LE(reads_per_s, 150.01);
}

TEST(ThrottledModel, ReadPlusWriteIsBoundedByTheSlowerCapNotTheHarmonicSum) {
  const Scenario s = Lab();
  const double tps = RandomioTps(s, 32, 1);
  const double harmonic = 1 / (1.0 / 150 + 1.0 / 100);  // 60/s: one shared queue.
  EXPECT_LE(tps, 100.01);                               // min(read_iops, write_iops).
  EXPECT_GT(tps, 0.9 * 100);
  EXPECT_GT(tps, 1.4 * harmonic);
  // The same device as one SSD-like queue at 1/IOPS per I/O is held to the harmonic sum.
  const double shared =
      RandomioTps(Lab({"disks.type=ssd", "disks.channels=1", "disks.read_latency=6666us",
                       "disks.write_latency=10ms", "disks.transfer_rate=100GiB"}),
                  32, 1);
  EXPECT_LT(shared, 1.01 * harmonic);
}

TEST(ThrottledModel, TpcbOnTheLabDiskReportsBothCaps) {
  auto p = Predict(Lab({"workload.clients=4", "workload.scale=100"}));  // 1.5 GB: misses.
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_GE(p->devices.size(), 2u);
  EXPECT_EQ(p->devices[0].name, "disk0");
  EXPECT_EQ(p->devices[1].name, "cpu");
  EXPECT_GT(p->devices[0].read_utilization, 0);
  EXPECT_GT(p->devices[0].destage_utilization, 0);
  EXPECT_LE(p->devices[0].utilization, 1.0 + 1e-9);
  // Each transaction writes at least one block through the 100/s write cap, 13 commits
  // per 10 flushes at most (CommitsShareTheFirstFlushOfEachThrottleSlice).
  EXPECT_LE(p->tps, 100.01 * 13 / 10 / p->writes_per_transaction);
}

TEST(ThrottledModel, StatementLatenciesAddUpToTheCycleWhenACapBinds) {
  // One client, warm, small scale: the 100/s write cap binds (tps = 100 / writes), and
  // the client waits for its slot in the commit: the statements add up to 1 / tps.
  auto p = Predict(Lab({"workload.clients=1", "workload.cache=warm", "workload.scale=5"}));
  ASSERT_TRUE(p.ok()) << p.status().message();
  double sum_ms = 0;
  for (const auto& [name, ms] : p->statement_latency_ms) sum_ms += ms;
  EXPECT_NEAR(sum_ms, 1000 / p->tps, 0.05 * 1000 / p->tps);
  EXPECT_GT(p->statement_latency_ms.at("END"), 0.5 * 1000 / p->tps);
}

TEST(ThrottledModel, RequestLatenciesAddUpToTheCycleByKind) {
  // Reads and writes at their own caps: a request's mean is the cycle (in flight / rate),
  // split between the kinds by where they wait; the regime names the cap that binds.
  for (int threads : {1, 4}) {
    for (double write_fraction : {0.0, 0.5, 1.0}) {
      const Prediction p = Randomio(Lab(), threads, write_fraction);
      const std::string at =
          std::to_string(threads) + " threads, writes " + std::to_string(write_fraction);
      EXPECT_NEAR(p.transaction_latency_ms, threads * 1000 / p.tps, 1e-6 * p.tps) << at;
      EXPECT_EQ(p.statement_latency_ms.count("read"), write_fraction < 1 ? 1u : 0u) << at;
      EXPECT_EQ(p.statement_latency_ms.count("write"), write_fraction > 0 ? 1u : 0u) << at;
      for (const auto& [kind, ms] : p.statement_latency_ms) EXPECT_GT(ms, 0) << at << " " << kind;
      EXPECT_GT(p.transaction_percentiles.p95_ms, 0) << at;
      // The 100/s write cap binds whenever there are writes (each also reads its block).
      EXPECT_EQ(p.regime, write_fraction > 0 ? "write-bound" : "read-bound") << at;
    }
  }
}

TEST(ThrottledModel, RaidPreReadsAndReadAheadGoToTheRequestsThatCauseThem) {
  // RAID 5 writes' pre-reads queue at the read caps: write-only, the writes' latency is
  // the whole cycle (it was the cycle less the pre-reads' residence).
  Scenario raid5 = Lab({"array.level=raid5", "array.disks=4", "array.stripe=64KiB"});
  const Prediction writes = Randomio(raid5, 4, 1);
  EXPECT_NEAR(writes.statement_latency_ms.at("write"), 4 * 1000 / writes.tps, 1e-6 * 1000);
  EXPECT_GT(writes.devices[0].read_utilization, 0.3);
  // A sequential stream's 128 KiB read-ahead window serves two 64 KiB requests: half a
  // device read each, so the 150/s read cap gives about 300 read requests a second.
  Scenario seq = Lab({"workload.type=io", "workload.io_size=64KiB", "workload.file_size=1GiB",
                      "workload.read_fraction=1", "workload.io_access=sequential",
                      "filesystem.os_readahead=128KiB", "workload.clients=1"});
  ASSERT_TRUE(ValidateScenario(seq).ok()) << ValidateScenario(seq).message();
  auto p = PredictWith(seq, ParamsFromScenario(seq));
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_NEAR(p->reads_per_transaction, 0.5, 0.01);
  EXPECT_NEAR(p->tps, 300, 3);
  EXPECT_NEAR(p->statement_latency_ms.at("read"), 1000 / p->tps, 1e-3);
}

TEST(ThrottledModel, RequestsThatNeverWaitForTheDeviceAreRefused) {
  // Buffered reads of a file the OS cache holds: the rate is the CPU's, not the caps'.
  Scenario s = Lab();
  for (const char* o : {"workload.type=io", "workload.io_size=8KiB", "workload.file_size=100MiB",
                        "workload.read_fraction=1", "workload.clients=4"}) {
    ASSERT_TRUE(ApplyOverride(&s, o).ok()) << o;
  }
  ASSERT_TRUE(ValidateScenario(s).ok());
  auto p = PredictWith(s, ParamsFromScenario(s));
  ASSERT_FALSE(p.ok()) << "tps " << p->tps;
  EXPECT_NE(p.status().message().find("no request waits for the storage"), std::string::npos)
      << p.status().message();
}

TEST(ThrottledModel, CommitsShareTheFirstFlushOfEachThrottleSlice) {
  // Warm, scale 5: the commits' WAL flushes and the data writes (w per transaction:
  // the pages dirtied in a cycle, again each time one is evicted dirty from the 32 MiB
  // of shared buffers over the 75 MiB database; no OS page cache) reach the 100/s
  // write cap. A 100 ms
  // blk-throttle slice grants 10 writes; once they are spent all N clients wait, and
  // the next slice's first flush carries the N commits: (10 - 1 + N) commits per 10
  // flushes.
  // 900 s: three checkpoint cycles, whose fsyncs write the pages dirtied in them.
  const std::vector<std::string> warm = {"workload.cache=warm", "workload.scale=5",
                                         "workload.duration=900s"};
  auto with = [&](std::vector<std::string> sets) {
    sets.insert(sets.end(), warm.begin(), warm.end());
    auto p = Predict(Lab(sets));
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? *p : Prediction();
  };
  const Prediction one = with({"workload.clients=1"});
  const double w = one.writes_per_transaction;
  EXPECT_GT(w, 0.01);
  EXPECT_LT(w, 1.0);
  EXPECT_NEAR(one.tps, 100.0 / (1 + w), 0.5);
  // Each run's own writes per transaction: a faster run revisits more of its pages
  // within a checkpoint cycle, so it writes fewer per transaction.
  const Prediction four = with({"workload.clients=4"});
  EXPECT_NEAR(four.tps, 100.0 / (10.0 / 13 + four.writes_per_transaction), 0.5);
  const Prediction eight = with({"workload.clients=8"});
  EXPECT_NEAR(eight.tps, 100.0 / (10.0 / 17 + eight.writes_per_transaction), 0.5);
  // WAL on its own device: only the data writes go through the cap.
  const Prediction apart = with({"workload.clients=4", "postgres.wal_on_data_volume=false"});
  EXPECT_LE(apart.tps, 100.01 / apart.writes_per_transaction);
}

TEST(StorageModelJbod, PredictAcceptsJbodLikeOneDiskRaid0) {
  auto jbod = Predict(Lab({"disks.type=ssd"}));
  ASSERT_TRUE(jbod.ok()) << jbod.status().message();
  auto raid0 = Predict(Lab({"disks.type=ssd", "array.level=raid0"}));
  ASSERT_TRUE(raid0.ok()) << raid0.status().message();
  EXPECT_GT(jbod->tps, 0);
  EXPECT_NEAR(jbod->tps, raid0->tps, 1e-6 * raid0->tps);
  auto four = Predict(Lab({"array.disks=4"}));  // Concatenated: one disk holds the data.
  EXPECT_TRUE(four.ok()) << four.status().message();
}

// io.data_writes = direct: answered on a throttled device and behind a write-back
// cache, refused (naming the key) on bare disks, whose commits would queue behind the
// checkpointer's direct writes.
TEST(DirectDataWrites, AnsweredWhereModelledRefusedOnBareDisks) {
  const std::vector<std::string> lab = {"workload.clients=4", "workload.scale=5",
                                        "workload.cache=warm", "workload.duration=300s"};
  auto buffered = Predict(Lab(lab));
  std::vector<std::string> direct_lab = lab;
  direct_lab.push_back("io.data_writes=direct");
  auto direct = Predict(Lab(direct_lab));
  ASSERT_TRUE(buffered.ok()) << buffered.status().message();
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  // Nothing held or merged in the OS page cache: at least as many writes reach the cap.
  EXPECT_GE(direct->writes_per_transaction, buffered->writes_per_transaction);
  EXPECT_GT(direct->tps, 0);
  EXPECT_LE(direct->tps, buffered->tps * 1.001);
  auto write_back = DefaultScenario({"io.data_writes=direct"});
  ASSERT_TRUE(write_back.ok());
  auto behind_cache = Predict(*write_back);
  EXPECT_TRUE(behind_cache.ok()) << behind_cache.status().message();
  auto bare = DefaultScenario({"controller.kind=hba", "io.data_writes=direct"});
  ASSERT_TRUE(bare.ok());
  auto refused = Predict(*bare);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("io.data_writes = direct"), std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace pgstorsim
