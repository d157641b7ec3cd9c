// RAID levels in the analytic model: the member I/Os of one random small write and
// read against the textbook penalties.
#include <gtest/gtest.h>

#include "model/access_geometry.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

Scenario Base(const std::vector<std::string>& sets) {
  return testing_util::M5110eScenario(sets);
}

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
  const Level levels[] = {{"raid0", 8, 0, 1},  {"raid10", 8, 0, 2}, {"raid5", 8, 0, 4},
                          {"raid6", 8, 0, 6},  {"raid50", 12, 2, 4}, {"raid60", 12, 2, 6},
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

}  // namespace
}  // namespace pgstorsim
