#include "probe/device_inference.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

const char kRotational[] = "/sys/block/vda/queue/rotational = 1";

Scenario Default() {
  auto s = DefaultScenario();
  EXPECT_TRUE(s.ok());
  return *s;  // 15000 rpm, track_to_track 0.2 ms: an HDD read takes >= 2.2 ms.
}

std::map<std::string, Fact> ByKey(const std::vector<Fact>& facts) {
  std::map<std::string, Fact> out;
  for (const Fact& f : facts) {
    EXPECT_EQ(f.origin, FactOrigin::kMeasured) << f.key;
    EXPECT_FALSE(f.source.empty()) << f.key;
    out[f.key] = f;
  }
  return out;
}

DeviceTimings Timings(double read_ms, double write_ms) {
  DeviceTimings t;
  t.read_qd1_mean_ms = read_ms;
  t.read_qd1_per_s = 1000 / read_ms;
  t.read_deep_per_s = 4.2 * t.read_qd1_per_s;
  t.read_deep_depth = 32;
  t.write_fsync_mean_ms = write_ms;
  return t;
}

TEST(DeviceInferenceTest, HddMinimumReadIsHalfARevolutionPlusTrackToTrack) {
  EXPECT_NEAR(HddMinimumReadMs(Default().disks), 2.0 + 0.2, 1e-9);
}

TEST(DeviceInferenceTest, FastReadsTurnARotationalDiskIntoAnSsd) {
  auto f = ByKey(InferDeviceFacts(Default(), Timings(0.081, 1.5), kRotational));
  EXPECT_EQ(f["disks.type"].value, "ssd");
  EXPECT_NE(f["disks.type"].source.find("randread-qd1 mean 0.081 ms is below"), std::string::npos)
      << f["disks.type"].source;
  EXPECT_NE(f["disks.type"].source.find(kRotational), std::string::npos);
  EXPECT_NE(f["disks.type"].source.find("2.200 ms"), std::string::npos);
  EXPECT_EQ(f["disks.read_latency"].value, "81us");
  EXPECT_EQ(f["disks.read_latency"].source, "randread-qd1 mean 0.081 ms");
  EXPECT_EQ(f["disks.write_latency"].value, "1500us");
  EXPECT_EQ(f["disks.channels"].value, "4");
  // 1.5 ms > 2 x 0.081 ms: the flush reached the media, no non-volatile cache.
  EXPECT_EQ(f["controller.write_policy"].value, "write-through");
  EXPECT_EQ(f.count("controller.kind"), 0u);
}

TEST(DeviceInferenceTest, HddLikeReadsKeepTheHdd) {
  auto f = ByKey(InferDeviceFacts(Default(), Timings(6.0, 8.0), kRotational));
  EXPECT_EQ(f["disks.type"].value, "hdd");
  EXPECT_NE(f["disks.type"].source.find("is not below"), std::string::npos);
  EXPECT_EQ(f.count("disks.read_latency"), 0u);
  EXPECT_EQ(f.count("disks.channels"), 0u);
  EXPECT_EQ(f["controller.write_policy"].value, "write-through");
}

TEST(DeviceInferenceTest, WritesAcknowledgedUnderAHalfRevolutionMeanAWriteBackCache) {
  // 0.15 ms <= min(2 x 6 ms, 2 ms): a battery-backed cache answers before the platter could.
  auto f = ByKey(InferDeviceFacts(Default(), Timings(6.0, 0.15), kRotational));
  EXPECT_EQ(f["controller.write_policy"].value, "write-back");
  EXPECT_EQ(f["controller.kind"].value, "raid");
  EXPECT_EQ(f["controller.battery_present"].value, "on");
  EXPECT_NE(f["controller.write_policy"].source.find("half a revolution (2.000 ms)"),
            std::string::npos)
      << f["controller.write_policy"].source;
  // 3 ms is under 2 x 6 ms but over half a revolution: the platter was waited for.
  f = ByKey(InferDeviceFacts(Default(), Timings(6.0, 3.0), kRotational));
  EXPECT_EQ(f["controller.write_policy"].value, "write-through");
}

TEST(DeviceInferenceTest, ChannelsStayWithinOneAndTheQueueDepth) {
  DeviceTimings t = Timings(0.1, 0);
  t.read_deep_per_s = 100 * t.read_qd1_per_s;
  EXPECT_EQ(ByKey(InferDeviceFacts(Default(), t, kRotational))["disks.channels"].value, "32");
  t.read_deep_per_s = 0.4 * t.read_qd1_per_s;
  auto f = ByKey(InferDeviceFacts(Default(), t, kRotational));
  EXPECT_EQ(f["disks.channels"].value, "1");
  EXPECT_EQ(f.count("disks.write_latency"), 0u);  // Not measured (a read-only device).
  EXPECT_EQ(f.count("controller.write_policy"), 0u);
}

TEST(DeviceInferenceTest, NothingMeasuredSaysNothing) {
  EXPECT_TRUE(InferDeviceFacts(Default(), DeviceTimings(), kRotational).empty());
}

TEST(DeviceInferenceTest, EveryWrittenKeyCarriesItsProvenance) {
  std::vector<Fact> facts = {{"disks.type", "hdd", FactOrigin::kDetected, kRotational}};
  auto probed = ScenarioOfFacts(facts);
  ASSERT_TRUE(probed.ok()) << probed.status().message();
  for (Fact& f : InferDeviceFacts(*probed, Timings(0.081, 1.5), kRotational)) {
    facts.push_back(std::move(f));
  }
  auto toml = ProbeScenarioToml(facts, "test");
  ASSERT_TRUE(toml.ok()) << toml.status().message();
  const std::string& t = *toml;
  EXPECT_NE(t.find("type = \"ssd\"  # measured by the device benchmark: randread-qd1 mean "
                   "0.081 ms is below"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("  # measured by the device benchmark: randread-qd1 mean 0.081 ms\n"),
            std::string::npos);
  EXPECT_NE(t.find("channels = 4  # measured by the device benchmark: randread-qd32"),
            std::string::npos);
  EXPECT_NE(t.find("write_policy = \"write-through\"  # measured by the device benchmark: "
                   "write-fsync mean 1.500 ms > 0.162 ms"),
            std::string::npos);
  auto back = ParseScenarioToml(t, "probe.toml");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->disks.type, DiskType::kSsd);
  EXPECT_EQ(back->disks.read_latency_ns, 81000);
  EXPECT_EQ(back->disks.write_latency_ns, 1500000);
  EXPECT_EQ(back->disks.channels, 4);
  EXPECT_EQ(back->controller.write_policy, WritePolicy::kWriteThrough);
}

}  // namespace
}  // namespace pgstorsim
