#include "model/drive_reordering.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

bool Reorders(const std::vector<std::string>& overrides) {
  Scenario s;
  for (const std::string& o : overrides) EXPECT_TRUE(ApplyOverride(&s, o).ok()) << o;
  return DrivesReorderQueue(s, ParamsFromScenario(s));
}

TEST(DriveReordering, HddsReorderAboveDepthOneUnlessACalibratedCostHoldsTheGain) {
  EXPECT_TRUE(Reorders({}));
  EXPECT_FALSE(Reorders({"io.queue_depth=1"}));
  EXPECT_TRUE(Reorders({"io.queue_depth=2"}));
  EXPECT_TRUE(Reorders({"calibration.read_seek_scale=1"}));  // The datasheet curve.
  EXPECT_FALSE(Reorders({"calibration.read_seek_scale=0.5"}));
  EXPECT_FALSE(Reorders({"calibration.destage_queue_depth=7"}));
  EXPECT_FALSE(Reorders({"calibration.destage_position_ms=1.2"}));
  EXPECT_TRUE(Reorders({"calibration.cpu_ms=0.8"}));
  // SSDs: their channels; the HDD keys do not apply.
  EXPECT_TRUE(
      Reorders({"disks.type=ssd", "disks.capacity=400GiB", "calibration.destage_queue_depth=7"}));
  EXPECT_FALSE(Reorders({"disks.type=ssd", "disks.capacity=400GiB", "io.queue_depth=1"}));
}

TEST(DriveReordering, TheGainFallsWithTheReadsQueuedUpToTheDeepestQueue) {
  const Scenario s;
  const ModelParams p = ParamsFromScenario(s);
  const ReadReorderGain gain = ReadReorderGainFor(s, p, 40e9, 8);
  ASSERT_TRUE(gain.active());
  EXPECT_DOUBLE_EQ(gain.Scale(0.3), 1);
  EXPECT_DOUBLE_EQ(gain.Scale(1), 1);
  EXPECT_LT(gain.Scale(2), 0.85);
  EXPECT_LT(gain.Scale(8), gain.Scale(2));
  EXPECT_DOUBLE_EQ(gain.Scale(100), gain.Scale(8));  // At most 8 in flight.
  const double between = gain.Scale(2.5);
  EXPECT_LT(between, gain.Scale(2));
  EXPECT_GT(between, gain.Scale(3));
  // One request in flight, or drives that serve in order: no gain.
  EXPECT_FALSE(ReadReorderGainFor(s, p, 40e9, 1).active());
  Scenario fifo = s;
  fifo.io.queue_depth = 1;
  EXPECT_FALSE(ReadReorderGainFor(fifo, p, 40e9, 8).active());
  EXPECT_DOUBLE_EQ(ReadReorderGain().Scale(5), 1);
}

TEST(DriveReordering, ReadsQueuedAtAPickAreWhatAnArrivingReadFinds) {
  // Four of five members serve reads (a parity member idle, say).
  const std::vector<double> four = {0.5, 0.5, 0, 0.5, 0.5};
  EXPECT_DOUBLE_EQ(ReadsQueuedAtPick(10, four, 10), 10.0 / 4 * 9 / 10);
  EXPECT_DOUBLE_EQ(ReadsQueuedAtPick(10, four, 1), 1);
  EXPECT_DOUBLE_EQ(ReadsQueuedAtPick(10, {0, 0}, 10), 1);
}

TEST(DriveReordering, TheFixedPointMeetsTheGainOfTheQueueItLeaves) {
  const Scenario s;
  const ReadReorderGain gain = ReadReorderGainFor(s, ParamsFromScenario(s), 40e9, 32);
  // A stand-in network: the faster the reads, the fewer queued (12 at scale 1).
  int solves = 0;
  auto solve = [&](double scale) {
    ++solves;
    return 12 * scale;
  };
  auto queued = [](double q) { return q; };
  const double q = SolveWithReorderGain(gain, solve, queued);
  EXPECT_NEAR(gain.Scale(q), q / 12, 1e-4);
  EXPECT_LT(q, 12 * 0.7);
  EXPECT_LE(solves, 12);
  solves = 0;
  EXPECT_DOUBLE_EQ(SolveWithReorderGain(ReadReorderGain(), solve, queued), 12);
  EXPECT_EQ(solves, 1);
}

// predict on scenarios/m5110e.toml, select-only with 3 GiB of RAM: a lone client gains
// nothing from the queue; 32 gain what the simulator's drives do (about 1.7x,
// tests/data/sim_predict_crosscheck_reordering.tsv); in order, the depth does not matter.
TEST(DriveReordering, PredictGainsWithTheQueueWhereTheDrivesReorder) {
  auto tps = [](int clients, int depth, bool calibrated) {
    std::vector<std::string> sets = {
        "workload.type=select-only", "host.ram=3GiB", "postgres.shared_buffers=512MiB",
        "workload.clients=" + std::to_string(clients), "io.queue_depth=" + std::to_string(depth)};
    if (calibrated) sets.push_back("calibration.destage_queue_depth=6.6");
    auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml", sets);
    EXPECT_TRUE(s.ok()) << s.status().message();
    auto p = s.ok() ? Predict(*s) : StatusOr<Prediction>(s.status());
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? p->tps : 0.0;
  };
  EXPECT_NEAR(tps(1, 32, false), tps(1, 1, false), 1e-9 * tps(1, 1, false));
  EXPECT_GT(tps(10, 32, false), 1.15 * tps(10, 1, false));
  EXPECT_GT(tps(32, 32, false), 1.5 * tps(32, 1, false));
  EXPECT_NEAR(tps(32, 32, true), tps(32, 1, true), 1e-9 * tps(32, 1, true));
}

}  // namespace
}  // namespace pgstorsim
