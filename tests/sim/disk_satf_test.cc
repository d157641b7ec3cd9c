// HddMechanics: positioning arithmetic and the SATF choice, checked against their
// plain definitions (every candidate's positioning evaluated, the first minimum wins).
#include <gtest/gtest.h>

#include <vector>

#include "common/random.h"
#include "sim/hdd_mechanics.h"

namespace pgstorsim::sim {
namespace {

using Candidate = HddMechanics::Candidate;

// The definition SATF must agree with.
size_t ReferencePick(const HddMechanics& m, const std::vector<Candidate>& cs, int64_t head,
                     int64_t now) {
  size_t best = 0;
  int64_t best_ns = INT64_MAX;
  for (size_t i = 0; i < cs.size(); ++i) {
    const Candidate& c = cs[i];
    const int64_t ns = c.fixed_position_ns >= 0 ? c.fixed_position_ns
                                                : m.PositionNs(head, c.offset_bytes, c.op, now);
    if (ns < best_ns) {
      best_ns = ns;
      best = i;
    }
  }
  return best;
}

// PickSatf, checking the positioning it reports for its choice.
size_t Pick(const HddMechanics& m, const std::vector<Candidate>& cs, int64_t head, int64_t now) {
  int64_t position_ns = 0;
  const size_t i = m.PickSatf(
      cs.size(), [&](size_t i) { return cs[i]; }, head, now, &position_ns);
  if (cs.empty()) {
    EXPECT_EQ(position_ns, INT64_MAX);
  } else {
    const Candidate& c = cs[i];
    EXPECT_EQ(position_ns, c.fixed_position_ns >= 0
                               ? c.fixed_position_ns
                               : m.PositionNs(head, c.offset_bytes, c.op, now));
  }
  return i;
}

Candidate At(const HddMechanics& m, int64_t offset, IoOp op, int64_t fixed_ns = -1) {
  return {offset, m.AngleNs(offset), fixed_ns, op};
}

SimDiskConfig RandomConfig(Random* rng) {
  SimDiskConfig c;
  c.rpm = rng->UniformInt(0, 1) ? 15000 : rng->UniformInt(5400, 15000);
  c.capacity_bytes = rng->UniformInt(1, 4000) * (int64_t{1} << 28);
  c.track_to_track_ns = rng->UniformInt(0, 1'000'000);
  c.avg_seek_ns = c.track_to_track_ns + rng->UniformInt(0, 9'000'000);
  c.avg_write_seek_ns = c.avg_seek_ns + rng->UniformInt(0, 1'000'000);
  c.seek_scale = 0.2 + rng->UniformDouble() * 2;
  c.sustained_bytes_per_s = rng->UniformInt(20, 300) * 1e6;
  c.command_overhead_ns = rng->UniformInt(0, 200'000);
  return c;
}

TEST(HddMechanicsTest, PositionIsFirstPassOfTheSectorAfterTheSeek) {
  Random rng(5);
  for (int trial = 0; trial < 20000; ++trial) {
    const SimDiskConfig c = RandomConfig(&rng);
    const HddMechanics m(c);
    const int64_t head = rng.UniformInt(0, c.capacity_bytes - 1);
    const int64_t offset = rng.UniformInt(0, c.capacity_bytes / 512 - 1) * 512;
    const IoOp op = rng.UniformInt(0, 1) ? IoOp::kWrite : IoOp::kRead;
    const int64_t now = rng.UniformInt(0, int64_t{1} << 40);
    const int64_t seek = m.SeekNs(std::llabs(offset - head), op);
    const int64_t t = m.PositionNs(head, offset, op, now);
    ASSERT_GE(t, seek);
    ASSERT_LT(t - seek, m.rotation_ns());
    ASSERT_EQ((now + c.command_overhead_ns + t) % m.rotation_ns(), m.AngleNs(offset));
  }
}

TEST(HddMechanicsTest, SeekIsZeroWithinATrackAndGrowsWithDistance) {
  SimDiskConfig c;
  const HddMechanics m(c);
  EXPECT_EQ(m.SeekNs(0, IoOp::kRead), 0);
  EXPECT_EQ(m.SeekNs(m.track_bytes(), IoOp::kRead), 0);
  EXPECT_GE(m.SeekNs(m.track_bytes() + 1, IoOp::kRead), c.track_to_track_ns);
  // The curve passes through the average seek at a third of the stroke.
  EXPECT_NEAR(m.SeekNs(c.capacity_bytes / 3, IoOp::kRead), c.avg_seek_ns, 1000);
  EXPECT_NEAR(m.SeekNs(c.capacity_bytes / 3, IoOp::kWrite), c.avg_write_seek_ns, 1000);
  EXPECT_LT(m.SeekNs(1 << 30, IoOp::kRead), m.SeekNs(int64_t{1} << 34, IoOp::kRead));
}

TEST(HddMechanicsTest, SatfMatchesEvaluatingEveryCandidate) {
  Random rng(7);
  int fixed_wins = 0, late_wins = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const SimDiskConfig c = RandomConfig(&rng);
    const HddMechanics m(c);
    // Candidates spread over the disk, or clustered near the head (same track).
    const int64_t span = rng.UniformInt(0, 1) ? c.capacity_bytes : 4 * m.track_bytes();
    const int64_t head = rng.UniformInt(0, c.capacity_bytes - span);
    std::vector<Candidate> cs;
    const int n = static_cast<int>(rng.UniformInt(0, 40));
    for (int i = 0; i < n; ++i) {
      const int64_t offset = head + rng.UniformInt(0, span / 512 - 1) * 512 - span / 2;
      const IoOp op = rng.UniformInt(0, 1) ? IoOp::kWrite : IoOp::kRead;
      const int64_t fixed = rng.UniformInt(0, 9) == 0 ? rng.UniformInt(0, 8'000'000) : -1;
      cs.push_back(At(m, std::max<int64_t>(0, offset), op, fixed));
      if (rng.UniformInt(0, 7) == 0) cs.push_back(cs[rng.UniformInt(0, i)]);  // A tie.
    }
    const int64_t now = rng.UniformInt(0, int64_t{1} << 40);
    const size_t want = ReferencePick(m, cs, head, now);
    ASSERT_EQ(Pick(m, cs, head, now), want) << "trial " << trial;
    if (cs.empty()) continue;
    const Candidate& w = cs[want];
    if (w.fixed_position_ns >= 0) ++fixed_wins;
    const int64_t seek = m.SeekNs(std::llabs(w.offset_bytes - head), w.op);
    if (w.fixed_position_ns < 0 && m.PositionNs(head, w.offset_bytes, w.op, now) > seek &&
        seek > m.rotation_ns() / 2)
      ++late_wins;
  }
  // The trials cover fixed costs winning and winners that wait after a long seek.
  EXPECT_GT(fixed_wins, 100);
  EXPECT_GT(late_wins, 10);
}

// Sectors placed so that the seek ends exactly at, one ns before, or one ns after the
// sector passes: SATF must decide these as PositionNs does.
TEST(HddMechanicsTest, SatfDecidesSeeksThatEndAtTheSectorExactly) {
  Random rng(9);
  for (int trial = 0; trial < 20000; ++trial) {
    const SimDiskConfig c = RandomConfig(&rng);
    const HddMechanics m(c);
    const int64_t rot = m.rotation_ns();
    const int64_t head = 0;
    const int64_t offset = rng.UniformInt(m.track_bytes() + 1, c.capacity_bytes / 4);
    const IoOp op = rng.UniformInt(0, 1) ? IoOp::kWrite : IoOp::kRead;
    const int64_t seek = m.SeekNs(offset, op);
    // A rival whose positioning is exactly x = seek + delta, from a fixed cost.
    for (int64_t delta : {-1, 0, 1}) {
      const int64_t x = seek + delta;
      if (x < 0 || x >= rot) continue;
      // now + overhead + x == angle (mod rot): the sector passes x after the command.
      const int64_t now = rot * 1000 + ((m.AngleNs(offset) - c.command_overhead_ns - x) % rot);
      const std::vector<Candidate> cs = {At(m, offset, op), At(m, 0, IoOp::kRead, x),
                                         At(m, offset, op)};
      const size_t want = ReferencePick(m, cs, head, now);
      ASSERT_EQ(Pick(m, cs, head, now), want) << "trial " << trial << " delta " << delta;
      // Seek fits (delta >= 0): the request costs x and wins the tie as the first;
      // one ns late: a whole turn more, the fixed cost wins.
      EXPECT_EQ(want, delta >= 0 ? 0u : 1u);
      // A rival seen first at x + 1: the request wins only if its seek fits.
      const std::vector<Candidate> rival_first = {At(m, 0, IoOp::kRead, x + 1), At(m, offset, op)};
      EXPECT_EQ(Pick(m, rival_first, head, now), delta >= 0 ? 1u : 0u) << "delta " << delta;
    }
  }
}

// The analytic model's gain from a reordering drive (device/hdd_positioning.h) is what
// the simulator's drive achieves: n commands uniform over a span, the head anywhere in
// it, the mean positioning of the SATF pick over that of a single command.
TEST(HddMechanicsTest, SatfGainIsTheModelsNearestOfRatio) {
  SimDiskConfig c;  // 15K rpm class.
  c.rpm = 15000;
  c.capacity_bytes = 279LL << 30;
  c.avg_seek_ns = 3'400'000;
  c.track_to_track_ns = 200'000;
  c.sustained_bytes_per_s = 143.0 * (1 << 20);
  c.command_overhead_ns = 0;
  const HddMechanics m(c);
  const HddSeekCurve& curve = m.Curve(IoOp::kRead);
  for (double share : {0.02, 0.14, 1.0}) {
    const int64_t span = static_cast<int64_t>(share * static_cast<double>(c.capacity_bytes));
    const std::vector<double> ratio = NearestOfPositionRatios(curve, static_cast<double>(span), 8);
    Random rng(7);
    std::vector<double> sum(9, 0);
    constexpr int kTrials = 20000;
    for (int t = 0; t < kTrials; ++t) {
      const int64_t head = rng.UniformInt(0, span - 1);
      const int64_t now = rng.UniformInt(0, m.rotation_ns() - 1);
      std::vector<Candidate> cs;
      for (int n = 1; n <= 8; ++n) {
        cs.push_back(At(m, rng.UniformInt(0, span - 1), IoOp::kRead));
        if (n != 1 && n != 2 && n != 4 && n != 8) continue;
        int64_t ns = 0;
        m.PickSatf(
            cs.size(), [&](size_t i) { return cs[i]; }, head, now, &ns);
        sum[n] += static_cast<double>(ns);
      }
    }
    for (int n : {2, 4, 8}) {
      EXPECT_NEAR(sum[n] / sum[1], ratio[n - 1], 0.01) << "share " << share << " n " << n;
    }
  }
}

}  // namespace
}  // namespace pgstorsim::sim
