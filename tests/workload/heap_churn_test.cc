#include "workload/heap_churn.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

class HeapChurnTest : public ::testing::Test {
 protected:
  HeapChurnTest() : layout_(DatabaseLayout::Create({1, 100}).value()) {}

  std::vector<StatementEffects> Txn(HeapChurn* churn, int64_t aid) {
    TpcbModel model(&layout_, WorkloadKind::kTpcbLike);
    std::vector<StatementEffects> effects;
    const TxnKeys keys{aid, 1, 1, 5};
    model.Transaction(keys, 0, &effects);
    churn->Apply(keys, &effects);
    return effects;
  }

  DatabaseLayout layout_;
};

TEST_F(HeapChurnTest, FirstUpdateOfAFullPageMovesTheRow) {
  HeapChurn churn(&layout_);
  TpcbModel model(&layout_, WorkloadKind::kTpcbLike);
  std::vector<StatementEffects> hot;
  model.Transaction({70, 1, 1, 5}, 0, &hot);
  std::vector<StatementEffects> e = Txn(&churn, 70);  // Block 1, full at fillfactor 100.
  const std::vector<PageTouch>& update = e[1].touches;
  ASSERT_EQ(update.size(), 5u);
  EXPECT_EQ(update[2], (PageTouch{Relation::kAccounts, 1, true}));      // Old row locked.
  EXPECT_EQ(update[3], (PageTouch{Relation::kAccounts, 1640, true}));   // New page at the end.
  EXPECT_EQ(update[4], (PageTouch{Relation::kAccountsPkey, 1, true}));  // New index entry.
  EXPECT_GT(e[1].wal_bytes, hot[1].wal_bytes + 150);
  EXPECT_EQ(churn.stats().non_hot_updates, 1u);
  EXPECT_EQ(churn.accounts_pages(), 1641);
  EXPECT_EQ(churn.CurrentBlock(70), 1640);
  EXPECT_EQ(e[2].touches.back().block, 1640);  // SELECT finds the new version.
}

TEST_F(HeapChurnTest, MovedRowUpdatesHotAndPruningMakesRoom) {
  HeapChurn churn(&layout_);
  Txn(&churn, 70);
  std::vector<StatementEffects> again = Txn(&churn, 70);  // Lots of room on block 1640.
  EXPECT_EQ(again[1].touches.size(), 3u);
  EXPECT_EQ(again[1].touches.back().block, 1640);
  EXPECT_EQ(churn.stats().hot_updates, 1u);
  // Another row of block 1: the dead row is pruned (112 + 128 bytes free), then HOT.
  std::vector<StatementEffects> neighbour = Txn(&churn, 71);
  EXPECT_EQ(churn.stats().prunes, 1u);
  EXPECT_EQ(churn.stats().hot_updates, 2u);
  EXPECT_EQ(neighbour[1].touches.size(), 3u);
  EXPECT_EQ(neighbour[1].touches.back(), (PageTouch{Relation::kAccounts, 1, true}));
  EXPECT_EQ(churn.stats().non_hot_updates, 1u);
}

TEST_F(HeapChurnTest, MovedRowsFillNewPages) {
  HeapChurn churn(&layout_);
  // The first row of 100 different full pages: 61 fit the first new page.
  for (int i = 0; i < 100; ++i) Txn(&churn, 1 + 61 * i);
  EXPECT_EQ(churn.stats().non_hot_updates, 100u);
  EXPECT_EQ(churn.stats().pages_added, 2);
  EXPECT_EQ(churn.CurrentBlock(1 + 61 * 60), 1640);
  EXPECT_EQ(churn.CurrentBlock(1 + 61 * 61), 1641);
}

TEST_F(HeapChurnTest, FillfactorLeavesRoomForHot) {
  DatabaseLayout layout = DatabaseLayout::Create({1, 90}).value();
  HeapChurn churn(&layout);
  TpcbModel model(&layout, WorkloadKind::kTpcbLike);
  std::vector<StatementEffects> effects;
  for (int64_t aid = 1; aid <= 500; ++aid) {
    model.Transaction({aid, 1, 1, 1}, 0, &effects);
    churn.Apply({aid, 1, 1, 1}, &effects);
  }
  EXPECT_EQ(churn.stats().non_hot_updates, 0u);
  EXPECT_EQ(churn.stats().hot_updates, 500u);
}

// Reserve is a capacity hint: the same updates give the same effects with or without.
TEST_F(HeapChurnTest, ReserveChangesNoEffect) {
  HeapChurn plain(&layout_);
  HeapChurn reserved(&layout_);
  reserved.Reserve(5000);
  for (int64_t i = 0; i < 5000; ++i) {
    const int64_t aid = 1 + (i * 7919) % 100000;
    const std::vector<StatementEffects> a = Txn(&plain, aid);
    const std::vector<StatementEffects> b = Txn(&reserved, aid);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].touches, b[k].touches) << i;
      ASSERT_EQ(a[k].wal_bytes, b[k].wal_bytes) << i;
    }
    if (i == 2500) reserved.Reserve(2500);
  }
  EXPECT_EQ(plain.stats().non_hot_updates, reserved.stats().non_hot_updates);
  EXPECT_EQ(plain.stats().prunes, reserved.stats().prunes);
  EXPECT_GT(plain.stats().prunes, 0u);
  EXPECT_EQ(plain.accounts_pages(), reserved.accounts_pages());
}

// Advance is Apply's state change: the same transactions give the same stats, table
// size and row locations (moved rows included), with Prefetch hints in between.
TEST_F(HeapChurnTest, AdvanceChangesTheStateAsApplyDoes) {
  HeapChurn applied(&layout_);
  HeapChurn advanced(&layout_);
  for (int64_t i = 0; i < 20000; ++i) {
    const int64_t aid = 1 + (i * 7919) % 100000;
    Txn(&applied, aid);
    advanced.Prefetch({aid, 1, 1, 5});
    advanced.Advance({aid, 1, 1, 5}, true);
  }
  EXPECT_GT(applied.stats().non_hot_updates, 1000u);
  EXPECT_GT(applied.stats().prunes, 0u);
  EXPECT_EQ(applied.stats().non_hot_updates, advanced.stats().non_hot_updates);
  EXPECT_EQ(applied.stats().hot_updates, advanced.stats().hot_updates);
  EXPECT_EQ(applied.stats().prunes, advanced.stats().prunes);
  EXPECT_EQ(applied.stats().pages_added, advanced.stats().pages_added);
  EXPECT_EQ(applied.accounts_pages(), advanced.accounts_pages());
  for (int64_t aid = 1; aid <= 100000; aid += 13) {
    ASSERT_EQ(applied.CurrentBlock(aid), advanced.CurrentBlock(aid)) << aid;
  }
}

// A script without UPDATE accounts changes no rows.
TEST_F(HeapChurnTest, AdvanceWithoutAnUpdateMovesNothing) {
  HeapChurn churn(&layout_);
  churn.Advance({70, 1, 1, 5}, false);
  EXPECT_EQ(churn.stats().non_hot_updates + churn.stats().hot_updates, 0u);
  EXPECT_EQ(churn.CurrentBlock(70), 1);
  EXPECT_EQ(churn.accounts_pages(), layout_.pages(Relation::kAccounts));
}

// A row that died in the running transaction does not make its page prunable until
// the next one: two UPDATE accounts of one row in a transaction, on a page with little
// room left (772 bytes after 56 moved rows), are both HOT without a prune; the next
// transaction's update prunes.
TEST_F(HeapChurnTest, RowsDeadInTheRunningTransactionAreNotPruned) {
  HeapChurn churn(&layout_);
  for (int i = 0; i < 56; ++i) Txn(&churn, 1 + 61 * i);  // Moved to block 1640.
  ASSERT_EQ(churn.CurrentBlock(1), 1640);
  ASSERT_EQ(churn.stats().prunes, 0u);
  TpcbModel model(&layout_, WorkloadKind::kTpcbLike);
  std::vector<StatementEffects> effects;
  const TxnKeys keys{1, 1, 1, 5};
  model.Transaction(keys, 0, &effects);
  effects.push_back(effects[1]);  // UPDATE accounts twice.
  ASSERT_EQ(effects.back().statement, Statement::kUpdateAccounts);
  churn.Apply(keys, &effects);
  EXPECT_EQ(churn.stats().hot_updates, 2u);
  EXPECT_EQ(churn.stats().prunes, 0u);
  Txn(&churn, 1);
  EXPECT_EQ(churn.stats().prunes, 1u);
  EXPECT_EQ(churn.stats().hot_updates, 3u);
}

// Pages and rows keep their own states up to the largest scale (1374389: 2.25 G
// accounts pages, blocks past 2^31, aids past 2^32): block 5 and block 5 + 2^31 are
// different pages (each one's first update is not HOT), a row 2^32 aids after a moved
// one has not moved, and rows moved are updated HOT after a prune as below.
TEST_F(HeapChurnTest, BlocksPast31BitsAreTheirOwnPages) {
  DatabaseLayout layout = DatabaseLayout::Create({1374389, 100}).value();
  const int64_t loaded = layout.pages(Relation::kAccounts);
  const int64_t high_block = 5 + (int64_t{1} << 31);
  ASSERT_GT(loaded, high_block);
  HeapChurn churn(&layout);
  churn.Reserve(1000);
  churn.Advance({1 + 61 * 5, 1, 1, 5}, true);
  churn.Advance({1 + 61 * high_block, 1, 1, 5}, true);
  EXPECT_EQ(churn.stats().non_hot_updates, 2u);
  EXPECT_EQ(churn.stats().prunes, 0u);
  EXPECT_EQ(churn.CurrentBlock(1 + 61 * high_block), loaded);  // The first new page.
  // The row 2^32 after a moved one is where it was loaded.
  const int64_t far_aid = 1 + 61 * 5 + (int64_t{1} << 32);
  EXPECT_EQ(churn.CurrentBlock(far_aid), layout.HeapBlock(Relation::kAccounts, far_aid));
  // Another row of each page: the dead row is pruned, then HOT.
  churn.Advance({2 + 61 * 5, 1, 1, 5}, true);
  churn.Advance({2 + 61 * high_block, 1, 1, 5}, true);
  EXPECT_EQ(churn.stats().prunes, 2u);
  EXPECT_EQ(churn.stats().hot_updates, 2u);
  // The moved rows, on the new page: HOT, no new page.
  churn.Advance({1 + 61 * 5, 1, 1, 5}, true);
  churn.Advance({1 + 61 * high_block, 1, 1, 5}, true);
  EXPECT_EQ(churn.stats().hot_updates, 4u);
  EXPECT_EQ(churn.stats().non_hot_updates, 2u);
  EXPECT_EQ(churn.accounts_pages(), loaded + 1);
}

}  // namespace
}  // namespace pgstorsim
