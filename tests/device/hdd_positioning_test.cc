#include "device/hdd_positioning.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pgstorsim {
namespace {

HddDatasheet Sheet15k() {
  HddDatasheet d;
  d.rpm = 15000;
  d.sustained_bytes_per_s = 160.0 * (1 << 20);
  d.track_to_track_ns = 200000;
  d.avg_seek_ns = 3900000;
  d.capacity_bytes = 300LL * 1000 * 1000 * 1000;
  return d;
}

TEST(HddSeekCurve, PassesThroughTheAverageSeekAtAThirdOfTheStroke) {
  const HddSeekCurve c(Sheet15k());
  EXPECT_EQ(c.rotation_ns(), 4000000);
  EXPECT_EQ(c.track_bytes(), static_cast<int64_t>(160.0 * (1 << 20) * 60 / 15000));
  EXPECT_DOUBLE_EQ(c.SeekMs(static_cast<double>(c.track_bytes())), 0);
  EXPECT_NEAR(c.SeekMs(300e9 / 3), 3.9, 1e-9);
  EXPECT_GT(c.SeekMs(1e9), c.SeekMs(1e8));
}

TEST(SortedDestage, OneQueuedWriteOfASparseStreamIsAnExponentialDistanceAway) {
  const HddSeekCurve c(Sheet15k());
  // The nearest dirty block a third of the stroke apart on average: its distance is
  // exponential, so its seek is t2t + Gamma(3/2) (average - t2t) (the curve grows as
  // the root of the distance), plus half a turn.
  const double expected = 0.2 + std::tgamma(1.5) * (3.9 - 0.2) + 2.0;
  EXPECT_NEAR(SortedDestagePositionMs(c, 300e9 / 3, 1), expected, 0.02);
}

TEST(SortedDestage, WithoutSeekCostTheDriveWaitsATurnOverDepthPlusOne) {
  HddDatasheet flat = Sheet15k();
  flat.avg_seek_ns = flat.track_to_track_ns;  // Every seek beyond the track: 0.2 ms.
  const HddSeekCurve c(flat);
  // 80 MB apart, 1 block in 120 lies within the track: the earliest of `depth`
  // uniformly random angles.
  for (int depth : {1, 2, 4, 8, 16}) {
    EXPECT_NEAR(SortedDestagePositionMs(c, 80e6, depth), 0.2 + 4.0 / (depth + 1), 0.01)
        << "depth " << depth;
  }
}

TEST(SortedDestage, WithinTheTrackTheNextWriteIsItsShareOfATurnAway) {
  const HddSeekCurve c(Sheet15k());
  // A quarter of a track apart on average: the nearest block, exponentially distributed,
  // lies within the track, its share of a turn away, but for e^-4 of the time, when it
  // costs a track's seek (t2t + 11.7 ns x the root of ~0.84 MB) and at most a turn.
  const double quarter = c.track_bytes() / 4.0;
  const double within = 4.0 * (0.25 - std::exp(-4.0) * 1.25);
  const double beyond_at_most = std::exp(-4.0) * (0.2 + 0.0107 + 4.0);
  const double ms = SortedDestagePositionMs(c, quarter, 1);
  EXPECT_GT(ms, within);
  EXPECT_LT(ms, within + beyond_at_most);
  EXPECT_LE(SortedDestagePositionMs(c, quarter, 8), 1.0);
}

TEST(SortedDestage, DeeperQueuesAndDenserDataNeverCostMore) {
  const HddSeekCurve c(Sheet15k());
  for (double gap : {2e6, 8e6, 32e6, 1e9}) {
    double previous = 1e9;
    for (double depth = 1; depth <= 32; depth += 0.5) {
      const double ms = SortedDestagePositionMs(c, gap, depth);
      // More candidates never cost more (to the integration's 0.2 %).
      EXPECT_LE(ms, previous * 1.002) << "gap " << gap << " depth " << depth;
      previous = ms;
    }
  }
  EXPECT_LT(SortedDestagePositionMs(c, 4e6, 8), SortedDestagePositionMs(c, 40e6, 8));
}

TEST(SortedDestage, FractionalDepthInterpolatesItsNeighbours) {
  const HddSeekCurve c(Sheet15k());
  const double four = SortedDestagePositionMs(c, 8e6, 4);
  const double five = SortedDestagePositionMs(c, 8e6, 5);
  EXPECT_NEAR(SortedDestagePositionMs(c, 8e6, 4.25), four + 0.25 * (five - four), 1e-12);
  EXPECT_DOUBLE_EQ(SortedDestagePositionMs(c, 8e6, 0.5), SortedDestagePositionMs(c, 8e6, 1));
}

TEST(SortedDestage, ASlowerDiskCostsInProportionToItsTurn) {
  HddDatasheet slow = Sheet15k();
  slow.rpm = 7200;
  slow.track_to_track_ns = 0;
  slow.avg_seek_ns = 0;
  HddDatasheet fast = slow;
  fast.rpm = 15000;
  fast.sustained_bytes_per_s = slow.sustained_bytes_per_s * 15000 / 7200;  // Same track.
  const double ratio = SortedDestagePositionMs(HddSeekCurve(slow), 8e6, 8) /
                       SortedDestagePositionMs(HddSeekCurve(fast), 8e6, 8);
  EXPECT_NEAR(ratio, 15000.0 / 7200, 0.01);
}

TEST(NearestOf, WithoutSeekCostTheEarliestOfNWaitsATurnOverNPlusOne) {
  HddDatasheet flat = Sheet15k();
  flat.avg_seek_ns = flat.track_to_track_ns;  // Every seek beyond the track: 0.2 ms.
  const HddSeekCurve c(flat);
  // Far beyond the track, every command costs 0.2 ms plus a uniform part of a 4 ms turn.
  const std::vector<double> r = NearestOfPositionRatios(c, 100e9, 16);
  ASSERT_EQ(r.size(), 16u);
  for (int n = 1; n <= 16; ++n) {
    EXPECT_NEAR(r[n - 1], (0.2 + 4.0 / (n + 1)) / (0.2 + 2.0), 0.01) << "n " << n;
  }
}

TEST(NearestOf, MoreQueuedCommandsNeverCostMoreAndOneCostsItself) {
  const HddSeekCurve c(Sheet15k());
  for (double span : {1e6, 1e9, 40e9, 300e9}) {
    const std::vector<double> r = NearestOfPositionRatios(c, span, 32);
    EXPECT_DOUBLE_EQ(r[0], 1);
    for (size_t n = 1; n < r.size(); ++n) {
      EXPECT_LT(r[n], r[n - 1]) << "span " << span << " n " << n + 1;
      EXPECT_GT(r[n], 0);
    }
  }
  EXPECT_EQ(NearestOfPositionRatios(c, 1e9, 0).size(), 1u);
}

TEST(RewriteWait, ATurnRightAfterHalfATurnLongAfterAndTheModuloBetween) {
  const double turn = 60000.0 / 7200;
  EXPECT_DOUBLE_EQ(RewriteWaitMs(turn, 0), turn);
  EXPECT_NEAR(RewriteWaitMs(turn, 0.01), turn - 0.01, 1e-9);
  // Exponential time since with mean one turn: turn / (e - 1).
  EXPECT_NEAR(RewriteWaitMs(turn, turn), turn / (std::exp(1.0) - 1), 1e-9);
  EXPECT_NEAR(RewriteWaitMs(turn, 1000 * turn), turn / 2, 1e-3 * turn);
  // Both sides of the series' switch agree.
  EXPECT_NEAR(RewriteWaitMs(turn, 100 * turn * (1 - 1e-9)),
              RewriteWaitMs(turn, 100 * turn * (1 + 1e-9)), 1e-7);
  double last = turn;
  for (double since = 0.1; since < 50 * turn; since *= 1.5) {
    const double w = RewriteWaitMs(turn, since);
    EXPECT_LE(w, last + 1e-12) << since;
    EXPECT_GE(w, turn / 2) << since;
    last = w;
  }
}

}  // namespace
}  // namespace pgstorsim
