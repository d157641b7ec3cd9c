#include "model/destage_cost.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/storage_model.h"

namespace pgstorsim {
namespace {

const std::string kBase = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";

double CostMs(const std::vector<std::string>& overrides) {
  auto s = LoadScenario(kBase, overrides);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return -1;
  auto ms = DestagePositionMsFor(*s, ParamsFromScenario(*s));
  EXPECT_TRUE(ms.ok()) << ms.status().message();
  return ms.ok() ? *ms : -1;
}

TEST(DestageCost, PendingBytesAreHalfTheWriteCache) {
  auto s = LoadScenario(kBase, {"controller.cache_size=512MiB"});
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(DestagePendingBytes(*s), 128.0 * (1 << 20));
}

TEST(DestageCost, FollowsTheDrivesRotation) {
  const double fast = CostMs({});
  const double slow = CostMs({"disks.rpm=7200"});
  EXPECT_GT(slow / fast, 1.5);
  EXPECT_LT(slow / fast, 15000.0 / 7200 + 0.01);
}

TEST(DestageCost, ADeeperQueueAndMoreRoomCostLessAWiderFootprintMore) {
  const double base = CostMs({});
  EXPECT_LT(CostMs({"calibration.destage_queue_depth=16"}), base);
  EXPECT_GT(CostMs({"calibration.destage_queue_depth=2"}), base);
  EXPECT_LT(CostMs({"controller.cache_size=4GiB"}), base);
  EXPECT_GT(CostMs({"workload.scale=20000"}), base);
}

// Without a calibrated depth, a drive holds the controller's line destages per member
// times the member writes each makes, as the simulator's controller keeps them.
TEST(DestageCost, TheQueueDepthIsTheControllersLinesTimesEachLinesMemberWrites) {
  auto depth = [](const std::vector<std::string>& overrides) {
    auto s = LoadScenario(kBase, overrides);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? ParamsFromScenario(*s).destage_queue_depth : -1;
  };
  const double lines = ControllerConfig::kDestageLinesPerMember;
  EXPECT_EQ(depth({}), 2 * lines);  // RAID 10: a mirror copy.
  EXPECT_EQ(depth({"array.level=raid0"}), lines);
  EXPECT_EQ(depth({"array.level=raid5"}), 2 * lines);  // The parity.
  EXPECT_EQ(depth({"array.level=raid6"}), 3 * lines);
  EXPECT_EQ(depth({"io.queue_depth=4"}), 4);
  EXPECT_EQ(depth({"calibration.destage_queue_depth=5.5"}), 5.5);
}

TEST(DestageCost, IoWorkloadSpreadsOverItsFile) {
  const std::vector<std::string> io = {"workload.type=io", "workload.io_size=8KiB",
                                       "workload.read_fraction=0.5", "workload.io_fsync_writes=on"};
  std::vector<std::string> small = io, large = io;
  small.push_back("workload.file_size=4GiB");
  large.push_back("workload.file_size=200GiB");
  EXPECT_LT(CostMs(small), CostMs(large));
}

double SpanGiB(const std::vector<std::string>& overrides, double data_gib) {
  auto s = LoadScenario(kBase, overrides);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? PlacedSpanBytes(*s, data_gib * (1 << 30)) / (1 << 30) : -1;
}

// The seed's UFS (bpg 40195, maxbpg 8192 of 64 KiB) spreads a database's 1 GiB segments
// 2.95x and a 47 GiB io file 4.8x; a contiguous filesystem spreads nothing.
TEST(DestageCost, TheFilesystemPlacesTheData) {
  EXPECT_NEAR(SpanGiB({}, 26) / 26, 2.95, 0.01);
  EXPECT_NEAR(SpanGiB({"workload.type=io", "workload.io_size=8KiB", "workload.read_fraction=0.5",
                       "workload.file_size=47GiB"},
                      47) /
                  47,
              4.8, 0.1);
  EXPECT_DOUBLE_EQ(
      SpanGiB({"filesystem.blocks_per_group=0", "filesystem.max_blocks_per_group=0"}, 26), 26);
}

// On a crowded array the data spreads over the room the simulator's volume map leaves
// it: the array less the WAL region ((2 + completion target) x checkpoint_segments + 1
// segments on 9.1), so a larger WAL narrows it.
TEST(DestageCost, ACrowdedArraySpreadsOverTheRoomLeftByTheWal) {
  const std::vector<std::string> small = {"disks.capacity=20GiB"};  // 40 GiB RAID 10 x4.
  std::vector<std::string> big_wal = small;
  big_wal.push_back("postgres.checkpoint_segments=300");  // 11.7 GiB of WAL.
  const double spread = SpanGiB(small, 26);
  EXPECT_LT(spread, 40);
  EXPECT_GT(spread, 26);
  EXPECT_LT(SpanGiB(big_wal, 26), spread - 4);
}

TEST(DestageCost, AnExplicitCostReplacesTheDerivation) {
  EXPECT_DOUBLE_EQ(CostMs({"calibration.destage_position_ms=1.25"}), 1.25);
}

TEST(DestageCost, PredictChargesIt) {
  // A shallower destage queue: each destage positions longer, destage-bound tps falls.
  auto fast = LoadScenario(kBase, {"workload.cache=warm", "calibration.destage_queue_depth=16"});
  auto slow = LoadScenario(kBase, {"workload.cache=warm", "calibration.destage_queue_depth=1"});
  ASSERT_TRUE(fast.ok() && slow.ok());
  auto a = Predict(*fast);
  auto b = Predict(*slow);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_LT(b->tps, 0.8 * a->tps);
}

}  // namespace
}  // namespace pgstorsim
