// The cache policies index pages densely per file and fall back to a hash map for
// unusual ids; both paths must behave the same.
#include "cache/page_index.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cache/buffer_cache.h"

namespace pgstorsim {
namespace {

// Ids in the dense range, beyond it, and negative blocks, in one file and across files.
std::vector<PageId> MixedPages() {
  return {{0, 0},
          {0, 5},
          {3, 0},
          {0, PageIndex::kMaxDenseBlocks},
          {0, -1},
          {PageIndex::kMaxDenseFiles + 7, 2},
          {0xFFFFFFFFu, int64_t{1} << 40},
          {1, 100000}};
}

TEST(PageIndexTest, FindsInsertedPagesOnBothPaths) {
  PageIndex index;
  const std::vector<PageId> pages = MixedPages();
  for (size_t i = 0; i < pages.size(); ++i) {
    EXPECT_EQ(index.Find(pages[i]), -1);
    index.Insert(pages[i], static_cast<int32_t>(i));
  }
  EXPECT_EQ(index.size(), static_cast<int64_t>(pages.size()));
  for (size_t i = 0; i < pages.size(); ++i)
    EXPECT_EQ(index.Find(pages[i]), static_cast<int32_t>(i));
  EXPECT_EQ(index.Find({0, 6}), -1);  // Neighbours of present pages stay absent.
  EXPECT_EQ(index.Find({2, 0}), -1);
  EXPECT_EQ(index.Find({0, PageIndex::kMaxDenseBlocks + 1}), -1);
  for (const PageId& p : pages) index.Erase(p);
  EXPECT_EQ(index.size(), 0);
  for (const PageId& p : pages) EXPECT_EQ(index.Find(p), -1);
}

// The LRU gives the same answers for pages outside the dense range as inside it.
TEST(PageIndexTest, LruEvictsInOrderAcrossIndexPaths) {
  const std::vector<PageId> pages = MixedPages();
  auto lru = Lru::Create(static_cast<int64_t>(pages.size()) - 1);
  for (const PageId& p : pages) EXPECT_FALSE(lru->Access(p));
  // The oldest (pages[0]) was evicted; the rest remain.
  EXPECT_FALSE(lru->Contains(pages[0]));
  for (size_t i = 1; i < pages.size(); ++i) EXPECT_TRUE(lru->Contains(pages[i]));
  EXPECT_TRUE(lru->Access(pages[1]));   // Now most recent: pages[2] is the oldest.
  EXPECT_FALSE(lru->Access(pages[0]));  // Evicts pages[2].
  EXPECT_FALSE(lru->Contains(pages[2]));
  EXPECT_TRUE(lru->Contains(pages[1]));
  EXPECT_EQ(lru->size(), static_cast<int64_t>(pages.size()) - 1);
}

TEST(PageIndexTest, ClockSweepTracksSparsePagesLikeDenseOnes) {
  auto clock = ClockSweep::Create(2, 5);
  bool valid = false, dirty = false;
  PageId evicted;
  const PageId far{PageIndex::kMaxDenseFiles + 1, int64_t{1} << 35};
  EXPECT_FALSE(clock->Access(far, true, &valid, &evicted, &dirty));
  EXPECT_FALSE(clock->Access({0, 1}, false, &valid, &evicted, &dirty));
  EXPECT_TRUE(clock->Access(far, false, &valid, &evicted, &dirty));
  EXPECT_EQ(clock->UsageCount(far), 2);
  // {0, 1} has the lower usage count: the sweep evicts it, then keeps `far`.
  EXPECT_FALSE(clock->Access({0, 2}, false, &valid, &evicted, &dirty));
  ASSERT_TRUE(valid);
  EXPECT_EQ(evicted, (PageId{0, 1}));
  EXPECT_TRUE(clock->Contains(far));
  EXPECT_EQ(clock->TakeDirty(), std::vector<PageId>{far});
}

// A file capped at Presize keeps blocks below the cap dense and finds every other block
// through the hash map, created, found and forgotten like the rest.
TEST(PageIndexTest, CappedFileSendsBlocksBeyondTheCapToTheHashMap) {
  struct Slot {
    int32_t v = -1;
    bool operator==(const Slot& o) const { return v == o.v; }
  };
  PageTable<Slot> table;
  table.SetDenseLimit(1000);
  table.Presize(0, 10, /*cap=*/true);
  EXPECT_TRUE(table.Dense({0, 9}));
  EXPECT_FALSE(table.Dense({0, 10}));
  EXPECT_TRUE(table.Dense({1, 999}));  // Other files keep the table's limit.
  const std::vector<int64_t> blocks = {0, 9, 10, 500, 5000};
  for (int64_t b : blocks) table.Get({0, b})->v = static_cast<int32_t>(b);
  for (int64_t b : blocks) {
    ASSERT_NE(table.Find({0, b}), nullptr) << b;
    EXPECT_EQ(table.Find({0, b})->v, b);
  }
  EXPECT_EQ(table.Find({0, 11}), nullptr);
  table.Find({0, 500})->v = -1;
  table.Forget({0, 500});
  EXPECT_EQ(table.Find({0, 500}), nullptr);
  EXPECT_EQ(table.Find({0, 5000})->v, 5000);
}

}  // namespace
}  // namespace pgstorsim
