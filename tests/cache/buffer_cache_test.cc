#include "cache/buffer_cache.h"

#include <gtest/gtest.h>

#include "common/random.h"

namespace pgstorsim {
namespace {

PageId P(int64_t block, uint32_t file = 0) { return {file, block}; }

struct Access {
  bool hit;
  bool evicted_valid;
  PageId evicted;
  bool evicted_dirty;
};

Access Touch(ClockSweep* clock, int64_t block, bool dirty = false) {
  Access a{};
  a.hit = clock->Access(P(block), dirty, &a.evicted_valid, &a.evicted, &a.evicted_dirty);
  return a;
}

TEST(ClockSweepTest, UsesFreeBuffersFirstThenSweeps) {
  auto clock = ClockSweep::Create(3, 5);
  for (int b = 0; b < 3; ++b) EXPECT_FALSE(Touch(clock.get(), b).evicted_valid);
  EXPECT_EQ(clock->size(), 3);
  EXPECT_EQ(clock->UsageCount(P(0)), 1);
  // All at usage 1: the sweep decrements 0,1,2 and evicts 0 on the second lap.
  Access a = Touch(clock.get(), 10);
  EXPECT_FALSE(a.hit);
  ASSERT_TRUE(a.evicted_valid);
  EXPECT_EQ(a.evicted, P(0));
  EXPECT_EQ(clock->UsageCount(P(1)), 0);
  EXPECT_EQ(clock->UsageCount(P(10)), 1);
}

TEST(ClockSweepTest, UsageCountProtectsHotPagesAndSaturates) {
  auto clock = ClockSweep::Create(3, 5);
  for (int b = 0; b < 3; ++b) Touch(clock.get(), b);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(Touch(clock.get(), 1).hit);
  EXPECT_EQ(clock->UsageCount(P(1)), 5);  // BM_MAX_USAGE_COUNT.
  // New pages keep replacing the cold ones; page 1 survives 4 misses.
  for (int b = 100; b < 104; ++b) {
    Access a = Touch(clock.get(), b);
    ASSERT_TRUE(a.evicted_valid);
    EXPECT_NE(a.evicted, P(1)) << "evicted hot page at miss " << b;
  }
  EXPECT_TRUE(clock->Contains(P(1)));
}

TEST(ClockSweepTest, DirtyVictimsAndTakeDirty) {
  auto clock = ClockSweep::Create(2, 5);
  Touch(clock.get(), 7, true);
  Touch(clock.get(), 3, true);
  EXPECT_EQ(clock->dirty_pages(), 2);
  std::vector<PageId> dirty = clock->TakeDirty();
  EXPECT_EQ(dirty, (std::vector<PageId>{P(3), P(7)}));  // Sorted.
  EXPECT_EQ(clock->dirty_pages(), 0);
  Touch(clock.get(), 3, true);
  Access a = Touch(clock.get(), 9);
  ASSERT_TRUE(a.evicted_valid);
  EXPECT_EQ(a.evicted, P(7));
  EXPECT_FALSE(a.evicted_dirty);  // Cleaned by TakeDirty.
  a = Touch(clock.get(), 11);
  ASSERT_TRUE(a.evicted_valid);
  EXPECT_EQ(a.evicted, P(3));
  EXPECT_TRUE(a.evicted_dirty);
}

TEST(ClockSweepTest, CleanAllIsTakeDirtyWithoutTheList) {
  auto listed = ClockSweep::Create(4, 5);
  auto counted = ClockSweep::Create(4, 5);
  for (ClockSweep* clock : {listed.get(), counted.get()}) {
    Touch(clock, 7, true);
    Touch(clock, 3, true);
    Touch(clock, 5, false);
  }
  EXPECT_EQ(counted->CleanAll(), static_cast<int64_t>(listed->TakeDirty().size()));
  EXPECT_EQ(counted->dirty_pages(), 0);
  EXPECT_EQ(counted->CleanAll(), 0);
  // The frames are clean: dirtied again, each counts once more.
  Touch(counted.get(), 3, true);
  EXPECT_EQ(counted->CleanAll(), 1);
}

// Frames are taken in order; the pool's size is the configured one from the start, and
// a frame not used yet is reusable and holds nothing to write.
TEST(ClockSweepTest, UnusedFramesCountAndAreReusable) {
  auto clock = ClockSweep::Create(1000, 5);
  EXPECT_EQ(clock->frames(), 1000);
  Touch(clock.get(), 1, true);
  PageId written{};
  EXPECT_EQ(clock->CleanIfReusable(999, &written), ClockSweep::kReusable);
  EXPECT_EQ(clock->CleanIfReusable(0, &written), 0);  // Usage count 1.
  EXPECT_EQ(clock->dirty_pages(), 1);
}

TEST(LruTest, EvictsLeastRecentlyUsed) {
  auto lru = Lru::Create(3);
  EXPECT_FALSE(lru->Access(P(1)));
  EXPECT_FALSE(lru->Access(P(2)));
  EXPECT_FALSE(lru->Access(P(3)));
  EXPECT_TRUE(lru->Access(P(1)));   // 1 becomes most recent.
  EXPECT_FALSE(lru->Access(P(4)));  // Evicts 2.
  EXPECT_FALSE(lru->Contains(P(2)));
  EXPECT_TRUE(lru->Contains(P(1)));
  EXPECT_TRUE(lru->Contains(P(3)));
  lru->Insert(P(3));  // Refresh 3; next eviction takes 1.
  lru->Insert(P(5));
  EXPECT_FALSE(lru->Contains(P(1)));
  EXPECT_EQ(lru->size(), 3);
  auto none = Lru::Create(0);
  EXPECT_FALSE(none->Access(P(1)));
  EXPECT_FALSE(none->Contains(P(1)));
}

// Uniform access over D pages with a cache of C pages: hit ratio C/D after warm-up.
double SimulatedHitRatio(int64_t shared, int64_t os, int64_t distinct, uint64_t seed) {
  CacheConfig config;
  config.shared_buffers_pages = shared;
  config.os_cache_pages = os;
  auto cache = BufferCache::Create(config);
  EXPECT_TRUE(cache.ok());
  Random random(seed);
  std::vector<CacheIo> ios;
  for (int i = 0; i < 200000; ++i) {
    (*cache)->Touch(P(random.UniformInt(0, distinct - 1)), false, &ios);
  }
  (*cache)->ResetStats();
  for (int i = 0; i < 400000; ++i) {
    (*cache)->Touch(P(random.UniformInt(0, distinct - 1)), false, &ios);
  }
  const CacheStats& s = (*cache)->stats();
  return static_cast<double>(s.shared_hits + s.os_hits) / static_cast<double>(s.touches());
}

TEST(BufferCacheTest, SharedBuffersHitRatioMatchesAnalytic) {
  EXPECT_NEAR(SimulatedHitRatio(2500, 0, 10000, 1), 0.25, 0.015);
  EXPECT_NEAR(SimulatedHitRatio(6000, 0, 10000, 2), 0.60, 0.015);
}

TEST(BufferCacheTest, TwoLevelHitRatioIsAboutTheLargerCache) {
  // The OS cache sees every shared-buffer miss, so it holds most of what shared
  // buffers hold: the union is a little more than the OS cache alone.
  const double ratio = SimulatedHitRatio(1000, 5000, 10000, 3);
  EXPECT_GT(ratio, 0.50);
  EXPECT_LT(ratio, 0.60);
  // Shared buffers alone as large as the OS cache: the same ratio within noise.
  EXPECT_NEAR(SimulatedHitRatio(5000, 0, 10000, 4), 0.50, 0.015);
}

TEST(BufferCacheTest, MissReadsAndDirtyEvictionWrites) {
  CacheConfig config;
  config.shared_buffers_pages = 16;
  config.os_cache_pages = 16;
  auto cache = std::move(BufferCache::Create(config).value());
  std::vector<CacheIo> ios;
  EXPECT_EQ(cache->Touch(P(0), true, &ios), CacheOutcome::kMiss);
  ASSERT_EQ(ios.size(), 1u);
  EXPECT_EQ(ios[0].kind, CacheIo::kRead);
  EXPECT_EQ(ios[0].first, P(0));
  EXPECT_EQ(cache->Touch(P(0), false, &ios), CacheOutcome::kSharedHit);
  for (int b = 1; b <= 16; ++b) cache->Touch(P(b), false, &ios);
  // Page 0 (dirty, usage 2) was evicted by now or will be: drive until it is.
  for (int b = 17; b < 40 && cache->InSharedBuffers(P(0)); ++b) cache->Touch(P(b), false, &ios);
  ASSERT_FALSE(cache->InSharedBuffers(P(0)));
  int writes = 0;
  for (const CacheIo& io : ios) writes += io.kind == CacheIo::kWrite;
  EXPECT_EQ(writes, 1);
  EXPECT_EQ(cache->stats().dirty_evictions, 1u);
  EXPECT_TRUE(cache->InOsCache(P(0)));  // The write went through the OS cache.
  ios.clear();
  EXPECT_EQ(cache->Touch(P(0), false, &ios), CacheOutcome::kOsHit);
}

TEST(BufferCacheTest, PrewarmFillsBothHottestFirst) {
  CacheConfig config;
  config.shared_buffers_pages = 16;
  config.os_cache_pages = 32;
  auto cache = std::move(BufferCache::Create(config).value());
  std::vector<PageId> order;
  for (int b = 0; b < 40; ++b) order.push_back(P(b, 2));
  cache->Prewarm(order);
  EXPECT_TRUE(cache->InSharedBuffers(P(15, 2)));
  EXPECT_FALSE(cache->InSharedBuffers(P(16, 2)));
  EXPECT_TRUE(cache->InOsCache(P(0, 2)));  // Inclusive: double buffering.
  EXPECT_TRUE(cache->InOsCache(P(31, 2)));
  EXPECT_FALSE(cache->InOsCache(P(32, 2)));
  EXPECT_EQ(cache->dirty_pages(), 0);
  std::vector<CacheIo> ios;
  EXPECT_EQ(cache->Touch(P(3, 2), false, &ios), CacheOutcome::kSharedHit);
  EXPECT_EQ(cache->Touch(P(20, 2), false, &ios), CacheOutcome::kOsHit);
  EXPECT_EQ(cache->Touch(P(35, 2), false, &ios), CacheOutcome::kMiss);
  // The OS cache's least recent page was the coldest prewarmed one (31).
  EXPECT_FALSE(cache->InOsCache(P(31, 2)));
  EXPECT_TRUE(cache->InOsCache(P(30, 2)));
}

TEST(BufferCacheTest, CheckpointReturnsDirtyPagesOnce) {
  auto cache = std::move(BufferCache::Create(CacheConfig()).value());
  std::vector<CacheIo> ios;
  cache->Touch(P(5, 1), true, &ios);
  cache->Touch(P(2, 0), true, &ios);
  cache->Touch(P(9, 0), false, &ios);
  EXPECT_EQ(cache->Checkpoint(), (std::vector<PageId>{P(2, 0), P(5, 1)}));
  EXPECT_TRUE(cache->Checkpoint().empty());
  EXPECT_TRUE(cache->InSharedBuffers(P(5, 1)));
}

TEST(BufferCacheTest, CheckpointCountIsCheckpointsSize) {
  auto listed = std::move(BufferCache::Create(CacheConfig()).value());
  auto counted = std::move(BufferCache::Create(CacheConfig()).value());
  std::vector<CacheIo> ios;
  for (BufferCache* cache : {listed.get(), counted.get()}) {
    cache->Touch(P(5, 1), true, &ios);
    cache->Touch(P(2, 0), true, &ios);
    cache->Touch(P(9, 0), false, &ios);
    cache->Prefetch(P(9, 0));  // A hint: changes nothing.
  }
  EXPECT_EQ(counted->CheckpointCount(), static_cast<int64_t>(listed->Checkpoint().size()));
  EXPECT_EQ(counted->stats().buffers_checkpoint, 2u);
  EXPECT_EQ(counted->CheckpointCount(), 0);
  EXPECT_EQ(counted->dirty_pages(), 0);
}

TEST(BufferCacheTest, ReadaheadOnSequentialMisses) {
  CacheConfig config;
  config.shared_buffers_pages = 16;
  config.os_cache_pages = 1024;
  config.readahead_max_pages = 16;
  auto cache = std::move(BufferCache::Create(config).value());
  std::vector<CacheIo> ios;
  for (int b = 0; b < 64; ++b) cache->Touch(P(b), false, &ios);
  // 1, then 4, 8, 16, 16, ... pages per read: far fewer reads than pages.
  ASSERT_GE(ios.size(), 3u);
  EXPECT_EQ(ios[0].pages, 1);
  EXPECT_EQ(ios[1].pages, 4);
  EXPECT_EQ(ios[2].pages, 8);
  EXPECT_LE(ios.size(), 8u);
  EXPECT_GT(cache->stats().os_hits, 40u);
  // Random misses read one page.
  ios.clear();
  cache->Touch(P(5000), false, &ios);
  cache->Touch(P(3000), false, &ios);
  ASSERT_EQ(ios.size(), 2u);
  EXPECT_EQ(ios[1].pages, 1);
}

TEST(BufferCacheTest, RejectsBadConfig) {
  CacheConfig config;
  config.shared_buffers_pages = 4;
  StatusOr<std::unique_ptr<BufferCache>> cache = BufferCache::Create(config);
  ASSERT_FALSE(cache.ok());
  EXPECT_NE(cache.status().message().find("shared_buffers"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
