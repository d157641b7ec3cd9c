// Monotonic sanity of the analytic model for random TPC-B: more disks, more RAM, a
// larger controller cache and write-back over write-through never lower predicted tps.
#include <gtest/gtest.h>

#include "model/storage_model.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

Scenario Base(const std::vector<std::string>& sets) { return testing_util::M5110eScenario(sets); }

double Tps(std::vector<std::string> sets, const std::string& extra) {
  sets.push_back(extra);
  auto p = Predict(Base(sets));
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? p->tps : 0;
}

// Variations the other checks run under: stripe, cache state, write policy.
const std::vector<std::vector<std::string>> kBases = {
    {"array.stripe=32k"},
    {"array.stripe=1MiB"},
    {"array.stripe=64k", "workload.cache=cold"},
    {"array.stripe=256k", "controller.write_policy=write-through"},
    {"array.stripe=64k", "array.level=raid5", "array.disks=6"},
};

// Each value of `key` in turn (ascending) never lowers tps.
void ExpectNonDecreasing(const std::string& key, const std::vector<std::string>& values) {
  for (const auto& base : kBases) {
    double previous = 0;
    for (const std::string& v : values) {
      SCOPED_TRACE(key + "=" + v + " on " + base[0] + (base.size() > 1 ? " " + base[1] : ""));
      const double tps = Tps(base, key + "=" + v);
      EXPECT_GE(tps, previous * 0.999);
      previous = tps;
    }
  }
}

TEST(Monotonic, MoreRamNeverLowersTps) {
  ExpectNonDecreasing("host.ram", {"8GiB", "16GiB", "24GiB", "48GiB", "96GiB"});
}

TEST(Monotonic, LargerControllerCacheNeverLowersTps) {
  ExpectNonDecreasing("controller.cache_size", {"0", "64MiB", "256MiB", "512MiB", "2GiB"});
}

TEST(Monotonic, WriteBackNeverBelowWriteThrough) {
  for (const auto& base : kBases) {
    SCOPED_TRACE(base[0]);
    EXPECT_GE(Tps(base, "controller.write_policy=write-back"),
              Tps(base, "controller.write_policy=write-through"));
  }
}

// Random TPC-B: more disks at the same level never lower predicted tps (parity and
// mirror work spreads over every member, whatever the stripe and block).
TEST(Monotonic, MoreDisksNeverLowerTps) {
  const struct {
    const char* level;
    std::vector<int> disks;
    int span_members;
  } series[] = {{"raid0", {4, 8, 12, 16, 24}, 0}, {"raid10", {4, 8, 12, 16, 24}, 0},
                {"raid5", {4, 8, 12, 16, 24}, 0}, {"raid6", {4, 8, 12, 16, 24}, 0},
                {"raid50", {6, 12, 18, 24}, 3},   {"raid100", {8, 12, 16, 24}, 4}};
  for (const auto& s : series) {
    for (const char* fs : {"ufs2", "ext4"}) {
      for (const char* stripe : {"64k", "256k"}) {
        double previous = 0;
        for (int d : s.disks) {
          SCOPED_TRACE(std::string(s.level) + " " + fs + " " + stripe + " x" + std::to_string(d));
          std::vector<std::string> sets = {std::string("array.level=") + s.level,
                                           "array.disks=" + std::to_string(d),
                                           std::string("array.stripe=") + stripe};
          if (s.span_members) sets.push_back("array.spans=" + std::to_string(d / s.span_members));
          if (std::string(fs) == "ext4") {
            for (const char* k :
                 {"filesystem.type=ext4", "filesystem.blocks_per_group=0",
                  "filesystem.max_blocks_per_group=0", "filesystem.block_size=4k",
                  "filesystem.fragment_size=4k", "filesystem.partition_offset=1MiB"})
              sets.push_back(k);
          }
          auto p = Predict(Base(sets));
          ASSERT_TRUE(p.ok()) << p.status().message();
          EXPECT_GE(p->tps, previous * 0.999);
          previous = p->tps;
        }
      }
    }
  }
}

}  // namespace
}  // namespace pgstorsim
