// The commit path without a write-back cache on HDDs (storage_point.cc,
// SolveWalOnCommitPath): a WAL flush that finds the head where the previous one left it
// waits for its sector to come round, and commits that arrive during a flush share the
// next one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/storage_model.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

// One 7200 rpm disk behind an HBA (no write cache anywhere), ext4, PostgreSQL 15, a
// database that fits in shared buffers: the WAL flushes are the disk's work.
Scenario LoneDisk(int clients, const std::string& duration = "300s") {
  return testing_util::M5110eScenario(
      {"controller.kind=hba", "array.level=jbod", "array.disks=1", "disks.rpm=7200rpm",
       "disks.avg_read_seek=8.5ms", "disks.avg_write_seek=9.5ms", "disks.capacity=1TB",
       "filesystem.type=ext4", "filesystem.block_size=4k", "filesystem.fragment_size=4k",
       "filesystem.partition_offset=1MiB", "filesystem.blocks_per_group=0",
       "filesystem.max_blocks_per_group=0", "postgres.version=15", "postgres.shared_buffers=1GiB",
       "workload.scale=100", "workload.clients=" + std::to_string(clients),
       "workload.duration=" + duration});
}

double Tps(const Scenario& s) {
  auto p = Predict(s);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? p->tps : 0;
}

TEST(CommitPath, ALoneClientCommitsAtMostOnceATurn) {
  // 7200 rpm: a turn is 8.33 ms, so 120 commits a second at most (the rate test_fsync
  // shows on such a disk); a random positioning (half a turn plus a short seek) would
  // allow about 180.
  const double turns_per_s = 7200.0 / 60;
  const double tps = Tps(LoneDisk(1));
  EXPECT_LE(tps, turns_per_s * 1.001);
  EXPECT_GE(tps, turns_per_s * 0.8);
}

TEST(CommitPath, MoreClientsShareFlushes) {
  // Group commit: the flush rate is bounded by the turn, the commits per flush grow
  // with the clients waiting at their commit (about N / 2 when all of them do: those
  // that arrive during a flush go in the next). Two clients alternate, one commit a
  // flush, as one does.
  const double one = Tps(LoneDisk(1));
  EXPECT_NEAR(Tps(LoneDisk(2)), one, 0.02 * one);
  const double four = Tps(LoneDisk(4));
  const double eight = Tps(LoneDisk(8));
  const double sixteen = Tps(LoneDisk(16));
  EXPECT_GT(four, 1.5 * one);
  EXPECT_GT(eight, 1.5 * four);
  EXPECT_GT(sixteen, eight);
  EXPECT_GT(sixteen, 3 * one);  // Several commits a turn.
}

TEST(CommitPath, DataWritesBetweenFlushesCostThemARandomPositioning) {
  // Over 30 minutes the checkpoints' data writes reach the disk between the flushes, so
  // the head is elsewhere when a flush comes and it is cheaper than a turn, but the disk
  // also does the data writes: a lone client stays below a turn's rate.
  const double tps = Tps(LoneDisk(1, "1800s"));
  EXPECT_LT(tps, 120.0);
  EXPECT_GT(tps, 60.0);
}

TEST(CommitPath, AFlushWaitsForItsLongestMemberPathNotEveryPiece) {
  // The M5110e's RAID 10 without its battery: at 32 KiB units a WAL block (64 KiB at
  // the 63-sector offset) is three pieces on both copies of both pairs, two of them
  // following each other on the same members; the flush waits for the slowest of four
  // positionings, not for one copy of every piece in series (three). Aligned 1 MiB
  // units: one piece, the slower of two copies.
  auto flush_ms = [](const std::vector<std::string>& sets) {
    std::vector<std::string> all = {"controller.write_policy=write-through", "workload.clients=1",
                                    "workload.duration=300s"};
    all.insert(all.end(), sets.begin(), sets.end());
    auto p = Predict(testing_util::M5110eScenario(all));
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? p->wal_flush_ms : 0;
  };
  const double split = flush_ms({"array.stripe=32k"});
  const double whole = flush_ms({"array.stripe=1MiB", "filesystem.partition_offset=1MiB"});
  EXPECT_GT(split, 1.2 * whole);
  EXPECT_LT(split, 2.0 * whole);
}

}  // namespace
}  // namespace pgstorsim
