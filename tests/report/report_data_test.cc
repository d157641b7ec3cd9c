// The lenient accessors and formatting helpers behind the report.
#include "report/report_data.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace report {
namespace {

TEST(FlattenConfig, NestedObjectsBecomeDottedKeys) {
  FlatConfig c = FlattenConfig(
      {{"clients", 10}, {"array", {{"stripe", "1MiB"}, {"disks", 4}}}, {"tags", {1, 2}}});
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c["clients"], "10");
  EXPECT_EQ(c["array.stripe"], "1MiB");
  EXPECT_EQ(c["array.disks"], "4");
  EXPECT_EQ(c["tags"], "[1,2]");
  EXPECT_TRUE(FlattenConfig(nlohmann::json()).empty());
  EXPECT_TRUE(FlattenConfig(42).empty());
}

TEST(DifferingKeys, MissingCountsAsDifferent) {
  FlatConfig a = {{"x", "1"}, {"y", "2"}, {"z", "3"}};
  FlatConfig b = {{"x", "1"}, {"y", "5"}};
  EXPECT_EQ(DifferingKeys({a, b}), (std::vector<std::string>{"y", "z"}));
  EXPECT_TRUE(DifferingKeys({a, a}).empty());
}

TEST(SameValue, SizesCompareByBytesOnlyForSizeKeys) {
  EXPECT_TRUE(SameValue("array.stripe_bytes", "1MiB", "1048576"));
  EXPECT_TRUE(SameValue("scenario.host.ram_bytes", "1G", "1073741824"));
  EXPECT_FALSE(SameValue("array.stripe_bytes", "64k", "1MiB"));
  EXPECT_FALSE(SameValue("clients", "1k", "1024"));
  // Outside the schema: no unit, whatever the name ends in.
  EXPECT_FALSE(SameValue("sim.ram_bytes", "1G", "1073741824"));
}

TEST(RoleOf, ConditionsRunControlAndSettings) {
  EXPECT_EQ(RoleOf("clients"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("workload.clients"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("cache_state"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("workload.type"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("seed"), KeyRole::kRunControl);
  EXPECT_EQ(RoleOf("duration_s"), KeyRole::kRunControl);
  EXPECT_EQ(RoleOf("array.stripe"), KeyRole::kSetting);
  EXPECT_EQ(RoleOf("disks.type"), KeyRole::kSetting);
  // Scenario keys the schema names, by their key table role.
  EXPECT_EQ(RoleOf("scenario.workload.type"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("scenario.workload.clients"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("scenario.workload.io_depth"), KeyRole::kCondition);
  EXPECT_EQ(RoleOf("scenario.workload.duration_ns"), KeyRole::kRunControl);
  EXPECT_EQ(RoleOf("scenario.workload.seed"), KeyRole::kRunControl);
  EXPECT_EQ(RoleOf("scenario.scenario.name"), KeyRole::kRunControl);
  EXPECT_EQ(RoleOf("scenario.host.ram_bytes"), KeyRole::kSetting);
  EXPECT_EQ(RoleOf("sim.os_cache_sized_bytes"), KeyRole::kSetting);
  EXPECT_TRUE(SameConditions({{"clients", "10"}, {"seed", "1"}}, {{"clients", "10"}}));
  EXPECT_FALSE(SameConditions({{"cache", "warm"}}, {{"cache", "cold"}}));
}

TEST(ConfigsAgree, SharedKeysMustMatchIgnoringRunControl) {
  EXPECT_TRUE(ConfigsAgree({{"array.stripe_bytes", "1048576"}, {"seed", "1"}},
                           {{"array.stripe_bytes", "1MiB"}, {"seed", "2"}}));
  EXPECT_FALSE(ConfigsAgree({{"array.stripe_bytes", "65536"}}, {{"array.stripe_bytes", "1MiB"}}));
  EXPECT_FALSE(ConfigsAgree({{"a", "1"}}, {{"b", "1"}}));  // Nothing shared.
}

// Units come from the schema (scenario/scenario_results.h): results names as sweep rows
// carry them and under config.scenario; never a guess from a word or suffix in the key.
TEST(Formatting, UnitsComeFromTheSchema) {
  EXPECT_EQ(UnitOf("array.stripe_bytes"), "bytes");
  EXPECT_EQ(UnitOf("scenario.postgres.checkpoint_timeout_ns"), "ns");
  EXPECT_EQ(UnitOf("workload.clients"), "connections");
  EXPECT_EQ(DisplayValue("scenario.postgres.shared_buffers_bytes", "134217728"), "128 MiB");
  EXPECT_EQ(DisplayValue("controller.max_stripe_bytes", "1048576"), "1 MiB");
  EXPECT_TRUE(SameValue("host.ram_bytes", "24GiB", "25769803776"));
  // A count that names stripes is not a size.
  EXPECT_EQ(DisplayValue("full_stripe_destages", "12"), "12");
  EXPECT_FALSE(SameValue("full_stripe_destages", "1k", "1024"));
  EXPECT_EQ(DisplayValue("workload.clients", "10"), "10");
}

// The configuration table's values carry the schema's unit.
TEST(Formatting, ValueWithUnitFromTheSchema) {
  EXPECT_EQ(ValueWithUnit("scenario.host.ram_bytes", "25769803776"), "24 GiB");
  EXPECT_EQ(ValueWithUnit("scenario.postgres.checkpoint_timeout_ns", "300000000000"),
            "300.000 s");
  EXPECT_EQ(ValueWithUnit("scenario.workload.clients", "10"), "10 connections");
  EXPECT_EQ(ValueWithUnit("workload.rate", "250.0"), "250.0 tps");
  EXPECT_EQ(ValueWithUnit("scenario.disks.rpm", "15000.0"), "15000.0 rpm");
  EXPECT_EQ(ValueWithUnit("scenario.array.level", "raid10"), "raid10");
  // Outside the schema: as it is, the unit (if any) in the name.
  EXPECT_EQ(ValueWithUnit("sim.os_cache_sized_bytes", "1048576"), "1048576");
  EXPECT_EQ(ValueWithUnit("clients", "10"), "10");
}

// Names outside the schema get no unit and are not shortened, whatever they end in.
TEST(Formatting, NamesOutsideTheSchemaAreShownAsTheyAre) {
  EXPECT_EQ(UnitOf("sim.ram_bytes"), "");
  EXPECT_EQ(UnitOf("duration_s"), "");
  EXPECT_EQ(UnitOf("array.stripe"), "");  // A size key under its bare name.
  EXPECT_EQ(DisplayValue("sim.ram_bytes", "1048576"), "1048576");
  EXPECT_EQ(ShortKey("run.duration_s"), "duration_s");
  EXPECT_EQ(ShortKey("calibration.destage_position_ms"), "destage_position_ms");
  EXPECT_EQ(ShortKey("workload.clients_s"), "clients_s");
  EXPECT_EQ(ShortKey("postgres.checkpoint_timeout_ns"), "checkpoint_timeout");
  EXPECT_EQ(ShortKey("scenario.array.stripe_bytes"), "stripe");
}

TEST(Formatting, HumanValues) {
  EXPECT_EQ(DisplayValue("array.stripe_bytes", "1048576"), "1 MiB");
  EXPECT_EQ(DisplayValue("array.stripe", "1MiB"), "1MiB");
  EXPECT_EQ(DisplayValue("clients", "10"), "10");
  EXPECT_EQ(ShortKey("array.stripe_bytes"), "stripe");
  EXPECT_EQ(ShortKey("clients"), "clients");
  EXPECT_EQ(PercentChange(254, 626), "+146%");
  EXPECT_EQ(PercentChange(626, 625), "0%");
  EXPECT_EQ(PercentChange(100, 40), "-60%");
  EXPECT_EQ(PercentChange(0, 40), "n/a");
  EXPECT_EQ(FormatNumber(1.0 / 3, 2), "0.33");
  EXPECT_EQ(SettingsText({{"array.stripe_bytes", "65536"}}), "stripe 64 KiB");
  EXPECT_EQ(SettingsText({}), "(current)");
}

TEST(SectionReaders, SkipMalformedRows) {
  Results r = NewResults("predict");
  r.tps = 100;
  r.sections["sweep"] = nlohmann::json::array(
      {{{"tps", "fast"}}, 7, {{"settings", {{"array", {{"stripe", "1MiB"}}}}}, {"tps", 200}}});
  r.sections["devices"] =
      nlohmann::json::array({{{"name", "d0"}}, {{"name", "d1"}, {"utilisation", 0.5}}});
  r.sections["prediction"] = {{"tps_low", 90}};  // Half a band is no band.
  std::vector<SweepRow> rows = SweepRowsOf(r);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].settings.at("array.stripe"), "1MiB");
  ASSERT_EQ(DevicesOf(r).size(), 1u);
  EXPECT_EQ(DevicesOf(r)[0].name, "d1");
  auto p = PredictionOf(r);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->tps, 100);
  EXPECT_FALSE(p->tps_low.has_value());
  r.kind = "run";
  EXPECT_FALSE(PredictionOf(r).has_value());
}

}  // namespace
}  // namespace report
}  // namespace pgstorsim
