// predict's data writes through the OS page cache (run_writes.h, RunWrites::WrittenShare;
// docs/model.md, "Data writes through the OS page cache").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/storage_model.h"
#include "model_test_util.h"
#include "pgmodel/demands.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

// A throttled RAID 10 without a controller cache, the WAL elsewhere, scale 20 (300 MiB)
// behind 16 MiB of shared buffers: every transaction evicts about one dirty page.
Scenario ThrottledRaid10(std::vector<std::string> more) {
  std::vector<std::string> o = {"host.ram=1107296256",
                                "host.os_cache=16MiB",
                                "postgres.shared_buffers=16MiB",
                                "postgres.wal_on_data_volume=false",
                                "controller.kind=hba",
                                "controller.cache_size=0",
                                "array.level=raid10",
                                "array.disks=4",
                                "array.stripe=128KiB",
                                "disks.type=throttled",
                                "disks.read_iops=150",
                                "disks.write_iops=150",
                                "disks.capacity=2GiB",
                                "workload.scale=20",
                                "workload.clients=4",
                                "workload.cache=warm",
                                "workload.duration=120s"};
  o.insert(o.end(), more.begin(), more.end());
  return MustScenario(o);
}

double PageWrites(const Scenario& s, double tps) {
  auto d = pgmodel::SampleDemands(s, tps * 120);
  EXPECT_TRUE(d.ok());
  return d.ok() ? d->page_writes : 0;
}

TEST(PredictOsWriteback, SmallPageCacheWritesTheEvictedPagesAtTheCap) {
  const Scenario s = ThrottledRaid10({});
  const Prediction p = MustPredict(s);
  const double page_writes = PageWrites(s, p.tps);
  EXPECT_GT(page_writes, 1.0);
  EXPECT_GT(p.writes_per_transaction, 0.85 * page_writes);
  // Four members at 150 writes/s, two copies of each 8 KiB write.
  EXPECT_LE(p.tps * p.writes_per_transaction, 4 * 150 / 2 * 1.01);
}

TEST(PredictOsWriteback, LargePageCacheHoldsAShortRunsWrites) {
  // 30 s and no checkpoint in it (max_wal_size 16 GB): only the page cache decides.
  const std::vector<std::string> short_run = {"workload.duration=30s",
                                              "postgres.max_wal_size=16GB"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.end(), short_run.begin(), short_run.end());
    return ThrottledRaid10(more);
  };
  const Prediction small = MustPredict(with({}));
  const Scenario s = with({"host.ram=9GiB", "host.os_cache=8GiB"});
  const Prediction large = MustPredict(s);
  EXPECT_GT(small.writes_per_transaction, 0.5 * PageWrites(s, small.tps));
  EXPECT_EQ(large.writes_per_transaction, 0);  // 819 MiB background threshold, 30 s.
  EXPECT_GT(large.tps, 1.2 * small.tps);
  // The same cache with small thresholds given (vm.dirty_background_bytes): written.
  const Prediction given =
      MustPredict(with({"host.ram=9GiB", "host.os_cache=8GiB", "host.dirty_background=1MiB",
                        "host.dirty_limit=2MiB"}));
  EXPECT_GT(given.writes_per_transaction, 0.5 * PageWrites(s, given.tps));
  EXPECT_LT(given.tps, 0.9 * large.tps);
}

// The demands' cycle host (pgmodel/demands.h) holds shared buffers plus the dirty pages
// the OS merges a second eviction into: a page evicted dirty and dirtied again while
// held is written once, so holding more pages writes fewer a transaction.
TEST(PredictOsWriteback, PagesTheOsHoldsDirtyAreWrittenOnceWhenDirtiedAgain) {
  const Scenario s = ThrottledRaid10({});
  const double run = 20000;
  auto none = pgmodel::DemandSampler(s, 0).Sample(run);
  auto some = pgmodel::DemandSampler(s, 8192).Sample(run);  // 64 MiB.
  auto all = pgmodel::DemandSampler(s, 65536).Sample(run);  // 512 MiB: the database.
  ASSERT_TRUE(none.ok() && some.ok() && all.ok());
  // 16 MiB of buffers over 300 MiB: about one dirty eviction a transaction.
  EXPECT_GT(none->page_writes, 1.0);
  EXPECT_LT(some->page_writes, 0.95 * none->page_writes);
  EXPECT_LT(all->page_writes, 0.5 * none->page_writes);
}

}  // namespace
}  // namespace pgstorsim
