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
  EXPECT_TRUE(SameValue("array.stripe", "1MiB", "1048576"));
  EXPECT_TRUE(SameValue("ram_bytes", "1G", "1073741824"));
  EXPECT_FALSE(SameValue("array.stripe", "64k", "1MiB"));
  EXPECT_FALSE(SameValue("clients", "1k", "1024"));
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
  EXPECT_TRUE(SameConditions({{"clients", "10"}, {"seed", "1"}}, {{"clients", "10"}}));
  EXPECT_FALSE(SameConditions({{"cache", "warm"}}, {{"cache", "cold"}}));
}

TEST(ConfigsAgree, SharedKeysMustMatchIgnoringRunControl) {
  EXPECT_TRUE(ConfigsAgree({{"stripe_bytes", "1048576"}, {"seed", "1"}},
                           {{"stripe_bytes", "1MiB"}, {"seed", "2"}}));
  EXPECT_FALSE(ConfigsAgree({{"stripe_bytes", "65536"}}, {{"stripe_bytes", "1MiB"}}));
  EXPECT_FALSE(ConfigsAgree({{"a", "1"}}, {{"b", "1"}}));  // Nothing shared.
}

// Sizes are the keys the schema gives in bytes (results names "*_bytes", scenario keys
// whose unit column is bytes), never a guess from a word in the key.
TEST(Formatting, SizeUnitsComeFromTheSchema) {
  EXPECT_EQ(DisplayValue("postgres.shared_buffers", "134217728"), "128 MiB");
  EXPECT_EQ(DisplayValue("controller.max_stripe", "1048576"), "1 MiB");
  EXPECT_TRUE(SameValue("host.ram", "24GiB", "25769803776"));
  // A count that names stripes is not a size.
  EXPECT_EQ(DisplayValue("full_stripe_destages", "12"), "12");
  EXPECT_FALSE(SameValue("full_stripe_destages", "1k", "1024"));
  EXPECT_EQ(DisplayValue("workload.clients", "10"), "10");
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
