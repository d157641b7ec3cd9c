// The background writer of the cache model (BufferCache::BackgroundWriterRound,
// LruCleaner): PostgreSQL's BgBufferSync() cleaning ahead of the clock hand.
#include <gtest/gtest.h>

#include <set>

#include "cache/buffer_cache.h"
#include "common/random.h"

namespace pgstorsim {
namespace {

PageId P(int64_t block) { return {0, block}; }

struct Counts {
  uint64_t backend = 0;     // Writes appended by Touch() (dirty victims).
  uint64_t bgwriter = 0;    // Writes appended by BackgroundWriterRound().
  uint64_t checkpoint = 0;  // Pages handed back by Checkpoint().
  size_t max_round = 0;     // Most writes in one round.
};

// Uniform access over `distinct` pages, 30 % of them dirtying, with a bgwriter round
// every `touches_per_round` touches and a checkpoint every 20000 touches.
Counts Drive(BufferCache* cache, int64_t distinct, int touches, int touches_per_round,
             uint64_t seed) {
  Counts counts;
  Random random(seed);
  std::vector<CacheIo> ios;
  for (int i = 1; i <= touches; ++i) {
    ios.clear();
    cache->Touch(P(random.UniformInt(0, distinct - 1)), random.UniformDouble() < 0.3, &ios);
    for (const CacheIo& io : ios) counts.backend += io.kind == CacheIo::kWrite;
    if (i % 20000 == 0) counts.checkpoint += cache->Checkpoint().size();
    if (i % touches_per_round != 0) continue;
    ios.clear();
    cache->BackgroundWriterRound(&ios);
    counts.bgwriter += ios.size();
    counts.max_round = std::max(counts.max_round, ios.size());
    for (const CacheIo& io : ios) {
      EXPECT_EQ(io.kind, CacheIo::kWrite);
      EXPECT_EQ(io.pages, 1);
      EXPECT_TRUE(cache->InSharedBuffers(io.first)) << "bgwriter writes keep the page";
      EXPECT_TRUE(cache->InOsCache(io.first));
    }
  }
  return counts;
}

std::unique_ptr<BufferCache> MakeCache(int64_t maxpages, double multiplier = 2.0) {
  CacheConfig config;
  config.shared_buffers_pages = 2000;
  config.os_cache_pages = 4000;
  config.bgwriter_lru_maxpages = maxpages;
  config.bgwriter_lru_multiplier = multiplier;
  return std::move(BufferCache::Create(config).value());
}

TEST(BackgroundWriterTest, OffWritesNothingAndChangesNothing) {
  auto off = MakeCache(0);
  const Counts counts = Drive(off.get(), 10000, 100000, 500, 7);
  EXPECT_EQ(counts.bgwriter, 0u);
  EXPECT_EQ(off->stats().buffers_clean, 0u);
  EXPECT_GT(counts.backend, 1000u);
  // Same as never calling the round at all.
  auto never = MakeCache(0);
  const Counts plain = Drive(never.get(), 10000, 100000, 1 << 30, 7);
  EXPECT_EQ(plain.backend, counts.backend);
  EXPECT_EQ(never->stats().misses, off->stats().misses);
}

TEST(BackgroundWriterTest, BackendsWriteFewerDirtyBuffersWithTheBgwriter) {
  // Working set 5x shared_buffers: most allocations evict, many victims are dirty.
  auto off = MakeCache(0);
  auto on = MakeCache(100);
  const Counts without = Drive(off.get(), 10000, 200000, 500, 11);
  const Counts with = Drive(on.get(), 10000, 200000, 500, 11);
  EXPECT_GT(with.bgwriter, 1000u);
  EXPECT_LT(with.backend, without.backend / 2)
      << "backend writes " << with.backend << " with the bgwriter, " << without.backend
      << " without";
  // The bgwriter only cleans: shared buffers hold the same pages. (Cleaned pages enter
  // the OS cache when written, not when evicted, so OS hits move a little.)
  EXPECT_EQ(on->stats().shared_hits, off->stats().shared_hits);
  EXPECT_NEAR(static_cast<double>(on->stats().misses), static_cast<double>(off->stats().misses),
              0.02 * static_cast<double>(off->stats().misses));
}

TEST(BackgroundWriterTest, MaxpagesBoundsEachRound) {
  // Rounds far apart (2000 allocations x 2 wanted per round) against maxpages 25.
  auto cache = MakeCache(25);
  const Counts counts = Drive(cache.get(), 10000, 200000, 2500, 3);
  EXPECT_EQ(counts.max_round, 25u);
  EXPECT_GT(cache->stats().maxwritten_clean, 10u);
  EXPECT_LE(counts.bgwriter, 25u * (200000 / 2500));
}

TEST(BackgroundWriterTest, MultiplierZeroStillCleansTheIdleSlice) {
  // With no allocation estimate the round still scans frames / (120 s / 200 ms)
  // = 2000 / 600 = 3 frames ahead of what it estimates reusable.
  auto lazy = MakeCache(100, 0.0);
  auto eager = MakeCache(100, 4.0);
  const Counts slow = Drive(lazy.get(), 10000, 100000, 500, 5);
  const Counts fast = Drive(eager.get(), 10000, 100000, 500, 5);
  EXPECT_LT(slow.bgwriter, fast.bgwriter);
  EXPECT_GT(slow.backend, fast.backend);
}

TEST(BackgroundWriterTest, EveryDirtiedBufferIsWrittenOnceOrStillDirty) {
  auto cache = MakeCache(100);
  const Counts counts = Drive(cache.get(), 8000, 150000, 400, 9);
  const CacheStats& s = cache->stats();
  EXPECT_EQ(s.dirty_evictions, counts.backend);
  EXPECT_EQ(s.buffers_clean, counts.bgwriter);
  EXPECT_EQ(s.buffers_checkpoint, counts.checkpoint);
  EXPECT_GT(s.buffers_checkpoint, 0u);
  EXPECT_EQ(s.buffers_dirtied, s.dirty_evictions + s.buffers_clean + s.buffers_checkpoint +
                                   static_cast<uint64_t>(cache->dirty_pages()));
  EXPECT_EQ(s.buffers_alloc, s.os_hits + s.misses);
}

TEST(BackgroundWriterTest, CleansOnlyUnusedBuffersAheadOfTheHand) {
  // Four frames dirty with usage count 1 are not written; once the hand has swept them
  // to 0 they are reusable and the round writes them, in clock order.
  auto clock = ClockSweep::Create(4, 5);
  bool valid = false, dirty = false;
  PageId evicted;
  for (int b = 0; b < 4; ++b) clock->Access(P(b), true, &valid, &evicted, &dirty);
  PageId written;
  EXPECT_EQ(clock->CleanIfReusable(0, &written), 0);
  clock->Access(P(10), false, &valid, &evicted, &dirty);  // Sweeps all to 0, takes frame 0.
  EXPECT_TRUE(dirty);
  EXPECT_EQ(clock->CleanIfReusable(1, &written), ClockSweep::kReusable | ClockSweep::kWritten);
  EXPECT_EQ(written, P(1));
  EXPECT_EQ(clock->CleanIfReusable(1, &written), ClockSweep::kReusable);  // Now clean.
  EXPECT_EQ(clock->dirty_pages(), 2);
  const ClockSweep::SyncPoint point = clock->SyncStart();
  EXPECT_EQ(point.frame, 1);
  EXPECT_EQ(point.passes, 1u);
  EXPECT_EQ(point.recent_allocs, 5u);
  EXPECT_EQ(clock->SyncStart().recent_allocs, 0u);
}

TEST(BackgroundWriterTest, RejectsBadSettings) {
  CacheConfig config;
  config.bgwriter_lru_maxpages = -1;
  StatusOr<std::unique_ptr<BufferCache>> cache = BufferCache::Create(config);
  ASSERT_FALSE(cache.ok());
  EXPECT_NE(cache.status().message().find("bgwriter_lru_maxpages"), std::string::npos);
  config.bgwriter_lru_maxpages = 100;
  config.bgwriter_lru_multiplier = -1;
  EXPECT_FALSE(BufferCache::Create(config).ok());
  config.bgwriter_lru_multiplier = 2;
  config.bgwriter_delay_ms = 0;
  EXPECT_FALSE(BufferCache::Create(config).ok());
}

}  // namespace
}  // namespace pgstorsim
