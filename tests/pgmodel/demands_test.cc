// DemandSampler on a thinned database (pgmodel/demands.h): a long checkpoint cycle
// measured on a database k times smaller gives the demands of the whole one.
#include "pgmodel/demands.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pgstorsim::pgmodel {
namespace {

constexpr double kNeverThinned = std::numeric_limits<double>::infinity();

// A PostgreSQL 15 host: scale 200 (20 M accounts), 2 GiB of shared buffers, a
// checkpoint every 512 MiB of WAL: a cycle of about 30000 transactions.
HostConfig LongCycleHost() {
  HostConfig c;
  c.scale = 200;
  c.cache.shared_buffers_pages = (2LL << 30) / 8192;
  c.cache.os_cache_pages = 0;
  c.checkpoint_wal_bytes = 512LL << 20;
  return c;
}

// Scale 5 (75 MB) in 2 GiB of buffers, a checkpoint every 96 MiB of WAL: a cycle of
// about 53000 transactions by its WAL.
HostConfig SmallDatabaseHost() {
  HostConfig c = LongCycleHost();
  c.scale = 5;
  c.checkpoint_wal_bytes = 96LL << 20;
  return c;
}

// `c`'s demands over a run of `run` transactions, its cycles run whole and thinned.
struct WholeAndThinned {
  HostDemands exact;
  HostDemands thinned;
};
::testing::AssertionResult SampleBoth(const HostConfig& c, double run, WholeAndThinned* out) {
  auto exact = DemandSampler(c, kNeverThinned).Sample(run);
  if (!exact.ok()) return ::testing::AssertionFailure() << exact.status().message();
  auto thinned = DemandSampler(c).Sample(run);
  if (!thinned.ok()) return ::testing::AssertionFailure() << thinned.status().message();
  *out = {*exact, *thinned};
  return ::testing::AssertionSuccess();
}

void ExpectWithin(double thinned, double exact, double relative, const char* what) {
  EXPECT_NEAR(thinned, exact, relative * exact) << what;
}

void ExpectSameDemands(const HostDemands& thinned, const HostDemands& exact, double relative) {
  ExpectWithin(thinned.page_writes, exact.page_writes, relative, "page writes");
  ExpectWithin(thinned.wal_lsn_bytes, exact.wal_lsn_bytes, relative, "WAL bytes");
  ExpectWithin(thinned.wal_record_bytes, exact.wal_record_bytes, relative, "WAL records");
  ExpectWithin(thinned.full_page_images, exact.full_page_images, relative, "images");
  ExpectWithin(thinned.non_hot_updates, exact.non_hot_updates, relative, "non-HOT updates");
}

TEST(DemandsThinned, ALongCycleMeasuredOnAThinnedDatabaseGivesTheWholeDatabasesDemands) {
  WholeAndThinned d;
  ASSERT_TRUE(SampleBoth(LongCycleHost(), 0, &d));
  // The cycle is long enough to be thinned about twentyfold, and reported at full length.
  EXPECT_GT(d.exact.cycle_transactions, 16 * DemandSampler::kThinnedCycle);
  EXPECT_NEAR(static_cast<double>(d.thinned.cycle_transactions),
              static_cast<double>(d.exact.cycle_transactions),
              0.01 * static_cast<double>(d.exact.cycle_transactions));
  // A fresh database: nearly every update moves its row and logs two images.
  EXPECT_GT(d.exact.non_hot_updates, 0.9);
  ExpectSameDemands(d.thinned, d.exact, 0.02);
}

TEST(DemandsThinned, BuffersThatCannotHoldACycleAreThinnedWithTheData) {
  // 64 MiB of buffers against the ~100000 pages a cycle dirties: dirty evictions, and
  // pages dirtied again after them are written again.
  HostConfig c = LongCycleHost();
  c.cache.shared_buffers_pages = (64LL << 20) / 8192;
  WholeAndThinned d;
  ASSERT_TRUE(SampleBoth(c, 0, &d));
  auto roomy = DemandSampler(LongCycleHost(), kNeverThinned).Sample(0);
  ASSERT_TRUE(roomy.ok());
  EXPECT_GT(d.exact.page_writes, 1.05 * roomy->page_writes);  // Written again.
  ExpectSameDemands(d.thinned, d.exact, 0.02);
}

TEST(DemandsThinned, OverALongRunTheAgedHeapIsTheWholeDatabasesToo) {
  // 300000 transactions (ten cycles): pruned pages take later updates HOT.
  const HostConfig c = LongCycleHost();
  WholeAndThinned d;
  ASSERT_TRUE(SampleBoth(c, 300000, &d));
  auto fresh = DemandSampler(c, kNeverThinned).Sample(0);
  ASSERT_TRUE(fresh.ok());
  EXPECT_LT(d.exact.non_hot_updates, 0.9 * fresh->non_hot_updates);  // The run ages the heap.
  ExpectSameDemands(d.thinned, d.exact, 0.02);
}

TEST(DemandsThinned, ACycleUnderTwiceAThinnedOneIsThinnedOverALongRun) {
  // A checkpoint_segments = 3 cycle (about 2500 transactions here, 2823 on the M5110e)
  // over a run a hundred cycles long: thinned about 1.7-fold, the skips with it.
  HostConfig c = LongCycleHost();
  c.checkpoint_wal_bytes = 40LL << 20;
  WholeAndThinned d;
  ASSERT_TRUE(SampleBoth(c, 250000, &d));
  EXPECT_GT(d.exact.cycle_transactions, DemandSampler::kThinAbove);
  EXPECT_LT(d.exact.cycle_transactions, 2 * DemandSampler::kThinnedCycle);
  EXPECT_NEAR(static_cast<double>(d.thinned.cycle_transactions),
              static_cast<double>(d.exact.cycle_transactions),
              0.02 * static_cast<double>(d.exact.cycle_transactions));
  EXPECT_NE(d.thinned.page_writes, d.exact.page_writes);  // Measured apart.
  ExpectSameDemands(d.thinned, d.exact, 0.02);
}

TEST(DemandsThinned, ACycleShorterThanTheThresholdIsMeasuredAsItIs) {
  HostConfig c = LongCycleHost();
  c.checkpoint_wal_bytes = 28LL << 20;  // About 1750 transactions.
  WholeAndThinned d;
  ASSERT_TRUE(SampleBoth(c, 50000, &d));
  // Longer than a thinned cycle, not longer than the threshold.
  EXPECT_GT(d.exact.cycle_transactions, DemandSampler::kThinnedCycle);
  EXPECT_LE(d.exact.cycle_transactions, DemandSampler::kThinAbove);
  EXPECT_EQ(d.thinned.cycle_transactions, d.exact.cycle_transactions);
  EXPECT_EQ(d.thinned.page_writes, d.exact.page_writes);
  EXPECT_EQ(d.thinned.wal_lsn_bytes, d.exact.wal_lsn_bytes);
  EXPECT_EQ(d.thinned.full_page_images, d.exact.full_page_images);
}

TEST(DemandsCycle, ACycleEndsWhereItsWalReachesTheTrigger) {
  // After its first pass over the pages a cycle logs few images, so its WAL per
  // transaction falls and the cycle is far longer than its first 1000 transactions'
  // rate says (PostgreSQL requests the checkpoint when the WAL since the redo point
  // reaches the trigger).
  const HostConfig c = SmallDatabaseHost();
  for (double thin_above : {kNeverThinned, DemandSampler::kThinAbove}) {
    auto d = DemandSampler(c, thin_above).Sample(0);
    ASSERT_TRUE(d.ok()) << d.status().message();
    const double cycle_wal = d->wal_lsn_bytes * static_cast<double>(d->cycle_transactions);
    EXPECT_GE(cycle_wal, 0.999 * static_cast<double>(c.checkpoint_wal_bytes)) << thin_above;
    EXPECT_LE(cycle_wal, 1.01 * static_cast<double>(c.checkpoint_wal_bytes)) << thin_above;
    // About 53000 transactions and 0.18 images each (at the first 1000's rate: about
    // 7200 and 0.86).
    EXPECT_GT(d->cycle_transactions, 40000) << thin_above;
    EXPECT_LT(d->full_page_images, 0.3) << thin_above;
  }
}

TEST(DemandsCycle, ACheckpointTimeoutEndsACycleBeforeItsWalTrigger) {
  // The scale-5 cycle lasts about 53000 transactions by its WAL; a timeout at 20000
  // ends it there: every page it dirtied is written once in fewer transactions.
  const HostConfig c = SmallDatabaseHost();
  for (double thin_above : {kNeverThinned, DemandSampler::kThinAbove}) {
    DemandSampler sampler(c, thin_above);
    auto whole = sampler.Sample(0);
    auto cut = sampler.Sample(0, 20000);
    ASSERT_TRUE(whole.ok() && cut.ok());
    EXPECT_FALSE(whole->cycle_cut);
    EXPECT_TRUE(cut->cycle_cut);
    EXPECT_NEAR(static_cast<double>(cut->cycle_transactions), 20000, 0.05 * 20000) << thin_above;
    EXPECT_GT(cut->page_writes, 1.5 * whole->page_writes) << thin_above;
    // A timeout beyond the WAL cycle changes nothing.
    auto late = DemandSampler(c, thin_above).Sample(0, 200000);
    ASSERT_TRUE(late.ok());
    EXPECT_FALSE(late->cycle_cut);
    EXPECT_EQ(late->page_writes, whole->page_writes) << thin_above;
  }
}

TEST(DemandsThinned, AWorkloadThatLogsNoWalHasNoDemandsOverAnyRun) {
  HostConfig c = LongCycleHost();
  c.workload = WorkloadKind::kSelectOnly;
  for (double run : {0.0, 1e6}) {
    auto d = DemandSampler(c).Sample(run);
    ASSERT_TRUE(d.ok()) << d.status().message();
    EXPECT_EQ(d->page_writes, 0) << run;
    EXPECT_EQ(d->wal_lsn_bytes, 0) << run;
    EXPECT_EQ(d->full_page_images, 0) << run;
  }
}

}  // namespace
}  // namespace pgstorsim::pgmodel
