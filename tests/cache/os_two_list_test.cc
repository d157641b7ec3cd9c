// The OS cache's two lists (Linux's active and inactive file LRUs, cache/policies.h):
// against a plain linked-list reference through random operations, the properties
// that matter for a warm run (pages touched once go first, the active list is capped
// under pressure), BufferCache's warm state and WAL pages, and the ratio helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <vector>

#include "cache/buffer_cache.h"
#include "cache/policies.h"
#include "common/random.h"

namespace pgstorsim {
namespace {

PageId P(int64_t block, uint32_t file = 0) { return {file, block}; }

// Linked lists, front = most recent.
class ReferenceTwoList {
 public:
  ReferenceTwoList(size_t capacity, int ratio) : capacity_(capacity), ratio_(ratio) {}
  bool Access(const PageId& p) {
    if (Erase(&active_, p)) {
      active_.push_front(p);
      return true;
    }
    if (Erase(&inactive_, p)) {
      active_.push_front(p);
      if (size() >= capacity_) Balance();
      return true;
    }
    if (size() >= capacity_) {
      Balance();
      std::list<PageId>& victims = inactive_.empty() ? active_ : inactive_;
      victims.pop_back();
    }
    inactive_.push_front(p);
    return false;
  }
  bool Contains(const PageId& p) const { return In(active_, p) || In(inactive_, p); }
  size_t size() const { return active_.size() + inactive_.size(); }
  size_t active_size() const { return active_.size(); }

 private:
  static bool In(const std::list<PageId>& l, const PageId& p) {
    return std::find(l.begin(), l.end(), p) != l.end();
  }
  static bool Erase(std::list<PageId>* l, const PageId& p) {
    auto it = std::find(l->begin(), l->end(), p);
    if (it == l->end()) return false;
    l->erase(it);
    return true;
  }
  void Balance() {
    while (active_.size() > static_cast<size_t>(ratio_) * inactive_.size()) {
      inactive_.push_front(active_.back());
      active_.pop_back();
    }
  }
  size_t capacity_;
  int ratio_;
  std::list<PageId> active_, inactive_;
};

TEST(OsTwoListTest, MatchesReferenceThroughRandomAccesses) {
  for (int ratio : {1, 3}) {
    Random random(7 + ratio);
    LruImpl lru(40, nullptr, ratio);
    ReferenceTwoList ref(40, ratio);
    for (int i = 0; i < 20000; ++i) {
      // Skewed: a hot set of 20 pages and a cold range of 200.
      const bool hot = random.UniformInt(0, 2) == 0;
      const PageId p = P(hot ? random.UniformInt(0, 19) : random.UniformInt(20, 219),
                         static_cast<uint32_t>(random.UniformInt(0, 1)));
      ASSERT_EQ(lru.Access(p), ref.Access(p)) << "access " << i << " ratio " << ratio;
      ASSERT_EQ(lru.size(), static_cast<int64_t>(ref.size()));
      ASSERT_EQ(lru.active_size(), static_cast<int64_t>(ref.active_size()));
    }
    for (int64_t b = 0; b < 220; ++b) EXPECT_EQ(lru.Contains(P(b)), ref.Contains(P(b)));
  }
}

TEST(OsTwoListTest, PagesTouchedOnceGoBeforePagesReadTwice) {
  LruImpl lru(10, nullptr, 1);
  for (int64_t b = 0; b < 5; ++b) lru.Access(P(b));
  for (int64_t b = 0; b < 5; ++b) EXPECT_TRUE(lru.Access(P(b)));  // Now active.
  EXPECT_EQ(lru.active_size(), 5);
  // A stream of pages touched once (misses, WAL) cycles through the inactive list.
  for (int64_t b = 100; b < 200; ++b) EXPECT_FALSE(lru.Access(P(b)));
  for (int64_t b = 0; b < 5; ++b) EXPECT_TRUE(lru.Contains(P(b))) << b;
  EXPECT_EQ(lru.size(), 10);
  // One list: the same stream evicts them.
  LruImpl plain(10, nullptr, 0);
  for (int64_t b = 0; b < 5; ++b) plain.Access(P(b));
  for (int64_t b = 0; b < 5; ++b) plain.Access(P(b));
  for (int64_t b = 100; b < 200; ++b) plain.Access(P(b));
  for (int64_t b = 0; b < 5; ++b) EXPECT_FALSE(plain.Contains(P(b))) << b;
}

TEST(OsTwoListTest, ActiveListIsCappedOnlyUnderPressure) {
  LruImpl lru(8, nullptr, 1);
  for (int64_t b = 0; b < 6; ++b) lru.Access(P(b));
  for (int64_t b = 0; b < 6; ++b) lru.Access(P(b));
  EXPECT_EQ(lru.active_size(), 6);  // Not full: no balancing.
  lru.Access(P(50));
  lru.Access(P(51));  // Full now: the next promotion balances.
  lru.Access(P(50));
  EXPECT_LE(lru.active_size(), lru.size() - lru.active_size());
  EXPECT_EQ(lru.size(), 8);
}

TEST(OsTwoListTest, RatioFollowsTheKernel) {
  const int64_t gib_pages = (int64_t{1} << 30) / 8192;
  EXPECT_EQ(LinuxActiveRatio(gib_pages / 4), 1);  // Below 1 GiB.
  EXPECT_EQ(LinuxActiveRatio(gib_pages), 3);      // int_sqrt(10).
  EXPECT_EQ(LinuxActiveRatio(10 * gib_pages), 10);
  EXPECT_EQ(LinuxActiveRatio(18 * gib_pages), 13);  // int_sqrt(180).
  EXPECT_EQ(OsActiveRatio(gib_pages / 4, true), 1);
  EXPECT_EQ(OsActiveRatio(gib_pages * 4, true), 6);
  EXPECT_EQ(OsActiveRatio(gib_pages * 4, false), 0);  // UFS2 (FreeBSD): one list.
}

TEST(OsTwoListTest, ReusableCachePagesIsTheActiveShareWhenTheDatabaseDoesNotFit) {
  // 240 MiB in all, 32 MiB shared buffers, ratio 1: 32 + 208 / 2 = 136 MiB.
  EXPECT_EQ(ReusableCachePages(30720, 4096, 57600, 1), 4096 + 13312);
  EXPECT_EQ(ReusableCachePages(30720, 4096, 9600, 1), 30720);   // Fits: all of it.
  EXPECT_EQ(ReusableCachePages(30720, 4096, 57600, 0), 30720);  // One list.
  EXPECT_EQ(ReusableCachePages(30720, 4096, 57600, 3), 4096 + 26624 * 3 / 4);
}

TEST(OsTwoListTest, WarmStateLosesTheOsCopiesOfSharedBuffersFirst) {
  CacheConfig config;
  config.shared_buffers_pages = 16;
  config.os_cache_pages = 64;
  config.os_active_ratio = 1;
  auto cache = BufferCache::Create(config);
  ASSERT_TRUE(cache.ok());
  std::vector<PageId> hottest;
  for (int64_t b = 0; b < 64; ++b) hottest.push_back(P(b));
  (*cache)->Prewarm(hottest);
  EXPECT_TRUE((*cache)->InSharedBuffers(P(0)));
  EXPECT_TRUE((*cache)->InOsCache(P(0)));
  // WAL pages written once (another file) push out the once-read copies of the pages
  // shared buffers hold, not the pages read twice.
  for (int64_t b = 0; b < 16; ++b) (*cache)->WriteOsPage(P(b, 1000));
  EXPECT_TRUE((*cache)->InOsCache(P(15, 1000)));
  for (int64_t b = 0; b < 16; ++b) EXPECT_FALSE((*cache)->InOsCache(P(b))) << b;
  for (int64_t b = 32; b < 64; ++b) EXPECT_TRUE((*cache)->InOsCache(P(b))) << b;
  EXPECT_EQ((*cache)->stats().touches(), 0u);
}

TEST(OsTwoListTest, NegativeRatioIsRefused) {
  CacheConfig config;
  config.os_active_ratio = -1;
  auto cache = BufferCache::Create(config);
  ASSERT_FALSE(cache.ok());
  EXPECT_NE(cache.status().message().find("os_active_ratio"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
