#include "probe/device_inference.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "scenario/scenario.h"
#include "scenario/storage_geometry.h"

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

DeviceTimings SeqRead(double mib_per_s) {
  DeviceTimings t;
  t.seq_read_bytes_per_s = mib_per_s * (1 << 20);
  t.seq_read_request_bytes = 1 << 20;
  return t;
}

Scenario Array(const std::string& level, int disks, const std::string& stripe) {
  std::vector<Fact> facts = {{"array.level", level, FactOrigin::kDetected, "test"},
                             {"array.disks", std::to_string(disks), FactOrigin::kDetected, "test"},
                             {"array.stripe", stripe, FactOrigin::kDetected, "test"}};
  auto s = ScenarioOfFacts(facts);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

TEST(DeviceInferenceTest, ASingleDiskStreamsAtTheSequentialReadRate) {
  auto f = ByKey(InferDeviceFacts(Array("jbod", 1, "64KiB"), SeqRead(500), kRotational));
  EXPECT_EQ(f["disks.transfer_rate"].value, std::to_string(500 << 20));
  const std::string& why = f["disks.transfer_rate"].source;
  EXPECT_EQ(why,
            "seqread (1024 KiB reads at QD1) 500.0 MiB/s / 1 member streaming in parallel "
            "(a single device)");
}

TEST(DeviceInferenceTest, ARaid10OfFourStreamsFromOneCopyOfEachPair) {
  auto f = ByKey(InferDeviceFacts(Array("raid10", 4, "64KiB"), SeqRead(300), kRotational));
  EXPECT_EQ(f["disks.transfer_rate"].value, std::to_string(150 << 20));
  EXPECT_NE(f["disks.transfer_rate"].source.find(
                "300.0 MiB/s / 2 members streaming in parallel (raid10 of 4: 2 data members; a "
                "1024 KiB read spans 16 stripe units of 64 KiB)"),
            std::string::npos)
      << f["disks.transfer_rate"].source;
}

TEST(DeviceInferenceTest, StreamingMembersFollowTheArrayGeometry) {
  EXPECT_EQ(StreamingMembers(ArrayGeometryFor(Array("jbod", 1, "64KiB")), 1 << 20), 1);
  EXPECT_EQ(StreamingMembers(ArrayGeometryFor(Array("raid0", 4, "64KiB")), 1 << 20), 4);
  EXPECT_EQ(StreamingMembers(ArrayGeometryFor(Array("raid5", 4, "64KiB")), 1 << 20), 3);
  EXPECT_EQ(StreamingMembers(ArrayGeometryFor(Array("raid6", 6, "64KiB")), 1 << 20), 4);
  EXPECT_EQ(StreamingMembers(ArrayGeometryFor(Array("raid1", 2, "64KiB")), 1 << 20), 1);
  // md's default 512 KiB chunk: a 1 MiB read at QD1 keeps two of four members busy.
  EXPECT_EQ(StreamingMembers(ArrayGeometryFor(Array("raid0", 4, "512KiB")), 1 << 20), 2);
}

TEST(DeviceInferenceTest, NoSequentialReadNoTransferRate) {
  DeviceTimings t = Timings(0.081, 1.5);
  auto f = ByKey(InferDeviceFacts(Default(), t, kRotational));
  EXPECT_EQ(f.count("disks.type"), 1u);
  EXPECT_EQ(f.count("disks.transfer_rate"), 0u);
  t.seq_read_request_bytes = 1 << 20;  // A request size alone is no bandwidth.
  EXPECT_EQ(ByKey(InferDeviceFacts(Default(), t, kRotational)).count("disks.transfer_rate"), 0u);
}

TEST(DeviceInferenceTest, NothingMeasuredSaysNothing) {
  EXPECT_TRUE(InferDeviceFacts(Default(), DeviceTimings(), kRotational).empty());
}

TEST(DeviceInferenceTest, EveryWrittenKeyCarriesItsProvenance) {
  std::vector<Fact> facts = {{"disks.type", "hdd", FactOrigin::kDetected, kRotational}};
  auto probed = ScenarioOfFacts(facts);
  ASSERT_TRUE(probed.ok()) << probed.status().message();
  DeviceTimings timings = Timings(0.081, 1.5);
  timings.seq_read_bytes_per_s = 400.0 * (1 << 20);
  timings.seq_read_request_bytes = 1 << 20;
  for (Fact& f : InferDeviceFacts(*probed, timings, kRotational)) {
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
  // The default raid10 of 4 (64 KiB stripe): 400 MiB/s from two members.
  EXPECT_NE(t.find("transfer_rate = \"200MiB\"  # measured by the device benchmark: seqread"),
            std::string::npos)
      << t;
  EXPECT_EQ(back->disks.transfer_rate_bytes_per_s, 200 << 20);
}

}  // namespace
}  // namespace pgstorsim
