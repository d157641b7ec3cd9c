// Results names: the one name per scenario key results carry, and the key and unit the
// schema gives each name (scenario/scenario_results.h).
#include "scenario/scenario_results.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

#include "scenario/key_roles.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

using KeyUnit = std::pair<std::string, std::string>;

// The schema's {key, unit} of a results name; {"(none)", ""} when it holds no such name.
KeyUnit KeyUnitOf(const std::string& name) {
  const std::optional<ResultsName> found = FindResultsName(name);
  return found ? KeyUnit(found->key, found->unit) : KeyUnit("(none)", "");
}

TEST(FindResultsName, NamesMapToTheirKeyAndUnit) {
  EXPECT_EQ(KeyUnitOf("array.stripe_bytes"), KeyUnit("array.stripe", "bytes"));
  EXPECT_EQ(KeyUnitOf("postgres.checkpoint_timeout_ns"),
            KeyUnit("postgres.checkpoint_timeout", "ns"));
  EXPECT_EQ(KeyUnitOf("workload.clients"), KeyUnit("workload.clients", "connections"));
  EXPECT_EQ(KeyUnitOf("array.level"), KeyUnit("array.level", ""));
  EXPECT_EQ(KeyUnitOf("disks.rpm"), KeyUnit("disks.rpm", "rpm"));
}

TEST(FindResultsName, NamesOutsideTheSchemaHaveNone) {
  EXPECT_FALSE(FindResultsName("duration_s").has_value());
  EXPECT_FALSE(FindResultsName("sim.ram_bytes").has_value());
  EXPECT_FALSE(FindResultsName("calibration.cpu_ms").has_value());
  // A size or duration key under its bare name is not a results name.
  EXPECT_FALSE(FindResultsName("array.stripe").has_value());
  EXPECT_FALSE(FindResultsName("postgres.checkpoint_timeout").has_value());
  // The unit is looked up, never cut from the name.
  EXPECT_FALSE(FindResultsName("workload.clients_s").has_value());
  EXPECT_FALSE(FindResultsName("array.level_bytes").has_value());
}

// Every results name the writers produce is found, with the key it came from: the writer
// (ResultsKeyValue) and the reader (FindResultsName) share one naming.
TEST(FindResultsName, EveryWrittenNameIsFound) {
  Scenario s;
  int sizes = 0, durations = 0;
  for (const ScenarioKeyInfo& k : ScenarioKeys()) {
    auto text = GetScenarioKey(s, k.key);
    ASSERT_TRUE(text.ok()) << k.key;
    const std::string name = ResultsKeyValue(k.key, *text).first;
    auto info = FindResultsName(name);
    ASSERT_TRUE(info.has_value()) << name;
    EXPECT_EQ(info->key, k.key);
    EXPECT_EQ(info->unit, ScenarioKeyUnit(k.key)) << name;
    sizes += info->unit == "bytes";
    durations += info->unit == "ns";
  }
  EXPECT_GT(sizes, 0);
  EXPECT_GT(durations, 0);
}

TEST(SetScenarioKeyFromResults, ReadsValuesInTheNamesUnit) {
  Scenario s;
  ASSERT_TRUE(SetScenarioKeyFromResults(&s, "array.stripe_bytes", "1048576").ok());
  EXPECT_EQ(*GetScenarioKey(s, "array.stripe"), "1MiB");
  ASSERT_TRUE(SetScenarioKeyFromResults(&s, "postgres.checkpoint_timeout_ns", "60000000000").ok());
  EXPECT_EQ(*GetScenarioKey(s, "postgres.checkpoint_timeout"), "60s");
  ASSERT_TRUE(SetScenarioKeyFromResults(&s, "workload.clients", "7").ok());
  EXPECT_EQ(*GetScenarioKey(s, "workload.clients"), "7");
}

}  // namespace
}  // namespace pgstorsim
