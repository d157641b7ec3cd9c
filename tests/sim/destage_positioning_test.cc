// The model's sorted-destage positioning (device/hdd_positioning.h) against the
// simulator's drive: a Poisson stream of dirty blocks ahead of the head, the drive
// taking whichever of the first `depth` it reaches first (HddMechanics::PositionNs),
// averaged over seeded draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "common/random.h"
#include "device/hdd_positioning.h"
#include "sim/hdd_mechanics.h"

namespace pgstorsim::sim {
namespace {

SimDiskConfig TenK() {
  SimDiskConfig c;
  c.rpm = 10000;
  c.avg_seek_ns = 3'400'000;
  c.avg_write_seek_ns = 3'900'000;
  c.track_to_track_ns = 200'000;
  c.sustained_bytes_per_s = 160.0 * (1 << 20);
  c.capacity_bytes = 300LL * 1000 * 1000 * 1000;
  c.command_overhead_ns = 0;  // The model counts the overhead apart.
  return c;
}

// Mean ms to the earliest of the first `depth` blocks of a stream `gap` bytes apart
// on average, from a head that has just finished at `head` (so the platter's angle
// under it is that block's).
double SimulatedEarliestMs(const HddMechanics& m, double gap, int depth, Random* rng) {
  constexpr int kDraws = 20000;
  const int64_t head = 40'000'000'000;
  const int64_t now = m.AngleNs(head);
  double sum_ns = 0;
  for (int n = 0; n < kDraws; ++n) {
    double offset = static_cast<double>(head);
    int64_t best = INT64_MAX;
    for (int i = 0; i < depth; ++i) {
      offset += rng->Exponential(gap);
      best = std::min(best, m.PositionNs(head, static_cast<int64_t>(offset), IoOp::kWrite, now));
    }
    sum_ns += static_cast<double>(best);
  }
  return sum_ns / kDraws / 1e6;
}

TEST(DestagePositioning, TheModelsEarliestIsTheDrivesOnARandomStream) {
  const SimDiskConfig c = TenK();
  const HddMechanics m(c);
  const HddSeekCurve& curve = m.Curve(IoOp::kWrite);
  const double track = static_cast<double>(m.track_bytes());
  Random rng(17);
  for (double tracks : {0.25, 0.7, 1.0, 1.4, 4.0, 20.0, 1000.0}) {
    for (int depth : {1, 4, 8, 16}) {
      const double sim_ms = SimulatedEarliestMs(m, tracks * track, depth, &rng);
      const double model_ms = SortedDestagePositionMs(curve, tracks * track, depth);
      // 20000 draws: the sample mean's error is under 1 %.
      EXPECT_NEAR(model_ms / sim_ms, 1.0, 0.03)
          << "gap " << tracks << " tracks, depth " << depth << ": model " << model_ms
          << " ms, drive " << sim_ms << " ms";
    }
  }
}

}  // namespace
}  // namespace pgstorsim::sim
