#include "probe/probe.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

TEST(ProbeTest, ParsesMdstat) {
  const std::string mdstat =
      "Personalities : [raid10] [raid1]\n"
      "md1 : active raid1 sdc1[1] sdb1[0]\n"
      "      1046528 blocks super 1.2 [2/2] [UU]\n"
      "md0 : active (auto-read-only) raid10 sdd[3] sdc[2] sdb[1] sda[0](F)\n"
      "      2093056 blocks super 1.2 512K chunks 2 near-copies [4/4] [UUUU]\n"
      "unused devices: <none>\n";
  std::string level;
  std::vector<std::string> members;
  ASSERT_TRUE(ParseMdstat(mdstat, "md0", &level, &members));
  EXPECT_EQ(level, "raid10");
  EXPECT_EQ(members, (std::vector<std::string>{"sdd", "sdc", "sdb", "sda"}));
  ASSERT_TRUE(ParseMdstat(mdstat, "md1", &level, &members));
  EXPECT_EQ(level, "raid1");
  EXPECT_EQ(members, (std::vector<std::string>{"sdc1", "sdb1"}));
  EXPECT_FALSE(ParseMdstat(mdstat, "md2", &level, &members));
}

TEST(ProbeTest, SelectedScheduler) {
  EXPECT_EQ(SelectedScheduler("[mq-deadline] kyber bfq none\n"), "mq-deadline");
  EXPECT_EQ(SelectedScheduler("mq-deadline [none]"), "none");
  EXPECT_EQ(SelectedScheduler("none\n"), "none");
}

TEST(ProbeTest, ScenarioTomlCommentsEveryValueAndReloads) {
  std::vector<Fact> facts = {
      {"postgres.shared_buffers", "268435456", FactOrigin::kDetected, "pg_settings"},
      {"postgres.wal_writer_delay", "200ms", FactOrigin::kDetected, "pg_settings"},
      {"postgres.wal_sync_method", "fdatasync", FactOrigin::kDetected, "pg_settings"},
      {"array.level", "raid10", FactOrigin::kDetected, "/sys/block/md0/md/level"},
      {"array.disks", "4", FactOrigin::kDetected, "/sys/block/md0/md/raid_disks"},
      {"array.stripe", "524288", FactOrigin::kDetected, "/sys/block/md0/md/chunk_size"},
      {"disks.type", "", FactOrigin::kUnknown, "rotational not readable"},
      {"workload.scale", "", FactOrigin::kAssumed, "no pgbench tables"},
  };
  auto toml = ProbeScenarioToml(facts, "Scenario of a test\nsecond line");
  ASSERT_TRUE(toml.ok()) << toml.status().message();
  const std::string& t = *toml;
  EXPECT_EQ(t.rfind("# Scenario of a test\n# second line\n", 0), 0u);
  EXPECT_NE(t.find("shared_buffers = \"256MiB\"  # detected: pg_settings"), std::string::npos) << t;
  EXPECT_NE(t.find("#   postgres.wal_sync_method = fdatasync  (detected: pg_settings)"),
            std::string::npos);
  EXPECT_NE(t.find("wal_writer_delay = \"200ms\"  # detected: pg_settings"), std::string::npos)
      << t;
  EXPECT_NE(t.find("stripe = \"512KiB\"  # detected: /sys/block/md0/md/chunk_size"),
            std::string::npos);
  EXPECT_NE(t.find("type = \"hdd\"  # unknown (rotational not readable); default kept"),
            std::string::npos);
  EXPECT_NE(t.find("scale = 100  # assumed: no pgbench tables"), std::string::npos);
  EXPECT_NE(t.find("rpm = \"15000rpm\"  # assumed (default)"), std::string::npos);
  auto back = ParseScenarioToml(t, "probe.toml");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->postgres.shared_buffers_bytes, 256LL << 20);
  EXPECT_EQ(back->array.stripe_bytes, 512 << 10);
}

TEST(ProbeTest, CountsEachKeyByTheFactThatSetItAndTheRestAsDefaults) {
  std::vector<Fact> facts = {
      {"postgres.shared_buffers", "268435456", FactOrigin::kDetected, "pg_settings"},
      {"postgres.wal_sync_method", "fdatasync", FactOrigin::kDetected, "pg_settings"},
      {"array.level", "raid10", FactOrigin::kAssumed, "not visible"},
      {"array.level", "raid10", FactOrigin::kDetected, "/sys/block/md0/md/level"},
      {"array.disks", "4", FactOrigin::kMeasured, "benchmark"},
      {"disks.type", "", FactOrigin::kUnknown, "rotational not readable"},
      {"workload.scale", "", FactOrigin::kAssumed, "no pgbench tables"},
  };
  auto counts = CountProbeKeys(facts);
  ASSERT_TRUE(counts.ok()) << counts.status().message();
  EXPECT_EQ(counts->detected, 2);  // shared_buffers; array.level's later fact.
  EXPECT_EQ(counts->measured, 1);
  EXPECT_EQ(counts->assumed, 1);
  EXPECT_EQ(counts->unknown, 1);
  EXPECT_EQ(counts->notes, 1);  // wal_sync_method has no scenario key.
  EXPECT_EQ(counts->defaults, static_cast<int>(ScenarioKeys().size()) - 5);
}

TEST(ProbeTest, InvalidCombinationIsAnError) {
  std::vector<Fact> facts = {{"array.level", "raid10", FactOrigin::kDetected, "x"},
                             {"array.disks", "3", FactOrigin::kDetected, "y"}};
  auto toml = ProbeScenarioToml(facts, "x");
  ASSERT_FALSE(toml.ok());
  EXPECT_EQ(toml.status().message().rfind("probed scenario: ", 0), 0u) << toml.status().message();
}

TEST(ProbeTest, DirtyThresholdsFromVmstat) {
  const std::string dir = ::testing::TempDir() + "/probe-vmstat";
  ASSERT_EQ(system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  std::ofstream(dir + "/vmstat") << "nr_free_pages 10\nnr_dirty_threshold 2000\n"
                                    "nr_dirty_background_threshold 1000\nnr_dirtied 7\n";
  HostPaths paths;
  paths.proc = dir;
  paths.sys = dir + "/no-sys";
  std::vector<Fact> facts = ProbeHostFacts(dir, paths);
  const long long page = sysconf(_SC_PAGESIZE);
  std::map<std::string, std::string> value;
  for (const Fact& f : facts) value[f.key] = f.value;
  EXPECT_EQ(value["host.dirty_background"], std::to_string(1000 * page));
  EXPECT_EQ(value["host.dirty_limit"], std::to_string(2000 * page));
}

TEST(ProbeTest, HostFactsOfThisMachine) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  std::vector<Fact> facts = ProbeHostFacts(cwd);
  auto find = [&](const std::string& key) -> const Fact* {
    for (const Fact& f : facts) {
      if (f.key == key) return &f;
    }
    return nullptr;
  };
  ASSERT_NE(find("host.ram"), nullptr);
  EXPECT_GT(std::stoll(find("host.ram")->value), 0);
  ASSERT_NE(find("host.cpu_cores"), nullptr);
  ASSERT_NE(find("filesystem.type"), nullptr);
  EXPECT_NE(find("filesystem.block_size"), nullptr);
  EXPECT_FALSE(ServerIsLocal(cwd));
}

}  // namespace
}  // namespace pgstorsim
