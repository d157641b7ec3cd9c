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

TEST(DestageCost, IoWorkloadSpreadsOverItsFile) {
  const std::vector<std::string> io = {"workload.type=io", "workload.io_size=8KiB",
                                       "workload.read_fraction=0.5", "workload.io_fsync_writes=on"};
  std::vector<std::string> small = io, large = io;
  small.push_back("workload.file_size=4GiB");
  large.push_back("workload.file_size=200GiB");
  EXPECT_LT(CostMs(small), CostMs(large));
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
