#include "scenario/storage_geometry.h"

#include <gtest/gtest.h>

#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace {

Scenario Parsed(const std::string& toml) {
  auto s = ParseScenarioToml(toml, "geo.toml");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

TEST(StorageGeometry, OneDerivationOfArrayAndFilesystem) {
  Scenario s = Parsed(
      "[array]\nlevel = \"raid100\"\ndisks = 8\nspans = 2\nstripe = \"64k\"\n"
      "span_stripe = \"1MiB\"\n[disks]\ncapacity = \"300GiB\"\n"
      "[filesystem]\nblock_size = \"64k\"\nfragment_size = \"8k\"\npartition_offset = \"63s\"\n");
  ASSERT_TRUE(ValidateScenario(s).ok()) << ValidateScenario(s).message();
  const ArrayGeometry g = ArrayGeometryFor(s);
  EXPECT_EQ(g.level, RaidLevel::kRaid100);
  EXPECT_EQ(g.members, 8);
  EXPECT_EQ(g.span_members, 4);
  EXPECT_EQ(g.stripe_unit_bytes, 65536);
  EXPECT_EQ(g.span_stripe_bytes, 1 << 20);
  EXPECT_EQ(g.member_size_bytes, 300LL << 30);
  const FsGeometry f = FsGeometryFor(s);
  EXPECT_EQ(f.partition_offset_bytes, 63 * 512);
  EXPECT_EQ(f.fs_block_bytes, 65536);
  EXPECT_EQ(f.fragment_bytes, 8192);
  // A controller's RAID 10 spans group mirrored pairs: the mapping stays RAID 10's.
  Scenario r10 = Parsed("[array]\nlevel = \"raid10\"\ndisks = 8\nspans = 2\n");
  ASSERT_TRUE(ValidateScenario(r10).ok());
  EXPECT_EQ(ArrayGeometryFor(r10).span_members, 0);
}

// Bad arrays are refused naming the file, the line and the key at fault.
TEST(StorageGeometry, BadArraysNameFileLineAndKey) {
  struct Bad {
    const char* toml;
    const char* where;
  } cases[] = {
      {"[array]\nlevel = \"raid6\"\ndisks = 3\n", "geo.toml:3: key array.disks"},
      {"[array]\nlevel = \"raid100\"\ndisks = 10\nspans = 3\n", "geo.toml:3: key array.disks"},
      {"[array]\nlevel = \"raid100\"\ndisks = 6\nspans = 2\n", "geo.toml:4: key array.spans"},
      {"[array]\nlevel = \"raid50\"\ndisks = 6\n", "geo.toml: key array.spans"},
      {"[array]\nlevel = \"raid10\"\ndisks = 4\nspan_stripe = \"1MiB\"\n",
       "geo.toml:4: key array.span_stripe"},
      {"[array]\nlevel = \"raid5\"\nspans = 2\ndisks = 6\n", "geo.toml:3: key array.spans"},
  };
  for (const Bad& b : cases) {
    Status st = ValidateScenario(Parsed(b.toml));
    ASSERT_FALSE(st.ok()) << b.toml;
    EXPECT_EQ(st.message().rfind(b.where, 0), 0u) << st.message();
  }
}

// UFS's cylinder groups come from dumpfs's bpg and maxbpg, in filesystem blocks.
TEST(StorageGeometry, CylinderGroupsComeFromDumpfsFigures) {
  Scenario s = Parsed(
      "[filesystem]\ntype = \"ufs2\"\nblock_size = \"64k\"\nfragment_size = \"8k\"\n"
      "blocks_per_group = 40195\nmax_blocks_per_group = 8192\n");
  ASSERT_TRUE(ValidateScenario(s).ok()) << ValidateScenario(s).message();
  const FsGeometry f = FsGeometryFor(s);
  EXPECT_EQ(f.group_bytes, 40195LL * 65536);
  EXPECT_EQ(f.section_bytes, 8192LL * 65536);
  for (const char* bad : {"[filesystem]\nblocks_per_group = 100\n",
                          "[filesystem]\nblocks_per_group = 100\nmax_blocks_per_group = 200\n"}) {
    Status st = ValidateScenario(Parsed(bad));
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.message().find("key filesystem.max_blocks_per_group"), std::string::npos)
        << st.message();
  }
  // A Linux filesystem has no cylinder groups: the key is refused with its line.
  Status linux_fs = ValidateScenario(
      Parsed("[filesystem]\ntype = \"xfs\"\nblocks_per_group = 100\nmax_blocks_per_group = 10\n"));
  ASSERT_FALSE(linux_fs.ok());
  EXPECT_EQ(linux_fs.message().rfind("geo.toml:3: key filesystem.blocks_per_group", 0), 0u)
      << linux_fs.message();
  EXPECT_NE(linux_fs.message().find("filesystem.type = xfs"), std::string::npos);
}

TEST(StorageGeometry, ResultsCarryCanonicalKeysWithUnits) {
  Scenario s = Parsed("[array]\nstripe = \"32k\"\n[disks]\nrpm = \"10000rpm\"\n");
  const nlohmann::json keys = ScenarioResultsKeys(s);
  EXPECT_EQ(keys.at("array.stripe_bytes"), 32768);
  EXPECT_FALSE(keys.contains("array.stripe"));
  EXPECT_EQ(keys.at("disks.rpm"), 10000.0);
  EXPECT_EQ(keys.at("postgres.checkpoint_timeout_ns"), 300LL * 1000 * 1000 * 1000);
  EXPECT_EQ(keys.at("array.level"), "raid10");
  EXPECT_EQ(keys.at("postgres.synchronous_commit"), true);
  EXPECT_EQ(keys.at("workload.clients"), 10);
  EXPECT_EQ(ResultsKeyValue("array.stripe", "1MiB").first, "array.stripe_bytes");
  EXPECT_EQ(ResultsKeyValue("array.stripe", "1MiB").second, 1 << 20);
  EXPECT_EQ(ResultsKeyValue("calibration.cpu_ms", "0.5").second, 0.5);
}

}  // namespace
}  // namespace pgstorsim
