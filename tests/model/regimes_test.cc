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

}  // namespace
}  // namespace pgstorsim
