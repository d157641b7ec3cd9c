// RAID levels in the analytic model: the member I/Os of one random small write and
// read against the textbook penalties.
#include <gtest/gtest.h>

#include "model/access_geometry.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

Scenario Base(const std::vector<std::string>& sets) { return testing_util::M5110eScenario(sets); }

struct Level {
  const char* level;
  int disks;
  int spans;
  double write_ios;  // Textbook member I/Os per small random write.
};

// An aligned 8 KiB-page filesystem (4 KiB blocks, 1 MiB partition offset): a page
// never crosses a stripe unit, so each page read is one member read and each write
// costs the level's textbook penalty (RAID 0: 1, mirrors: 2, RAID 5: 4 = read data +
// parity, write both; RAID 6: 6), spread evenly over all members (rotating parity).
TEST(RaidLevels, SmallIoCostsTheTextbookPenaltyOnEveryMember) {
  const Level levels[] = {{"raid0", 8, 0, 1},    {"raid10", 8, 0, 2},  {"raid5", 8, 0, 4},
                          {"raid6", 8, 0, 6},    {"raid50", 12, 2, 4}, {"raid60", 12, 2, 6},
                          {"raid100", 12, 3, 2}, {"raid6", 24, 0, 6}};
  for (const Level& l : levels) {
    for (const char* stripe : {"64k", "1MiB"}) {
      SCOPED_TRACE(std::string(l.level) + " x" + std::to_string(l.disks) + " " + stripe);
      auto g = ComputeAccessGeometry(
          Base({std::string("array.level=") + l.level, "array.disks=" + std::to_string(l.disks),
                "array.spans=" + std::to_string(l.spans), std::string("array.stripe=") + stripe,
                "filesystem.block_size=4k", "filesystem.fragment_size=4k",
                "filesystem.partition_offset=1MiB"}));
      ASSERT_TRUE(g.ok()) << g.status().message();
      EXPECT_NEAR(g->write_commands, l.write_ios, 1e-9);
      EXPECT_NEAR(g->read_commands, 1.0, 1e-9);
      // Exact over one mapping period (longer periods are sampled: within 1 %).
      for (const MemberWork& w : g->members) {
        EXPECT_NEAR(w.read_commands, 1.0 / l.disks, 0.01 / l.disks);
        EXPECT_NEAR(w.write_commands + w.pre_read_commands, l.write_ios / l.disks,
                    0.01 * l.write_ios / l.disks);
      }
    }
  }
}

// Write-through RAID 5: a small write reads data and parity, then writes both where it
// read them; the heads are still on those tracks, so each write waits for its sector to
// come round (a revolution from the read's start) instead of a random positioning.
TEST(RaidLevels, AWriteAfterItsOwnPreReadWaitsForTheSectorToComeRound) {
  auto g = ComputeAccessGeometry(
      Base({"array.level=raid5", "array.disks=8", "array.stripe=64k", "filesystem.block_size=4k",
            "filesystem.fragment_size=4k", "filesystem.partition_offset=1MiB"}));
  ASSERT_TRUE(g.ok()) << g.status().message();
  DiskCosts c;
  c.read_position_ms = 5;
  c.destage_position_ms = 5;
  c.bytes_per_ms = 100e3;  // 100 MB/s: 8 KiB in 0.082 ms.
  const double page_ms = 8192 / c.bytes_per_ms;
  auto write_ms = [&] {
    double sum = 0;
    for (size_t m = 0; m < g->members.size(); ++m) sum += g->WriteMs(m, c);
    return sum;
  };
  EXPECT_NEAR(write_ms(), 4 * 5 + 4 * page_ms, 1e-6);  // Write-back: destaged later.
  c.rewrite_turn_ms = 4;                               // 15000 rpm.
  EXPECT_NEAR(write_ms(), 2 * 5 + 2 * (4 - page_ms) + 4 * page_ms, 1e-6);
  // Without pre-reads (RAID 10) nothing changes.
  auto mirrored = ComputeAccessGeometry(
      Base({"array.level=raid10", "array.disks=8", "array.stripe=64k", "filesystem.block_size=4k",
            "filesystem.fragment_size=4k", "filesystem.partition_offset=1MiB"}));
  ASSERT_TRUE(mirrored.ok());
  double sum = 0;
  for (size_t m = 0; m < mirrored->members.size(); ++m) sum += mirrored->WriteMs(m, c);
  EXPECT_NEAR(sum, 2 * 5 + 2 * page_ms, 1e-6);
}

}  // namespace
}  // namespace pgstorsim
