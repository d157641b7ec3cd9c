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

}  // namespace
}  // namespace pgstorsim
