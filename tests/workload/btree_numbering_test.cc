// BtreeNumbering against a page-by-page replay of nbtsort.c's allocation order
// (every leaf added one at a time, each page's block recorded as it is allocated).
#include "workload/btree_numbering.h"

#include <gtest/gtest.h>

#include <vector>

namespace pgstorsim {
namespace {

// The blocks of every inner page, per level in key order, and the block count.
struct Replayed {
  std::vector<std::vector<int64_t>> levels{{}};
  std::vector<int64_t> items{0};
  int64_t next_block = 1;
  int64_t cap = 0;

  void AddDownlink(size_t level) {
    if (level == items.size()) {
      levels.push_back({next_block++});
      items.push_back(0);
    }
    if (items[level] < cap) {
      ++items[level];
      return;
    }
    levels[level].push_back(next_block++);
    AddDownlink(level + 1);
    items[level] = 2;
  }
};

Replayed Replay(int64_t leaves, int64_t cap) {
  Replayed r;
  r.cap = cap;
  r.levels[0].push_back(r.next_block++);
  for (int64_t leaf = 1; leaf < leaves; ++leaf) {
    r.levels[0].push_back(r.next_block++);
    r.AddDownlink(1);
  }
  for (size_t level = 0; level + 1 < r.items.size(); ++level) r.AddDownlink(level + 1);
  return r;
}

void ExpectSameAsReplay(int64_t leaves, int64_t cap) {
  const Replayed want = Replay(leaves, cap);
  const BtreeNumbering got(leaves, cap);
  ASSERT_EQ(got.levels(), static_cast<int>(want.levels.size())) << leaves << " " << cap;
  EXPECT_EQ(got.total_blocks(), want.next_block) << leaves << " " << cap;
  EXPECT_EQ(got.leaves(), leaves);
  for (int64_t leaf = 0; leaf < leaves; ++leaf) {
    ASSERT_EQ(got.LeafBlock(leaf), want.levels[0][leaf]) << leaves << " " << cap << " " << leaf;
  }
  for (int level = 1; level < got.levels(); ++level) {
    ASSERT_EQ(got.LevelPages(level), static_cast<int64_t>(want.levels[level].size()));
    for (int64_t page = 0; page < got.LevelPages(level); ++page) {
      ASSERT_EQ(got.InnerBlock(level, page), want.levels[level][page])
          << leaves << " " << cap << " level " << level << " page " << page;
    }
  }
}

TEST(BtreeNumberingTest, SmallPagesEveryLeafCount) {
  // Caps of 3..7 items make trees of up to 7 levels from a few thousand leaves, so every
  // way the final downlinks can split pages (and add a root) occurs.
  for (int64_t cap = 3; cap <= 7; ++cap) {
    for (int64_t leaves = 1; leaves <= 2500; ++leaves) ExpectSameAsReplay(leaves, cap);
  }
}

TEST(BtreeNumberingTest, PostgresInnerPages) {
  // A cap of PostgreSQL's size: one to four levels, with leaf counts around where level
  // 1 gains its second and third page (287, 573) and where a fourth level starts (81797).
  for (int64_t leaves : {1, 2, 286, 287, 288, 572, 573, 81797, 81798, 81799, 81800, 200000}) {
    ExpectSameAsReplay(leaves, 286);
  }
}

TEST(BtreeNumberingTest, SingleLeafIsTheRoot) {
  const BtreeNumbering n;
  EXPECT_EQ(n.levels(), 1);
  EXPECT_EQ(n.total_blocks(), 2);
  EXPECT_EQ(n.LeafBlock(0), 1);
}

}  // namespace
}  // namespace pgstorsim
