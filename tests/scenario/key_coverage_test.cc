#include "scenario/key_coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace pgstorsim {
namespace {

TEST(KeyCoverage, IgnoredKeysAreRealKeys) {
  std::set<std::string> keys;
  for (const ScenarioKeyInfo& k : ScenarioKeys()) keys.insert(k.key);
  for (ScenarioModel m : {ScenarioModel::kPredict, ScenarioModel::kSimulate}) {
    for (const std::string& k : KeysIgnoredBy(m)) EXPECT_TRUE(keys.count(k)) << k;
  }
}

TEST(KeyCoverage, AnIgnoredKeyOffItsDefaultGetsOneLineNamingItAndTheModel) {
  auto s = ParseScenarioToml("[io]\nscheduler = \"none\"\n", "x.toml");
  ASSERT_TRUE(s.ok());
  for (ScenarioModel m : {ScenarioModel::kPredict, ScenarioModel::kSimulate}) {
    const auto lines = IgnoredKeyWarnings(*s, m);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("x.toml:2: key io.scheduler = none"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find(std::string("not used by ") + ScenarioModelName(m)), std::string::npos)
        << lines[0];
    EXPECT_EQ(lines[0].find('\n'), std::string::npos);
  }
  EXPECT_TRUE(IgnoredKeyWarnings(Scenario{}, ScenarioModel::kPredict).empty());
  // The drives' write cache is the simulator's only.
  Scenario d;
  d.controller.drive_write_cache = true;
  EXPECT_EQ(IgnoredKeyWarnings(d, ScenarioModel::kPredict).size(), 1u);
  EXPECT_TRUE(IgnoredKeyWarnings(d, ScenarioModel::kSimulate).empty());
}

// io.queue_depth is no ignored key at any depth, on HDDs or SSDs.
TEST(KeyCoverage, QueueDepthIsUsedByBothModels) {
  // HDDs reorder their queue in both models (model/drive_reordering.h); SSDs keep at
  // most that many channels busy.
  for (int depth : {1, 4, 32, 256}) {
    for (DiskType type : {DiskType::kHdd, DiskType::kSsd}) {
      Scenario s;
      s.io.queue_depth = depth;
      s.disks.type = type;
      for (ScenarioModel m : {ScenarioModel::kPredict, ScenarioModel::kSimulate}) {
        EXPECT_TRUE(IgnoredKeyWarnings(s, m).empty()) << "depth " << depth;
      }
    }
  }
  for (ScenarioModel m : {ScenarioModel::kPredict, ScenarioModel::kSimulate}) {
    const auto keys = KeysIgnoredBy(m);
    EXPECT_EQ(std::find(keys.begin(), keys.end(), "io.queue_depth"), keys.end());
  }
}

// A [calibration] value one model does not read gets one line from that model naming
// the key, its line and whose parameter it is; values both read get none.
TEST(KeyCoverage, CalibrationValuesAModelDoesNotReadGetOneLine) {
  auto s = ParseScenarioToml(
      "[calibration]\ncpu_ms = 1\ncontroller_write_ack_ms = 0.2\ndestage_threshold = 0.5\n"
      "os_dirty_expire_s = 5\nos_writes_outstanding = 8\n",
      "k.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  const auto predict = IgnoredKeyWarnings(*s, ScenarioModel::kPredict);
  ASSERT_EQ(predict.size(), 1u);
  EXPECT_EQ(predict[0],
            "k.toml:3: key calibration.controller_write_ack_ms = 0.2: not used by predict (the "
            "simulator's parameter: controller write acknowledgement)");
  const auto simulate = IgnoredKeyWarnings(*s, ScenarioModel::kSimulate);
  ASSERT_EQ(simulate.size(), 1u);
  EXPECT_EQ(simulate[0].rfind("k.toml:4: key calibration.destage_threshold = 0.5: not used by "
                              "simulate (predict's parameter: destage load",
                              0),
            0u)
      << simulate[0];
}

}  // namespace
}  // namespace pgstorsim
