// disks.type = "throttled": parsing, canonical round trip and validation.
#include <gtest/gtest.h>

#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

constexpr const char* kThrottled = R"([controller]
kind = "hba"

[array]
level = "jbod"
disks = 1

[disks]
type = "throttled"
read_iops = 150
write_iops = 120.5
read_bandwidth = "40MiB"
write_bandwidth = "0"
read_latency = "30us"
write_latency = "30us"
)";

TEST(ThrottledScenario, ParsesCapsAndRoundTrips) {
  auto s = ParseScenarioToml(kThrottled, "lab.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->disks.type, DiskType::kThrottled);
  EXPECT_DOUBLE_EQ(s->disks.read_iops, 150);
  EXPECT_DOUBLE_EQ(s->disks.write_iops, 120.5);
  EXPECT_EQ(s->disks.read_bandwidth_bytes_per_s, 40LL << 20);
  EXPECT_EQ(s->disks.write_bandwidth_bytes_per_s, 0);
  EXPECT_EQ(s->disks.read_latency_ns, 30000);
  EXPECT_TRUE(ValidateScenario(*s).ok()) << ValidateScenario(*s).message();
  auto again = ParseScenarioToml(ScenarioToToml(*s), "canonical.toml");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->disks.type, DiskType::kThrottled);
  EXPECT_DOUBLE_EQ(again->disks.write_iops, 120.5);
  EXPECT_EQ(again->disks.read_bandwidth_bytes_per_s, 40LL << 20);
  EXPECT_EQ(*GetScenarioKey(*s, "disks.type"), "throttled");
}

TEST(ThrottledScenario, RefusesMissingCapsNamingLineAndKey) {
  std::string text = kThrottled;
  text.replace(text.find("read_iops = 150"), 15, "read_iops = 0  ");
  auto s = ParseScenarioToml(text, "lab.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  Status st = ValidateScenario(*s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("lab.toml:10"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("disks.read_iops"), std::string::npos) << st.message();

  Scenario t = *ParseScenarioToml(kThrottled, "lab.toml");
  t.disks.write_iops = -1;
  EXPECT_NE(ValidateScenario(t).message().find("disks.write_iops"), std::string::npos);
  t.disks.write_iops = 10;
  t.disks.write_bandwidth_bytes_per_s = -5;
  EXPECT_NE(ValidateScenario(t).message().find("disks.write_bandwidth"), std::string::npos);
}

TEST(ThrottledScenario, UnknownDiskTypeNamesTheChoices) {
  Scenario s;
  Status st = SetScenarioKey(&s, "disks.type", "tape");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("throttled"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace pgstorsim
