#include "model/regimes.h"

#include <gtest/gtest.h>

#include "model/mva.h"

namespace pgstorsim {
namespace {

TEST(Regimes, ReadBoundWithoutDestageOrSplitReadsIsPlainMva) {
  Demands d;
  d.read_ms = {4.0, 2.0, 1.0};
  d.write_ms = {0, 0, 0};
  const RegimeSolution r = SolveReadBound(10, d, 1.0);
  const MvaResult mva = SolveMva(10, d.read_ms, 1.0);
  EXPECT_NEAR(r.x_per_ms, mva.throughput_per_ms, 1e-9);
  EXPECT_NEAR(r.update_ms, mva.cycle_ms - 1.0, 1e-6);
  EXPECT_NEAR(r.rho, 0, 1e-12);
}

TEST(Regimes, ReadBoundThroughputIsTheFixedPointOfDestageSlowdown) {
  Demands d;
  d.read_ms = {3.0, 3.0};
  d.write_ms = {2.0, 2.0};
  const RegimeSolution r = SolveReadBound(10, d, 1.0);
  std::vector<double> inflated;
  for (size_t m = 0; m < 2; ++m)
    inflated.push_back(d.read_ms[m] / (1 - r.x_per_ms * d.write_ms[m]));
  EXPECT_NEAR(SolveMva(10, inflated, 1.0).throughput_per_ms, r.x_per_ms, 1e-6 * r.x_per_ms);
  // rho = destage utilisation / capacity left by the reads.
  const double x = r.x_per_ms;
  EXPECT_NEAR(r.rho, x * 2.0 / (1 - x * 3.0), 1e-9);
}

TEST(Regimes, ASplitReadWaitsForItsWaitedShareAndLoadsTheOthersWithTheRest) {
  // A read split over two members: 2 ms on each, pieces in parallel.
  Demands d;
  d.read_ms = {2.0, 2.0};
  d.write_ms = {0.0, 0.0};
  const double whole = SolveReadBound(1, d, 0.5).x_per_ms;
  d.read_waited = SplitReadWaitedShare(2, 0.5);
  EXPECT_NEAR(d.read_waited, 0.625, 1e-12);  // F(2) = 1.25 pieces of 2.
  // One client: nothing queues, the read lasts 1.25 x a piece (2.5 ms, not 4).
  const RegimeSolution one = SolveReadBound(1, d, 0.5);
  EXPECT_NEAR(one.update_ms, 2.5, 1e-9);
  EXPECT_NEAR(one.x_per_ms, 1 / 3.0, 1e-9);
  EXPECT_NEAR(whole, 1 / 4.5, 1e-9);
  // The pieces' busy time is all there: many clients are bound by a member's 2 ms.
  const RegimeSolution many = SolveReadBound(64, d, 0.5);
  EXPECT_LE(many.x_per_ms, 0.5 * (1 + 1e-6));
  EXPECT_GT(many.x_per_ms, 0.45);
  // The reads present at the members count the parallel pieces too.
  EXPECT_NEAR(many.read_queue_ms, many.update_ms / d.read_waited, 1e-9);
  // Destage-bound (all on the path): the cycle is the residences, and the throughput
  // is bounded by the members' busy time, reads' parallel pieces included.
  d.write_ms = {1.0, 1.0};
  const RegimeSolution bound = SolveDestageBound(32, d, 0.5);
  EXPECT_NEAR(0.5 + bound.update_ms + bound.end_ms, 32 / bound.x_per_ms,
              1e-6 * 32 / bound.x_per_ms);
  EXPECT_LE(bound.x_per_ms, 1 / 3.0 * (1 + 1e-3));
  EXPECT_GT(bound.x_per_ms, SolveDestageBound(1, d, 0.5).x_per_ms);
}

TEST(Regimes, FullCacheRunsAtTheBottleneckCapacityNotTheSumOfTheDisks) {
  // No reads (everything cached), one client: the destage stream keeps all four disks
  // busy in parallel, so the throughput is 1 / (busiest disk's demand), not
  // 1 / (delay + sum of the demands) as a closed queue of the client's own writes.
  Demands d;
  d.read_ms = {0, 0, 0, 0};
  d.write_ms = {1.0, 0.5, 1.0, 0.5};
  const RegimeSolution free = SolveReadBound(1, d, 0.5);
  EXPECT_NEAR(free.x_per_ms, 2.0, 1e-9);  // Commits absorbed: only the delay.
  const RegimeSolution full = SolveCacheFull(1, d, 0.5, free);
  EXPECT_NEAR(full.x_per_ms, 1.0, 1e-12);
  EXPECT_GT(full.x_per_ms, SolveDestageBound(1, d, 0.5).x_per_ms * 3);
  // The cycle is the delay plus the commit's wait for room.
  EXPECT_NEAR(0.5 + full.update_ms + full.end_ms, 1 / full.x_per_ms, 1e-12);
  EXPECT_NEAR(full.update_ms, 0, 1e-12);
  // When the clients cannot fill the disks, the free throughput stands.
  d.write_ms = {0.1, 0.1, 0.1, 0.1};
  const RegimeSolution light = SolveCacheFull(1, d, 0.5, SolveReadBound(1, d, 0.5));
  EXPECT_NEAR(light.x_per_ms, 2.0, 1e-9);
  // update_residence_share splits the disk residence.
  d.write_ms = {1.0, 0.5, 1.0, 0.5};
  d.update_residence_share = 0.25;
  const RegimeSolution split = SolveCacheFull(10, d, 0.5, SolveReadBound(10, d, 0.5));
  EXPECT_NEAR(split.update_ms / split.end_ms, 1.0 / 3, 1e-9);
}

TEST(Regimes, WalWriteWithoutWriteBackCacheIsOnTheCommitPath) {
  // The WAL write is a closed demand (END); data writes only slow it down.
  Demands d;
  d.read_ms = {1.0, 1.0};
  d.write_ms = {0, 0};
  d.wal_ms = {2.0, 0};
  const RegimeSolution r = SolveReadBound(1, d, 0.5);
  EXPECT_NEAR(r.x_per_ms, 1 / 4.5, 1e-9);
  EXPECT_NEAR(r.update_ms, 2.0, 1e-9);
  EXPECT_NEAR(r.end_ms, 2.0, 1e-9);
  d.write_ms = {0.5, 0.5};
  EXPECT_GT(SolveReadBound(1, d, 0.5).end_ms, 2.0);
}

}  // namespace
}  // namespace pgstorsim
