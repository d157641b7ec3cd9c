#include "scenario/sweep_spec.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(SweepSpec, PointsAreTheCartesianProductLastKeyFastest) {
  auto base = DefaultScenario({});
  ASSERT_TRUE(base.ok());
  auto spec = ParseSweepSpec(*base, {"array.stripe=32k,1MiB", "workload.clients=1,10,20"});
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->PointCount(), 6u);
  EXPECT_EQ(spec->PointValues(0), (std::vector<std::string>{"32k", "1"}));
  EXPECT_EQ(spec->PointValues(4), (std::vector<std::string>{"1MiB", "10"}));
  EXPECT_EQ(spec->ChoiceKeys(), (std::vector<std::string>{"array.stripe"}));
  EXPECT_EQ(SweepConfigJson(*spec, {}).at("roles").at("workload.clients"), "workload");
}

TEST(SweepSpec, BadSpecsNameTheProblem) {
  auto base = DefaultScenario({});
  ASSERT_TRUE(base.ok());
  auto unknown = ParseSweepSpec(*base, {"array.nothing=1"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("array.nothing"), std::string::npos);
  EXPECT_FALSE(ParseSweepSpec(*base, {"array.stripe"}).ok());
  EXPECT_FALSE(ParseSweepSpec(*base, {"array.stripe=32k", "array.stripe=64k"}).ok());
  // A value its key cannot take is bad input, refused before any point runs.
  auto bad_value = ParseSweepSpec(*base, {"array.stripe=32k,abc"});
  ASSERT_FALSE(bad_value.ok());
  EXPECT_NE(bad_value.status().message().find("array.stripe"), std::string::npos);
  EXPECT_NE(bad_value.status().message().find("'abc'"), std::string::npos);
  EXPECT_FALSE(ParseSweepSpec(*base, {"workload.clients=1,,4"}).ok());
  EXPECT_FALSE(ParseSweepSpec(*base, {"calibration.cpu_ms=0.1,fast"}).ok());
  // Each value valid alone: the point decides (a 2 MiB stripe above the default
  // controller's 1 MiB maximum is refused there, not here).
  auto spec = ParseSweepSpec(*base, {"array.stripe=32k,2MiB"});
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_FALSE(ApplySweepPoint(*base, *spec, spec->PointValues(1)).ok());
  // 10^8 points: refused before anything is allocated.
  const std::string ten = "=1,2,3,4,5,6,7,8,9,10";
  EXPECT_FALSE(
      ParseSweepSpec(*base, {"workload.clients" + ten, "workload.scale" + ten,
                             "host.cpu_cores" + ten, "io.queue_depth" + ten, "array.disks" + ten,
                             "workload.seed" + ten, "workload.rate" + ten, "array.spans" + ten})
          .ok());
}

TEST(SweepSpec, ABaseTheSweepMakesValidIsAccepted) {
  // RAID 50 in spans of two: four disks is too few (2 per span), eight is not.
  const std::vector<std::string> raid50 = {"array.level=raid50", "array.spans=2", "array.disks=4"};
  ASSERT_FALSE(DefaultScenario(raid50).ok());
  auto base = LoadSweepBase("", raid50, {"array.disks=4,8,12"});
  ASSERT_TRUE(base.ok()) << base.status().message();
  auto spec = ParseSweepSpec(*base, {"array.disks=4,8,12"});
  ASSERT_TRUE(spec.ok());
  EXPECT_FALSE(ApplySweepPoint(*base, *spec, {"4"}).ok());  // Refused as a point.
  EXPECT_TRUE(ApplySweepPoint(*base, *spec, {"8"}).ok());
  // No point mends it: the base's own error, as without a sweep.
  auto unmended = LoadSweepBase("", raid50, {"array.stripe=32k,64k"});
  ASSERT_FALSE(unmended.ok());
  EXPECT_EQ(unmended.status().message(), DefaultScenario(raid50).status().message());
  // A bad spec on an invalid base: the spec's error.
  auto bad_spec = LoadSweepBase("", raid50, {"array.disks=8,many"});
  ASSERT_FALSE(bad_spec.ok());
  EXPECT_NE(bad_spec.status().message().find("'many'"), std::string::npos);
  // A valid base is the scenario LoadScenario / DefaultScenario gives.
  auto valid = LoadSweepBase("", {"array.disks=8"}, {"array.stripe=32k,64k"});
  ASSERT_TRUE(valid.ok());
  EXPECT_EQ(valid->array.disks, 8);
  EXPECT_FALSE(LoadSweepBase("/nonexistent/x.toml", {}, {"array.disks=8"}).ok());
}

TEST(SweepSpec, ShardsCoverEveryPointOnceInOrder) {
  for (size_t points : {0u, 1u, 7u, 10000u}) {
    for (int n : {1, 3, 7, 16}) {
      size_t expected_first = 0;
      for (int i = 1; i <= n; ++i) {
        const auto [first, last] = ShardRange(points, {i, n});
        EXPECT_EQ(first, expected_first);
        EXPECT_LE(last - first, points / n + 1);
        expected_first = last;
      }
      EXPECT_EQ(expected_first, points);
    }
  }
  EXPECT_TRUE(ParseShard("3/8").ok());
  EXPECT_EQ(ParseShard("3/8")->index, 3);
  for (const char* bad : {"0/4", "5/4", "1/0", "x/2", "1/", "2", "1/2/3"}) {
    EXPECT_FALSE(ParseShard(bad).ok()) << bad;
  }
}

TEST(SweepSpec, RolesComeFromTheKeyTable) {
  EXPECT_EQ(ScenarioKeyRole("workload.clients"), KeyRole::kWorkload);
  EXPECT_EQ(ScenarioKeyRole("workload.scale"), KeyRole::kWorkload);
  EXPECT_EQ(ScenarioKeyRole("host.ram"), KeyRole::kChoice);
  EXPECT_EQ(ScenarioKeyRole("controller.read_ahead"), KeyRole::kChoice);
  EXPECT_EQ(ScenarioKeyRole("scenario.name"), KeyRole::kLabel);
  EXPECT_EQ(ScenarioKeyRole("calibration.cpu_ms"), KeyRole::kLabel);
  for (const ScenarioKeyInfo& k : ScenarioKeys()) {  // Every key has a role.
    const KeyRole role = ScenarioKeyRole(k.key);
    EXPECT_EQ(role == KeyRole::kWorkload, k.key.rfind("workload.", 0) == 0) << k.key;
    EXPECT_EQ(role == KeyRole::kLabel, k.key.rfind("scenario.", 0) == 0) << k.key;
  }
  EXPECT_EQ(ScenarioKeyUnit("workload.clients"), "connections");
  EXPECT_EQ(ScenarioKeyUnit("array.stripe"), "bytes");
}

}  // namespace
}  // namespace pgstorsim
