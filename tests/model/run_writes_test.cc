// The written share of a run's data-page writes and its fixed point (run_writes.h).
#include "model/run_writes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model_test_util.h"

namespace pgstorsim::storage_network {
namespace {

// One data-page write and one WAL page per transaction.
pgmodel::HostDemands OneWritePerTransaction() {
  pgmodel::HostDemands d;
  d.page_writes = 1;
  d.wal_lsn_bytes = 8192;
  return d;
}

// A 1 GiB page cache, 16 MiB of shared buffers, a checkpoint every 128 MB of WAL.
Scenario SmallHost() {
  return MustScenario({"host.os_cache=1GiB", "postgres.shared_buffers=16MiB",
                       "postgres.max_wal_size=128MB", "postgres.checkpoint_timeout=300s"});
}

TEST(RunWrites, ShareGrowsWithTheRunAndReachesAllOnceACheckpointCloses) {
  const Scenario s = SmallHost();
  const double tps = 200;
  double previous = -1;
  for (double duration_s : {10.0, 60.0, 300.0, 3000.0}) {
    const RunWrites run(s, OneWritePerTransaction(), duration_s);
    const double share = run.WrittenShare(tps, 200);
    EXPECT_GE(share, 0);
    EXPECT_LE(share, 1);
    EXPECT_GE(share, previous) << duration_s;
    previous = share;
  }
  // 10 s x 200 tps = 2000 pages (16 MiB): all held under the 1 GiB page cache's
  // background threshold (102 MiB). 3000 s: the first checkpoint (128 MB of WAL /
  // 1.9 = 8200 transactions, 41 s) closes its fsync at 78 s, within the first tenth.
  EXPECT_LT(RunWrites(s, OneWritePerTransaction(), 10).WrittenShare(tps, 200), 0.05);
  EXPECT_GT(previous, 0.85);
}

TEST(RunWrites, NoRunLengthMeansEverythingWritten) {
  const Scenario s = SmallHost();  // RunWrites keeps a reference to it.
  const RunWrites run(s, OneWritePerTransaction(), 0);
  EXPECT_EQ(run.WrittenShare(100, 10), 1);
}

TEST(RunWrites, InBackgroundOnlyWhenTheDatabaseFitsAndNoCommitQueuesBehind) {
  Scenario s = SmallHost();
  s.postgres.wal_on_data_volume = false;
  const RunWrites run(s, OneWritePerTransaction(), 60);
  EXPECT_TRUE(run.InBackground(16.0 * 1024 * 1024));
  EXPECT_FALSE(run.InBackground(64.0 * 1024 * 1024 * 1024));
  s.postgres.wal_on_data_volume = true;
  EXPECT_FALSE(RunWrites(s, OneWritePerTransaction(), 60).InBackground(16.0 * 1024 * 1024));
}

TEST(RunWrites, OsMergesASecondEvictionOnlyWithinItsExpiry) {
  const Scenario s = SmallHost();  // RunWrites keeps a reference to it.
  const RunWrites run(s, OneWritePerTransaction(), 300);
  // 30 s of 200 page writes a second: 6000 pages (47 MiB), under the 102 MiB threshold.
  const double held = run.OsHeldPages(200);
  EXPECT_NEAR(held, 6000, 1);
  // 2048 buffers turned over by 200 misses a second: a page read back stays 10.24 s
  // before its next eviction, so the expiry merges that share of it.
  EXPECT_NEAR(run.OsMergedPages(200, 1), held * (1 - 10.24 / 30), 1);
  EXPECT_NEAR(run.OsMergedPages(200, 1000), held, held * 0.01);
  // 20 misses a second: 102 s in shared buffers, every eviction written apart.
  EXPECT_EQ(run.OsMergedPages(200, 0.1), 0);
  EXPECT_EQ(run.OsMergedPages(200, 0), 0);
}

TEST(RunWrites, DirectWritesPassTheOsByAndBackendsWaitForTheirOwn) {
  Scenario buffered = SmallHost();
  Scenario direct = SmallHost();
  direct.io.data_writes = DataWrites::kDirect;
  pgmodel::HostDemands host = OneWritePerTransaction();
  host.backend_writes = 0.25;  // Dirty victims and new pages; the rest the checkpointer's.
  const RunWrites os(buffered, host, 300);
  const RunWrites own(direct, host, 300);
  EXPECT_GT(os.OsHeldPages(200), 0);
  EXPECT_EQ(own.OsHeldPages(200), 0);
  EXPECT_EQ(own.OsMergedPages(200, 1000), 0);
  // Nothing held in the OS: more of a 300 s run's writes reach the disks.
  EXPECT_GT(own.WrittenShare(200, 1), os.WrittenShare(200, 1));
  EXPECT_EQ(os.BackendWaitedWrites(1), 0);
  EXPECT_EQ(own.BackendWaitedWrites(1), 0.25);
  EXPECT_EQ(own.BackendWaitedWrites(0.1), 0.1);  // Never more than are written.
  // A database that fits in shared buffers but not with the OS's dirty limit added.
  buffered.postgres.wal_on_data_volume = direct.postgres.wal_on_data_volume = false;
  const double bytes = 64.0 * 1024 * 1024;
  EXPECT_TRUE(RunWrites(buffered, host, 60).InBackground(bytes));
  EXPECT_FALSE(RunWrites(direct, host, 60).InBackground(bytes));
}

TEST(WrittenShareRoot, FindsTheRootAndEndsOnIt) {
  std::vector<double> evaluated;
  auto excess = [&](double w) -> StatusOr<double> {
    evaluated.push_back(w);
    return 0.3 / (0.5 + w) - w;  // Falls as w rises; root (sqrt(1.45) - 0.5) / 2.
  };
  auto root = WrittenShareRoot(excess);
  ASSERT_TRUE(root.ok());
  EXPECT_NEAR(*root, (std::sqrt(1.45) - 0.5) / 2, 1e-6);
  EXPECT_EQ(*root, evaluated.back());  // The caller's last state is the answer's.
  EXPECT_LE(evaluated.size(), 12u);
}

// The answer follows the caller's parameters continuously: a root moved by 1e-4 moves
// the answer by 1e-4, wherever it lies (a fixed number of bisection steps moved it in
// steps of 1/128).
TEST(WrittenShareRoot, MovesContinuouslyWithTheRoot) {
  for (double a = 0.05; a < 0.95; a += 0.0371) {
    auto at = [](double target) {
      return WrittenShareRoot([target](double w) -> StatusOr<double> {
        return (target - w) * (1 + w);  // Falls as w rises; root `target`.
      });
    };
    auto one = at(a), moved = at(a + 1e-4);
    ASSERT_TRUE(one.ok() && moved.ok());
    EXPECT_NEAR(*moved - *one, 1e-4, 1e-6) << a;
  }
}

TEST(WrittenShareRoot, EndsAtTheBoundsAndPassesErrorsOn) {
  auto all = WrittenShareRoot([](double w) -> StatusOr<double> { return 2 - w; });
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, 1);
  auto none = WrittenShareRoot([](double w) -> StatusOr<double> { return -w - 0.1; });
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0);
  auto failed = WrittenShareRoot([](double w) -> StatusOr<double> {
    if (w < 1) return Status::Error("solve failed");
    return -1.0;
  });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "solve failed");
}

}  // namespace
}  // namespace pgstorsim::storage_network
