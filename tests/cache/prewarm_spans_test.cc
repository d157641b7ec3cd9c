// BufferCache::Prewarm from spans: the same cache as prewarming the pages one by one,
// whatever the spans' boundaries, and the OS cache's recency order runs from the
// first span's first page (most recent) to the last prewarmed page.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "cache/buffer_cache.h"
#include "common/random.h"

namespace pgstorsim {
namespace {

std::unique_ptr<BufferCache> NewCache(const CacheConfig& config) {
  return std::move(BufferCache::Create(config).value());
}

std::unique_ptr<BufferCache> NewCache(int64_t shared, int64_t os, int ratio) {
  CacheConfig config;
  config.shared_buffers_pages = shared;
  config.os_cache_pages = os;
  config.os_active_ratio = ratio;
  return NewCache(config);
}

// Shared buffers of 16-200 pages, an OS cache of 0-400, 0-3 as its active ratio.
CacheConfig RandomSizes(Random* rng) {
  CacheConfig config;
  config.shared_buffers_pages = rng->UniformInt(16, 200);
  config.os_cache_pages = rng->UniformInt(0, 400);
  config.os_active_ratio = static_cast<int>(rng->UniformInt(0, 3));
  return config;
}

// Pages in runs over a few files, some repeated.
std::vector<PageId> RandomPages(Random* rng) {
  std::vector<PageId> pages;
  const int runs = static_cast<int>(rng->UniformInt(1, 30));
  for (int r = 0; r < runs; ++r) {
    const uint32_t file = static_cast<uint32_t>(rng->UniformInt(0, 3));
    const int64_t first = rng->UniformInt(0, 500);
    const int64_t n = rng->UniformInt(0, 3) == 0 ? 1 : rng->UniformInt(1, 80);
    for (int64_t b = 0; b < n; ++b) pages.push_back({file, first + b});
  }
  return pages;
}

// The same pages cut into spans at random places (never merged across runs).
std::vector<PageSpan> RandomCuts(const std::vector<PageId>& pages, Random* rng) {
  std::vector<PageSpan> spans;
  for (const PageId& p : pages) {
    const bool continues = !spans.empty() && spans.back().file == p.file &&
                           spans.back().first_block + spans.back().pages == p.block;
    if (continues && rng->UniformInt(0, 4) != 0) {
      ++spans.back().pages;
    } else {
      if (rng->UniformInt(0, 9) == 0) spans.push_back({p.file, 7, 0});  // Empty span.
      spans.push_back({p.file, p.block, 1});
    }
  }
  return spans;
}

// A page of files 0-4, blocks 0-700 (where RandomPages prewarms).
PageId NearPage(Random* rng) {
  const uint32_t file = static_cast<uint32_t>(rng->UniformInt(0, 4));
  return {file, rng->UniformInt(0, 700)};
}

// The same 2000 accesses on both caches, each page drawn by `page`; with
// `extend_one_in` > 0, about one in that many extends the page's file instead. Every
// outcome, every I/O and the checkpoint's pages must agree.
void ExpectSameAccesses(BufferCache* a, BufferCache* b, Random* rng,
                        const std::function<PageId()>& page, int extend_one_in = 0) {
  std::vector<CacheIo> ios_a, ios_b;
  for (int i = 0; i < 2000; ++i) {
    const PageId p = page();
    ASSERT_EQ(a->InSharedBuffers(p), b->InSharedBuffers(p));
    ASSERT_EQ(a->InOsCache(p), b->InOsCache(p));
    const bool dirty = rng->UniformInt(0, 3) == 0;
    if (extend_one_in > 0 && rng->UniformInt(1, extend_one_in) == 1) {
      a->Extend({p.file, 700 + i}, dirty, &ios_a);
      b->Extend({p.file, 700 + i}, dirty, &ios_b);
      continue;
    }
    ASSERT_EQ(a->Touch(p, dirty, &ios_a), b->Touch(p, dirty, &ios_b));
  }
  ASSERT_EQ(ios_a.size(), ios_b.size());
  for (size_t i = 0; i < ios_a.size(); ++i) {
    ASSERT_EQ(ios_a[i].first, ios_b[i].first);
    ASSERT_EQ(ios_a[i].kind, ios_b[i].kind);
  }
  ASSERT_EQ(a->Checkpoint(), b->Checkpoint());
  ASSERT_EQ(a->stats().buffers_dirtied, b->stats().buffers_dirtied);
}

TEST(PrewarmSpansTest, SameCacheAsPrewarmingEachPage) {
  Random rng(3);
  for (int trial = 0; trial < 300; ++trial) {
    const CacheConfig config = RandomSizes(&rng);
    const std::vector<PageId> pages = RandomPages(&rng);
    auto by_page = NewCache(config);
    auto by_span = NewCache(config);
    by_page->Prewarm(pages);
    by_span->Prewarm(RandomCuts(pages, &rng));
    SCOPED_TRACE(trial);
    ASSERT_NO_FATAL_FAILURE(
        ExpectSameAccesses(by_page.get(), by_span.get(), &rng, [&rng] { return NearPage(&rng); }));
  }
}

// Spans that reach far beyond the table's dense limit (a database much larger than the
// caches) change where the page table keeps entries, never what the cache does.
TEST(PrewarmSpansTest, FileLargerThanTheDenseLimitCachesTheSame) {
  Random rng(4);
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<PageId> pages = RandomPages(&rng);
    const int64_t total = static_cast<int64_t>(pages.size());
    if (total < 16) continue;
    // At most `total` pages placed: the spans appended below are never placed.
    const int64_t shared = rng.UniformInt(16, total);
    const int64_t os = rng.UniformInt(0, total);
    std::vector<PageSpan> spans = RandomCuts(pages, &rng);
    auto near = NewCache(shared, os, 1);
    auto far = NewCache(shared, os, 1);
    near->Prewarm(spans);
    spans.push_back({0, 0, 1000});
    spans.push_back({0, int64_t{1} << 32, 8});
    far->Prewarm(spans);
    SCOPED_TRACE(trial);
    ASSERT_NO_FATAL_FAILURE(ExpectSameAccesses(near.get(), far.get(), &rng, [&rng] {
      const uint32_t file = static_cast<uint32_t>(rng.UniformInt(0, 4));
      return PageId{file, rng.UniformInt(0, 3) == 0 ? (int64_t{1} << 32) + rng.UniformInt(0, 700)
                                                    : rng.UniformInt(0, 700)};
    }));
  }
}

// A page index kept wholly in the hash map (CacheConfig::dense_page_index false)
// changes where entries live, never what the cache does.
TEST(PrewarmSpansTest, HashMapPageIndexCachesTheSame) {
  Random rng(5);
  for (int trial = 0; trial < 100; ++trial) {
    CacheConfig config = RandomSizes(&rng);
    const std::vector<PageId> pages = RandomPages(&rng);
    auto dense = NewCache(config);
    config.dense_page_index = false;
    auto hashed = NewCache(config);
    const std::vector<PageSpan> spans = RandomCuts(pages, &rng);
    dense->Prewarm(spans);
    hashed->Prewarm(spans);
    SCOPED_TRACE(trial);
    ASSERT_NO_FATAL_FAILURE(ExpectSameAccesses(
        dense.get(), hashed.get(), &rng, [&rng] { return NearPage(&rng); }, /*extend_one_in=*/10));
  }
}

TEST(PrewarmSpansTest, HottestFirstAcrossSpans) {
  // 30 pages in three spans; shared buffers hold the first 16, the OS cache the first 20.
  auto cache = NewCache(16, 20, 0);
  cache->Prewarm(std::vector<PageSpan>{{1, 100, 10}, {2, 0, 5}, {1, 0, 15}});
  std::vector<PageId> order;
  for (int64_t b = 0; b < 10; ++b) order.push_back({1, 100 + b});
  for (int64_t b = 0; b < 5; ++b) order.push_back({2, b});
  for (int64_t b = 0; b < 15; ++b) order.push_back({1, b});
  for (size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(cache->InSharedBuffers(order[i]), i < 16) << i;
    EXPECT_EQ(cache->InOsCache(order[i]), i < 20) << i;
  }
  // New OS pages push out the coldest prewarmed ones first: 19, 18, ...
  for (int k = 1; k <= 10; ++k) {
    cache->WriteOsPage({1000, k});
    EXPECT_FALSE(cache->InOsCache(order[20 - k])) << k;
    EXPECT_TRUE(cache->InOsCache(order[19 - k])) << k;
  }
}

}  // namespace
}  // namespace pgstorsim
