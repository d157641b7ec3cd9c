#include "scenario/key_coverage.h"

#include <gtest/gtest.h>

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
  auto s = ParseScenarioToml("[io]\nscheduler = \"none\"\nqueue_depth = 1\n", "x.toml");
  ASSERT_TRUE(s.ok());
  for (ScenarioModel m : {ScenarioModel::kPredict, ScenarioModel::kSimulate}) {
    const auto lines = IgnoredKeyWarnings(*s, m);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("x.toml:2: key io.scheduler = none"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find(std::string("not used by ") + ScenarioModelName(m)), std::string::npos)
        << lines[0];
    EXPECT_EQ(lines[0].find('\n'), std::string::npos);
  }
  Scenario fifo;
  fifo.io.queue_depth = 1;
  EXPECT_TRUE(IgnoredKeyWarnings(fifo, ScenarioModel::kPredict).empty());
  // The drives' write cache is the simulator's only.
  Scenario d = fifo;
  d.controller.drive_write_cache = true;
  EXPECT_EQ(IgnoredKeyWarnings(d, ScenarioModel::kPredict).size(), 1u);
  EXPECT_TRUE(IgnoredKeyWarnings(d, ScenarioModel::kSimulate).empty());
}

// predict serves an HDD's queue in order: a scenario of HDDs that reorder among more
// than one queued command gets one line from predict (also at the default depth, which
// is not the one predict answers for); SSDs (their channels) and depth 1 get none.
TEST(KeyCoverage, AnHddQueueDepthAboveOneIsNamedByPredictOnly) {
  const auto lines = IgnoredKeyWarnings(Scenario{}, ScenarioModel::kPredict);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("key io.queue_depth = 32: not used by predict (on HDDs", 0), 0u)
      << lines[0];
  EXPECT_NE(lines[0].find("; answered as for 1"), std::string::npos) << lines[0];
  EXPECT_TRUE(IgnoredKeyWarnings(Scenario{}, ScenarioModel::kSimulate).empty());
  auto in_file = ParseScenarioToml("[io]\nqueue_depth = 4\n", "q.toml");
  ASSERT_TRUE(in_file.ok()) << in_file.status().message();
  const auto located = IgnoredKeyWarnings(*in_file, ScenarioModel::kPredict);
  ASSERT_EQ(located.size(), 1u);
  EXPECT_EQ(located[0].rfind("q.toml:2: key io.queue_depth = 4: not used by predict", 0), 0u)
      << located[0];
  Scenario ssd;
  ssd.disks.type = DiskType::kSsd;
  EXPECT_TRUE(IgnoredKeyWarnings(ssd, ScenarioModel::kPredict).empty());
  Scenario fifo;
  fifo.io.queue_depth = 1;
  EXPECT_TRUE(IgnoredKeyWarnings(fifo, ScenarioModel::kPredict).empty());
}

// A [calibration] value one model does not read gets one line from that model naming
// the key, its line and whose parameter it is; values both read get none.
TEST(KeyCoverage, CalibrationValuesAModelDoesNotReadGetOneLine) {
  auto s = ParseScenarioToml(
      "[calibration]\ncpu_ms = 1\ncontroller_write_ack_ms = 0.2\ndestage_threshold = 0.5\n"
      "os_dirty_expire_s = 5\nos_writes_outstanding = 8\n[io]\nqueue_depth = 1\n",
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
