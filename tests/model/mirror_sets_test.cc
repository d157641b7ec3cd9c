// Mirror sets as multi-server stations: which members form sets (from the layout),
// Seidmann's queue + delay against the exact load-dependent MVA of a c-server station,
// and the residences shared back to the members.
#include "model/mirror_sets.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/access_geometry.h"
#include "model/mva.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

TEST(MirrorSets, LeadersNumberTheSetsInOrder) {
  const MirrorSets pairs = MirrorSetsOf({0, 0, 2, 2});
  EXPECT_EQ(pairs.set_of_member, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(pairs.copies, (std::vector<int>{2, 2}));
  EXPECT_FALSE(pairs.Trivial());
  EXPECT_TRUE(MirrorSetsOf({0, 1, 2}).Trivial());
}

MirrorSets SetsOf(const std::vector<std::string>& overrides) {
  auto s = DefaultScenario(overrides);
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return {};
  auto g = ComputeAccessGeometry(*s);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? g->mirrors : MirrorSets();
}

TEST(MirrorSets, TheLayoutsCopiesFormTheSets) {
  const MirrorSets raid10 = SetsOf({"array.level=raid10", "array.disks=8"});
  EXPECT_EQ(raid10.copies, (std::vector<int>{2, 2, 2, 2}));
  const MirrorSets raid1 = SetsOf({"array.level=raid1", "array.disks=3"});
  EXPECT_EQ(raid1.copies, (std::vector<int>{3}));
  EXPECT_TRUE(SetsOf({"array.level=raid5", "array.disks=5"}).Trivial());
  EXPECT_TRUE(SetsOf({"array.level=raid0", "array.disks=4"}).Trivial());
}

// X(N) of one read-only c-server set merged by Seidmann, and exactly.
double Merged(int clients, double set_demand_ms, int copies, double think_ms) {
  MirrorSets sets;
  sets.copies = {copies};
  sets.set_of_member.assign(copies, 0);
  const std::vector<double> member(copies, set_demand_ms / copies);
  const MergedStations merged = MergeMirrorSets(sets, {member, member});
  return SolveMva(clients, merged.demand_ms, think_ms + merged.delay_ms).throughput_per_ms;
}

double Exact(int clients, double set_demand_ms, int copies, double think_ms) {
  return SolveMva(clients, {}, think_ms, MultiServerStation{set_demand_ms, copies})
      .throughput_per_ms;
}

TEST(MirrorSets, ReadOnlySetIsCloseToTheExactMultiServerStation) {
  const double d = 6.0, z = 12.0;  // A read's service; the client's time elsewhere.
  for (int copies : {2, 3}) {
    // Alone: one read's service. Saturated: c reads at a time.
    EXPECT_NEAR(Merged(1, d, copies, z), 1 / (d + z), 1e-9);
    EXPECT_NEAR(Merged(400, d, copies, z), copies / d, 1e-3 * copies / d);
    for (int n = 2; n <= 24; ++n) {
      const double exact = Exact(n, d, copies, z);
      EXPECT_NEAR(Merged(n, d, copies, z), exact, 0.06 * exact) << copies << " copies, " << n;
      // Above c single-server queues visited at random (the unmerged network).
      const std::vector<double> separate(copies, d / copies);
      EXPECT_GT(Merged(n, d, copies, z), SolveMva(n, separate, z).throughput_per_ms) << n;
    }
  }
}

TEST(MirrorSets, AWriteOnThePathCountsOnceWhetherEveryCopyOrOneCopysShareIsQueued) {
  // A pair: reads of 4 ms (either copy) and a 3 ms write.
  const MirrorSets sets = MirrorSetsOf({0, 0});
  const std::vector<double> reads = {2, 2};
  // Destage: both copies write (3 ms each), the request waits for one.
  const std::vector<double> destage = {2 + 3, 2 + 3};
  const MemberDemands every{destage, reads};
  const MergedStations merged = MergeMirrorSets(sets, every);
  ASSERT_EQ(merged.demand_ms.size(), 1u);
  EXPECT_DOUBLE_EQ(merged.demand_ms[0], 5);  // Each copy's busy time.
  EXPECT_DOUBLE_EQ(merged.delay_ms, 2);      // The read's other half.
  const MvaResult alone = SolveMva(1, merged.demand_ms, merged.delay_ms);
  EXPECT_NEAR(1 / alone.throughput_per_ms, 4 + 3, 1e-9);  // Not 4 + 2 x 3.
  const std::vector<double> residence = MemberResidences(sets, alone, every);
  EXPECT_NEAR(residence[0] + residence[1], 7, 1e-9);
  EXPECT_NEAR(SolveMva(400, merged.demand_ms, merged.delay_ms).throughput_per_ms, 1.0 / 5,
              1e-3 / 5);
  // A WAL write shared out as 1.5 ms per copy on the path (the other 1.5 ms of each
  // copy is background load elsewhere): alone, 4 + 3 again; each copy queues 2 + 1.5.
  const std::vector<double> wal = {2 + 1.5, 2 + 1.5};
  const MergedStations shared = MergeMirrorSets(sets, {wal, wal});
  EXPECT_DOUBLE_EQ(shared.demand_ms[0], 3.5);
  EXPECT_NEAR(1 / SolveMva(1, shared.demand_ms, shared.delay_ms).throughput_per_ms, 7, 1e-9);
}

}  // namespace
}  // namespace pgstorsim
