#include "driver/residency.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <vector>

#include "driver/cache_check.h"
#include "driver/cache_control.h"

namespace pgstorsim {
namespace {

constexpr int64_t kBlock = 8192;

TEST(ResidencyTest, BlocksOfFilesAndSegments) {
  EXPECT_EQ(FileBlocks(0, kBlock), 0);
  EXPECT_EQ(FileBlocks(8192, kBlock), 1);
  EXPECT_EQ(FileBlocks(8193, kBlock), 2);
  EXPECT_EQ(FileBlocks(1LL << 30, kBlock), 131072);
  EXPECT_EQ(SegmentPath("/d/base/5/16397", 0), "/d/base/5/16397");
  EXPECT_EQ(SegmentPath("/d/base/5/16397", 2), "/d/base/5/16397.2");
}

TEST(ResidencyTest, BlockIsResidentWhenAllItsOsPagesAre) {
  // 4 KiB OS pages: blocks {p0 p1} {p2 p3} {p4 p5} and a short last block {p6}.
  // mincore sets bit 0 for resident; other bits mean nothing here.
  std::vector<unsigned char> pages = {1, 1, 1, 0, 0, 2, 3};
  EXPECT_EQ(ResidentBlocks(pages, 7 * 4096, 4096, kBlock), 2);
  // 16 KiB OS pages hold two blocks each.
  EXPECT_EQ(ResidentBlocks({1, 0}, 4 * kBlock, 16384, kBlock), 2);
  // A vector shorter than the file (it shrank) counts the missing pages as not resident.
  EXPECT_EQ(ResidentBlocks({1, 1}, 2 * kBlock, 4096, kBlock), 1);
  EXPECT_EQ(ResidentBlocks({}, 0, 4096, kBlock), 0);
}

Residency TwoRelations() {
  Residency r;
  r.taken = "after the cold preparation";
  RelationResidency heap{"pgbench_accounts", 131172, 0, 0, 0};
  AddSegment(&heap, 131072, 65536);  // Segment 0 (1 GiB), half resident.
  AddSegment(&heap, 100, 0);         // Segment .1.
  RelationResidency pkey{"pgbench_accounts_pkey", 1000, 1000, 0, 0};
  AddSegment(&pkey, 1000, 1000);
  RelationResidency tellers{"pgbench_tellers", 10, 10, 0, 0};
  AddSegment(&tellers, 10, 10);
  r.relations = {heap, pkey, tellers};
  return r;
}

TEST(ResidencyTest, FractionsOverAccountsAndAllRelations) {
  Residency r = TwoRelations();
  EXPECT_EQ(r.relations[0].os_file_blocks, 131172);
  EXPECT_EQ(r.relations[0].os_resident_blocks, 65536);
  EXPECT_DOUBLE_EQ(r.AccountsOsFraction(), 66536.0 / 132172.0);
  EXPECT_DOUBLE_EQ(r.AccountsSharedFraction(), 1000.0 / 132172.0);
  EXPECT_DOUBLE_EQ(r.TotalOsFraction(), 66546.0 / 132182.0);
  EXPECT_DOUBLE_EQ(r.TotalSharedFraction(), 1010.0 / 132182.0);
  EXPECT_EQ(r.Describe(),
            "pgbench_accounts (heap + primary key) after the cold preparation: shared_buffers "
            "held 0.8 % of its blocks, the OS page cache 50.3 % of its files (first-touch hit "
            "ratios 0.008 and 0.503)");
  nlohmann::json j = r.ToJson();
  EXPECT_DOUBLE_EQ(j["accounts_os_resident_fraction"].get<double>(), 66536.0 / 132172.0);
  EXPECT_EQ(j["relations_residency"]["pgbench_accounts"]["os_file_blocks"], 131172);
  EXPECT_DOUBLE_EQ(
      j["relations_residency"]["pgbench_accounts_pkey"]["shared_resident_fraction"].get<double>(),
      1.0);
}

TEST(ResidencyTest, UnknownSegmentOrCacheMakesTheFigureUnknown) {
  Residency r = TwoRelations();
  AddSegment(&r.relations[1], 10, -1);
  r.relations[0].shared_buffers = -1;
  r.os_note = "mincore failed";
  r.shared_note = "pg_buffercache is not installed";
  EXPECT_LT(r.AccountsOsFraction(), 0);
  EXPECT_LT(r.TotalSharedFraction(), 0);
  EXPECT_EQ(r.Describe(),
            "pgbench_accounts (heap + primary key) after the cold preparation: shared_buffers "
            "held an unknown share of its blocks, the OS page cache an unknown share of its "
            "files (first-touch hit ratios unknown and unknown); shared_buffers unknown: "
            "pg_buffercache is not installed; OS page cache unknown: mincore failed");
  EXPECT_TRUE(r.ToJson()["accounts_os_resident_fraction"].is_null());
  EXPECT_EQ(ResidentFraction(0, 0), -1);
  EXPECT_EQ(ResidentFraction(-1, 10), -1);
}

TEST(ResidencyTest, MincoreSeesAFileJustWritten) {
  const std::string path = "/tmp/pgstorsim-residency-" + std::to_string(getpid());
  std::vector<char> data(8 * kBlock + 100, 'x');
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  close(fd);
  int64_t bytes = 0;
  auto resident = OsResidentBlocks(path, &bytes);
  unlink(path.c_str());
  ASSERT_TRUE(resident.ok()) << resident.status().message();
  EXPECT_EQ(bytes, static_cast<int64_t>(data.size()));
  EXPECT_EQ(*resident, 9);  // Written pages stay in the page cache.
  EXPECT_FALSE(OsResidentBlocks(path, &bytes).ok());
}

TEST(ResidencyTest, ColdRunThatStartedHalfCachedIsFlagged) {
  CacheCheck c;
  c.window_s = 2;
  c.shared_hit_ratio = c.accounts_hit_ratio = 0.9;
  c.os_hit_ratio = 0;
  EXPECT_FALSE(c.StartedWarm());
  c.has_at_start = true;
  c.at_start = TwoRelations();
  EXPECT_TRUE(c.StartedWarm());  // The OS page cache held 50.3 % of the accounts.
  const std::string text = c.Describe();
  EXPECT_EQ(text.find("cold check at start: pgbench_accounts (heap + primary key)"), 0u) << text;
  EXPECT_NE(text.find("\ncold check (first 2.0 s): shared hit ratio 0.900"), std::string::npos)
      << text;
  c.at_start.relations[0].os_resident_blocks = 0;
  EXPECT_FALSE(c.StartedWarm());
}

TEST(ResidencyTest, CacheReportCarriesTheResidencyKeys) {
  CacheReport report;
  report.mode = "warm";
  EXPECT_FALSE(report.ToJson().contains("accounts_os_resident_fraction"));
  report.has_residency = true;
  report.residency = TwoRelations();
  nlohmann::json j = report.ToJson();
  EXPECT_EQ(j["mode"], "warm");
  EXPECT_DOUBLE_EQ(j["accounts_shared_resident_fraction"].get<double>(), 1000.0 / 132172.0);
  EXPECT_EQ(j["residency_taken"], "after the cold preparation");
}

}  // namespace
}  // namespace pgstorsim
