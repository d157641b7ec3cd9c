// The checkpoint settings of each PostgreSQL version in the scenario and the host
// model: checkpoint_segments before 9.5, max_wal_size since (each refused where the
// server has no such setting), checkpoint_completion_target, wal_writer_delay.
#include <gtest/gtest.h>

#include <string>

#include "pgmodel/host_scenario.h"
#include "scenario/scenario.h"
#include "sim/sim_config.h"

namespace pgstorsim {
namespace {

// The error of validating `postgres` lines (one per line after "[postgres]", which is
// line 1) in a file named "x.toml"; "" when valid.
std::string Refusal(const std::string& postgres) {
  auto s = ParseScenarioToml("[postgres]\n" + postgres, "x.toml");
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return "parse";
  Status v = ValidateScenario(*s);
  return v.ok() ? "" : v.message();
}

TEST(CheckpointSettings, CheckpointSegmentsOnFifteenIsRefusedNamingFileLineAndKey) {
  const std::string e = Refusal("version = \"15\"\ncheckpoint_segments = 10\n");
  EXPECT_NE(e.find("x.toml:3: key postgres.checkpoint_segments"), std::string::npos) << e;
  EXPECT_NE(e.find("max_wal_size"), std::string::npos) << e;
}

TEST(CheckpointSettings, MaxWalSizeBeforeNineFiveIsRefused) {
  const std::string e = Refusal("version = \"9.1\"\nmax_wal_size = \"2GiB\"\n");
  EXPECT_NE(e.find("x.toml:3: key postgres.max_wal_size"), std::string::npos) << e;
  EXPECT_NE(e.find("checkpoint_segments"), std::string::npos) << e;
  EXPECT_EQ(Refusal("version = \"9.5\"\nmax_wal_size = \"2GiB\"\n"), "");
  EXPECT_EQ(Refusal("version = \"9.4\"\ncheckpoint_segments = 32\n"), "");
}

TEST(CheckpointSettings, OutOfRangeValuesAreRefused) {
  EXPECT_NE(Refusal("checkpoint_completion_target = 1.5\n").find(
                "key postgres.checkpoint_completion_target"),
            std::string::npos);
  EXPECT_NE(Refusal("wal_writer_delay = \"0s\"\n").find("key postgres.wal_writer_delay"),
            std::string::npos);
  EXPECT_NE(Refusal("wal_writer_delay = \"20s\"\n").find("key postgres.wal_writer_delay"),
            std::string::npos);
  EXPECT_NE(Refusal("max_wal_size = \"16MiB\"\n").find("key postgres.max_wal_size"),
            std::string::npos);
  EXPECT_NE(Refusal("version = \"9.1\"\ncheckpoint_segments = -2\n")
                .find("key postgres.checkpoint_segments"),
            std::string::npos);
}

TEST(CheckpointSettings, HostModelTriggersOnTheVersionsSetting) {
  auto old = DefaultScenario({"postgres.version=9.1", "postgres.checkpoint_segments=10"});
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_EQ(pgmodel::HostConfigFromScenario(*old).checkpoint_wal_bytes, 10 * (16LL << 20));
  auto old_default = DefaultScenario({"postgres.version=9.1"});
  ASSERT_TRUE(old_default.ok());
  EXPECT_EQ(pgmodel::HostConfigFromScenario(*old_default).checkpoint_wal_bytes, 3 * (16LL << 20));
  EXPECT_DOUBLE_EQ(pgmodel::HostConfigFromScenario(*old_default).checkpoint_completion_target,
                   0.5);
  auto modern = DefaultScenario({"postgres.max_wal_size=2GiB",
                                 "postgres.checkpoint_completion_target=0.6"});
  ASSERT_TRUE(modern.ok()) << modern.status().message();
  const pgmodel::HostConfig h = pgmodel::HostConfigFromScenario(*modern);
  EXPECT_DOUBLE_EQ(h.checkpoint_completion_target, 0.6);
  EXPECT_EQ(h.checkpoint_wal_bytes, static_cast<int64_t>((2LL << 30) / 1.6));
  auto modern_default = DefaultScenario();
  ASSERT_TRUE(modern_default.ok());
  EXPECT_EQ(pgmodel::HostConfigFromScenario(*modern_default).checkpoint_wal_bytes,
            static_cast<int64_t>((1LL << 30) / 1.9));
}

TEST(CheckpointSettings, SimulatorTakesTheSameSettings) {
  auto s = DefaultScenario({"postgres.version=9.1", "postgres.checkpoint_segments=10",
                            "postgres.checkpoint_completion_target=0.7",
                            "postgres.wal_writer_delay=50ms"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto c = sim::SimConfigFromScenario(*s);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->host.checkpoint_wal_bytes, 10 * (16LL << 20));
  EXPECT_DOUBLE_EQ(c->host.checkpoint_completion_target, 0.7);
  EXPECT_EQ(c->wal_writer_delay_ns, 50'000'000);
  EXPECT_EQ(c->host.checkpoint_wal_bytes, pgmodel::HostConfigFromScenario(*s).checkpoint_wal_bytes);
}

}  // namespace
}  // namespace pgstorsim
