#include "model/regimes.h"

#include <gtest/gtest.h>

#include "model/mva.h"

namespace pgstorsim {
namespace {

TEST(Regimes, ReadBoundWithoutDestageOrForkIsPlainMva) {
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

TEST(Regimes, ForkJoinWaitIsADelayOnTheReads) {
  Demands d;
  d.read_ms = {2.0, 2.0};
  d.write_ms = {3.0, 1.0};
  const RegimeSolution plain = SolveDestageBound(10, d, 0.5);
  d.fork = 1.5;
  const RegimeSolution forked = SolveDestageBound(10, d, 0.5);
  EXPECT_LT(forked.x_per_ms, plain.x_per_ms);
  // Cycle = delay + reads' residence (with the wait) + writes' residence = N / X.
  EXPECT_NEAR(0.5 + forked.update_ms + forked.end_ms, 10 / forked.x_per_ms,
              1e-6 * 10 / forked.x_per_ms);
  // The wait is (fork - 1) x the reads' queueing residence R: update = fork x R, and the
  // network with that wait as a plain delay has the same throughput.
  const double wait = forked.update_ms * (1 - 1 / d.fork);
  const MvaResult mva = SolveMva(10, {5.0, 3.0}, 0.5 + wait);
  EXPECT_NEAR(mva.throughput_per_ms, forked.x_per_ms, 1e-5 * forked.x_per_ms);
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
