// The checkpoint burst term and the SSD channel station of the analytic model
// (docs/model.md, "Checkpoint bursts" and "SSD").
#include "model/checkpoint_burst.h"

#include <gtest/gtest.h>

#include "model/storage_model.h"
#include "pgmodel/demands.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

Scenario M5110e(const std::vector<std::string>& sets = {}) {
  return testing_util::M5110eScenario(sets);
}

TEST(CheckpointCycle, NineOneBurstIsWhatTheCacheRoomCannotTake) {
  const Scenario s = M5110e({"workload.scale=200"});
  auto demands = pgmodel::SampleDemands(s, 0);
  ASSERT_TRUE(demands.ok()) << demands.status().message();
  auto c = MakeCheckpointCycle(s, 1, demands->wal_lsn_bytes);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->completion_target, 0.5);               // 9.1's default.
  EXPECT_EQ(c->wal_trigger_bytes, 48.0 * (1 << 20));  // checkpoint_segments = 3.
  // Images of the accounts page and, its update not HOT, of the pkey leaf ...
  EXPECT_GT(c->wal_bytes_per_txn, 2 * 8192);
  EXPECT_LT(c->wal_bytes_per_txn, 2 * 8192 + 1500);  // ... plus the records.
  EXPECT_EQ(c->room_bytes, 128.0 * (1 << 20));       // 512 MiB: half write, half of it free.
  EXPECT_EQ(c->data_bytes_per_txn, 65536);           // One UFS block.
  const double txns = c->wal_trigger_bytes / c->wal_bytes_per_txn;
  const double expected = 1 - c->room_bytes / (txns * c->data_bytes_per_txn);
  EXPECT_NEAR(c->UnabsorbedShare(0.6), expected, 1e-12);
  // About 2900 transactions of 64 KiB per cycle (190 MB): a third beyond the room.
  EXPECT_GT(expected, 0.25);
  EXPECT_LT(expected, 0.45);
  // A 9 s cycle: the rate does not matter (WAL-triggered, shorter than the OS expiry).
  EXPECT_NEAR(c->UnabsorbedShare(1.2), expected, 1e-12);
}

TEST(CheckpointCycle, WithoutWriteBackTheWholeBurstWaitsAndLongCyclesSpreadIt) {
  auto hba = MakeCheckpointCycle(M5110e({"controller.write_policy=write-through"}), 1, 17000);
  ASSERT_TRUE(hba.ok());
  EXPECT_EQ(hba->room_bytes, 0);
  EXPECT_NEAR(hba->UnabsorbedShare(0.3), 1, 1e-12);
  // PostgreSQL 15 with a large max_wal_size: a 300 s timed cycle spread over 0.9 of it;
  // only the last 30 s of writes are still dirty in the OS at the fsync.
  auto modern = MakeCheckpointCycle(M5110e({"postgres.version=15", "postgres.max_wal_size=64GiB",
                                            "controller.write_policy=write-through"}),
                                    1, 17000);
  ASSERT_TRUE(modern.ok());
  EXPECT_EQ(modern->completion_target, 0.9);
  EXPECT_NEAR(modern->UnabsorbedShare(0.3), 30.0 / (0.9 * 300), 1e-9);
}

// O_DIRECT data writes: the OS holds no page for the closing fsync to write, so no
// share of the cycle's writes comes in a burst, by the same formula.
TEST(CheckpointCycle, DirectDataWritesLeaveTheFsyncNoBurst) {
  const std::vector<std::string> hba = {"controller.write_policy=write-through"};
  auto buffered = MakeCheckpointCycle(M5110e(hba), 1, 17000);
  std::vector<std::string> direct_sets = hba;
  direct_sets.push_back("io.data_writes=direct");
  auto direct = MakeCheckpointCycle(M5110e(direct_sets), 1, 17000);
  ASSERT_TRUE(buffered.ok() && direct.ok());
  EXPECT_EQ(buffered->os_expire_ms, 30000);
  EXPECT_EQ(direct->os_expire_ms, 0);
  EXPECT_NEAR(buffered->UnabsorbedShare(0.3), 1, 1e-12);
  EXPECT_EQ(direct->UnabsorbedShare(0.3), 0);
}

TEST(StorageModel, CheckpointBurstStallsOneClientUnlessTheCacheHoldsIt) {
  // Scale 200, one client: everything cached; twelve disks take the data writes (two
  // per transaction, the updates not HOT) in the background, so the client alone is
  // CPU + commit bound; each 9.1 checkpoint's fsync burst stalls its commits (END)
  // until the part beyond the controller cache's room is destaged. A 4 GiB cache
  // holds the whole burst. (The burst's length follows the destage cost: about 0.8 s
  // per checkpoint here, END 0.46 against 0.27 ms per transaction.)
  const std::vector<std::string> base = {"workload.scale=200", "workload.clients=1",
                                         "array.stripe=1MiB", "array.disks=12"};
  auto small = Predict(M5110e(base));
  std::vector<std::string> big_sets = base;
  big_sets.push_back("controller.cache_size=4GiB");
  auto big = Predict(M5110e(big_sets));
  ASSERT_TRUE(small.ok() && big.ok());
  EXPECT_LT(small->tps, 0.85 * big->tps);
  EXPECT_GT(small->statement_latency_ms.at("END"), 1.5 * big->statement_latency_ms.at("END"));
  EXPECT_NEAR(1000.0 / small->tps, small->transaction_latency_ms,
              1e-6 * small->transaction_latency_ms);
}

TEST(StorageModel, OneSsdWriteCostsItsLatencyNotLatencyOverChannels) {
  // HBA + one SSD (JBOD), aligned blocks, one client at scale 200: the commit waits for
  // its WAL block write, a 1 ms write on one channel whatever the channel count;
  // channels only help concurrent I/Os (ten clients).
  const std::vector<std::string> base = {
      "controller.kind=hba",     "array.level=jbod",
      "array.disks=1",           "disks.type=ssd",
      "disks.write_latency=1ms", "disks.read_latency=0.1ms",
      "disks.capacity=400GiB",   "filesystem.partition_offset=1MiB",
      "workload.scale=200"};
  auto with = [&](const char* channels, const char* clients) {
    std::vector<std::string> sets = base;
    sets.push_back(std::string("disks.channels=") + channels);
    sets.push_back(std::string("workload.clients=") + clients);
    auto p = Predict(M5110e(sets));
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? *p : Prediction{};
  };
  const Prediction one = with("8", "1");
  EXPECT_GE(one.statement_latency_ms.at("END"), 1.0);  // Not 1 ms / 8 channels.
  const double cpu_ms = ModelParams{}.cpu_ms;          // scenarios/m5110e.toml does not set it.
  EXPECT_LT(one.tps, 1000 / (cpu_ms + 1.0));
  EXPECT_GT(with("8", "10").tps, 1.3 * with("1", "10").tps);
}

}  // namespace
}  // namespace pgstorsim
