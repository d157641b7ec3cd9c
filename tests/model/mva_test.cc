#include "model/mva.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(Mva, OneStationOneClientIsDemandPlusDelay) {
  MvaResult r = SolveMva(1, {4.0}, 6.0);
  EXPECT_NEAR(r.throughput_per_ms, 1.0 / 10.0, 1e-12);
  EXPECT_NEAR(r.residence_ms[0], 4.0, 1e-12);
  EXPECT_NEAR(r.cycle_ms, 10.0, 1e-12);
}

TEST(Mva, OneStationRespectsAsymptoticBounds) {
  // X(N) <= min(N / (D + Z), 1 / D) and X(N) >= N / (N D + Z).
  const double d = 2.0, z = 10.0;
  for (int n = 1; n <= 50; ++n) {
    MvaResult r = SolveMva(n, {d}, z);
    EXPECT_LE(r.throughput_per_ms, std::min(n / (d + z), 1 / d) + 1e-12) << n;
    EXPECT_GE(r.throughput_per_ms, n / (n * d + z) - 1e-12) << n;
  }
  EXPECT_NEAR(SolveMva(200, {d}, z).throughput_per_ms, 1 / d, 1e-6);
}

TEST(Mva, OneStationNoDelayMatchesClosedForm) {
  // Without think time every customer queues at the one station: X = 1/D, R = N D.
  MvaResult r = SolveMva(7, {3.0}, 0.0);
  EXPECT_NEAR(r.throughput_per_ms, 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(r.residence_ms[0], 21.0, 1e-9);
}

TEST(Mva, TwoStationsTwoClientsHandComputed) {
  // D = (1, 2), Z = 0. n=1: R = (1, 2), X = 1/3, Q = (1/3, 2/3).
  // n=2: R = (4/3, 10/3), X = 2 / (14/3) = 3/7, Q = (4/7, 10/7).
  MvaResult r = SolveMva(2, {1.0, 2.0}, 0.0);
  EXPECT_NEAR(r.throughput_per_ms, 3.0 / 7.0, 1e-12);
  EXPECT_NEAR(r.residence_ms[0], 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(r.residence_ms[1], 10.0 / 3.0, 1e-12);
  EXPECT_NEAR(r.queue_length[0] + r.queue_length[1], 2.0, 1e-12);
  EXPECT_NEAR(r.utilization[1], 6.0 / 7.0, 1e-12);
}

TEST(Mva, BalancedStationsKnownSolution) {
  // K equal stations of demand D, Z = 0: X(N) = N / (D (N + K - 1)).
  MvaResult r = SolveMva(10, {2.0, 2.0, 2.0, 2.0}, 0.0);
  EXPECT_NEAR(r.throughput_per_ms, 10.0 / (2.0 * 13.0), 1e-12);
}

TEST(PacedMva, OneClientIsNotHeldBelowTheRate) {
  // A cap of 1 per 4 ms and 6 ms between requests: never delayed (a queue: 1 / 10 ms).
  MvaResult r = SolvePacedMva(1, {4.0}, 6.0);
  EXPECT_NEAR(r.throughput_per_ms, 1.0 / 6.0, 1e-12);
  EXPECT_NEAR(r.residence_ms[0], 0, 1e-12);
  // Faster than the cap: held to it.
  EXPECT_NEAR(SolvePacedMva(1, {4.0}, 1.0).throughput_per_ms, 1.0 / 4.0, 1e-12);
}

TEST(PacedMva, TwoCapsBoundByTheSlowerNotTheirSum) {
  for (int n : {1, 2, 4, 16, 64}) {
    MvaResult r = SolvePacedMva(n, {4.0, 6.0}, 1.0);
    EXPECT_LE(r.throughput_per_ms, 1.0 / 6.0 + 1e-12) << n;
    EXPECT_GT(r.throughput_per_ms, SolveMva(n, {4.0, 6.0}, 1.0).throughput_per_ms) << n;
    EXPECT_NEAR(r.cycle_ms, n / r.throughput_per_ms, 1e-9);
  }
  // Many clients below the cap wait for those ahead: the residence grows with n.
  EXPECT_GT(SolvePacedMva(8, {4.0}, 20.0).residence_ms[0],
            SolvePacedMva(4, {4.0}, 20.0).residence_ms[0]);
}

TEST(ForkJoin, HarmonicNumbers) {
  EXPECT_DOUBLE_EQ(ForkJoinFactor(1), 1.0);
  EXPECT_DOUBLE_EQ(ForkJoinFactor(2), 1.5);
  EXPECT_NEAR(ForkJoinFactor(3), 1.0 + 0.5 + 1.0 / 3, 1e-12);
  EXPECT_NEAR(ForkJoinFactor(1.5), 1.25, 1e-12);
  EXPECT_DOUBLE_EQ(ForkJoinFactor(0.5), 1.0);
}

TEST(Bottleneck, ThroughputHeldWhereTheBusiestServerIsBusyAllTheTime) {
  // 4 ms per transaction at the busiest server: at most 0.25 transactions per ms.
  EXPECT_DOUBLE_EQ(HeldAtBottleneck(0.4, 4.0), 0.25);
  EXPECT_DOUBLE_EQ(HeldAtBottleneck(0.1, 4.0), 0.1);  // Below the bound: unchanged.
  EXPECT_DOUBLE_EQ(HeldAtBottleneck(0.4, 0.0), 0.4);  // No demand: no bound.
}

}  // namespace
}  // namespace pgstorsim
