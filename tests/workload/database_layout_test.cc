#include "workload/database_layout.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

DatabaseLayout Make(int64_t scale, int fillfactor = 100) {
  StatusOr<DatabaseLayout> layout = DatabaseLayout::Create({scale, fillfactor});
  EXPECT_TRUE(layout.ok());
  return *layout;
}

TEST(DatabaseLayoutTest, HeapTuplesPerPageArithmetic) {
  // 128-byte accounts rows + 4-byte line pointers in 8192 - 24 bytes.
  EXPECT_EQ(HeapTuplesPerPage(128, 100), 61);
  // Fillfactor 90 keeps 819 bytes free: 128 + 819 <= 8164 - 132 n -> n <= 54.
  EXPECT_EQ(HeapTuplesPerPage(128, 90), 55);
  EXPECT_EQ(HeapTuplesPerPage(48, 100), 157);  // history rows (filler NULL).
  EXPECT_EQ(HeapTuplesPerPage(40, 100), 185);  // tellers rows (filler NULL).
}

TEST(DatabaseLayoutTest, AccountsHeapAtScale1) {
  DatabaseLayout layout = Make(1);
  const RelationLayout& accounts = layout.relation(Relation::kAccounts);
  EXPECT_EQ(accounts.tuple_bytes, 128);
  EXPECT_EQ(accounts.tuples_per_page, 61);
  EXPECT_EQ(accounts.pages, 1640);  // ceil(100000 / 61).
  EXPECT_EQ(accounts.page_hole_bytes, 8168 - 61 * 132);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 1), 0);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 61), 0);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 62), 1);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 100000), 1639);
  EXPECT_EQ(layout.pages(Relation::kTellers), 1);
  EXPECT_EQ(layout.pages(Relation::kBranches), 1);
  EXPECT_EQ(layout.pages(Relation::kHistory), 0);
}

TEST(DatabaseLayoutTest, AccountsPkeyAtScale1) {
  DatabaseLayout layout = Make(1);
  const BtreeShape& b = layout.btree(Relation::kAccountsPkey);
  EXPECT_EQ(b.leaf_keys_per_page, 366);
  EXPECT_EQ(b.inner_downlinks_per_page, 284);
  EXPECT_EQ(b.levels, 2);
  EXPECT_EQ(b.leaf_pages, 274);
  EXPECT_EQ(b.inner_pages, 1);
  EXPECT_EQ(b.total_pages, 276);  // 2208 kB, as PostgreSQL reports at scale 1.
  // Allocation order: leaf 0 = block 1, leaf 1 = block 2, then the root = block 3.
  EXPECT_EQ(layout.IndexPath(Relation::kAccountsPkey, 1), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(layout.IndexPath(Relation::kAccountsPkey, 367), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(layout.IndexPath(Relation::kAccountsPkey, 100000), (std::vector<int64_t>{3, 275}));
  EXPECT_EQ(layout.InnerPages(Relation::kAccountsPkey), (std::vector<int64_t>{3}));
  EXPECT_EQ(layout.btree(Relation::kTellersPkey).levels, 1);
  EXPECT_EQ(layout.pages(Relation::kTellersPkey), 2);
  EXPECT_EQ(layout.IndexPath(Relation::kBranchesPkey, 1), (std::vector<int64_t>{1}));
}

TEST(DatabaseLayoutTest, BtreeHeightGrowsWithScale) {
  struct Case {
    int64_t scale;
    int levels;
    int64_t leaves;
    int64_t total;
  };
  // leaves = ceil((keys - 367) / 366) + 1; level above = ceil((n - 285) / 284) + 1.
  const Case cases[] = {{1, 2, 274, 276},
                        {100, 3, 27323, 27323 + 97 + 1 + 1},
                        {2000, 4, 546449, 546449 + 1925 + 7 + 1 + 1},
                        {6000, 4, 1639345, 1639345 + 5773 + 21 + 1 + 1}};
  for (const Case& c : cases) {
    DatabaseLayout layout = Make(c.scale);
    const BtreeShape& b = layout.btree(Relation::kAccountsPkey);
    EXPECT_EQ(b.levels, c.levels) << "scale " << c.scale;
    EXPECT_EQ(b.leaf_pages, c.leaves) << "scale " << c.scale;
    EXPECT_EQ(b.total_pages, c.total) << "scale " << c.scale;
    EXPECT_EQ(layout.IndexPath(Relation::kAccountsPkey, layout.accounts()).size(),
              static_cast<size_t>(c.levels));
  }
}

TEST(DatabaseLayoutTest, Scale10Fillfactor90AsMeasured) {
  // Measured on PostgreSQL 15 after `pgbench -i -s 10 -F 90`: 18182 and 2745 pages.
  DatabaseLayout layout = Make(10, 90);
  EXPECT_EQ(layout.pages(Relation::kAccounts), 18182);
  EXPECT_EQ(layout.pages(Relation::kAccountsPkey), 2745);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 55), 0);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 56), 1);
}

TEST(DatabaseLayoutTest, IndexPathsAreConsistent) {
  DatabaseLayout layout = Make(100);
  std::vector<int64_t> inner = layout.InnerPages(Relation::kAccountsPkey);
  ASSERT_EQ(inner.size(), 98u);
  const int64_t root = inner[0];
  int64_t previous_leaf = 0;
  for (int64_t aid = 1; aid <= layout.accounts(); aid += 9973) {
    std::vector<int64_t> path = layout.IndexPath(Relation::kAccountsPkey, aid);
    ASSERT_EQ(path.size(), 3u);
    EXPECT_EQ(path[0], root);
    EXPECT_GT(path[2], 0);
    EXPECT_LT(path[2], layout.pages(Relation::kAccountsPkey));
    EXPECT_GE(path[2], previous_leaf);  // Leaves are allocated in key order.
    previous_leaf = path[2];
  }
}

// The leaves' computed blocks and the builder's inner pages number every page once:
// with the metapage they are exactly blocks 0..total-1, leaves ascending in key order.
TEST(DatabaseLayoutTest, LeafAndInnerBlocksPartitionTheIndex) {
  for (int64_t scale : {1, 7, 100, 333, 2000}) {
    DatabaseLayout layout = Make(scale);
    for (Relation index :
         {Relation::kAccountsPkey, Relation::kTellersPkey, Relation::kBranchesPkey}) {
      const BtreeShape& shape = layout.btree(index);
      std::vector<bool> seen(static_cast<size_t>(shape.total_pages), false);
      seen[0] = true;  // The metapage.
      for (int64_t block : layout.InnerPages(index)) {
        ASSERT_LT(block, shape.total_pages);
        ASSERT_FALSE(seen[static_cast<size_t>(block)]) << "scale " << scale;
        seen[static_cast<size_t>(block)] = true;
      }
      int64_t previous = 0;
      for (int64_t leaf = 0; leaf < shape.leaf_pages; ++leaf) {
        const int64_t block = layout.LeafBlock(index, leaf);
        ASSERT_GT(block, previous) << "scale " << scale << " leaf " << leaf;
        ASSERT_LT(block, shape.total_pages);
        ASSERT_FALSE(seen[static_cast<size_t>(block)]) << "scale " << scale << " leaf " << leaf;
        seen[static_cast<size_t>(block)] = true;
        previous = block;
      }
      for (size_t b = 0; b < seen.size(); ++b) ASSERT_TRUE(seen[b]) << "block " << b;
    }
  }
}

// A layout at a scale whose pkey has ~3 x 10^8 leaves is built without a page list.
TEST(DatabaseLayoutTest, HugeScaleShapesNeedNoPageList) {
  DatabaseLayout layout = Make(1000000);
  const BtreeShape& shape = layout.btree(Relation::kAccountsPkey);
  EXPECT_GT(shape.leaf_pages, 200000000);
  const int64_t last = layout.LeafBlock(Relation::kAccountsPkey, shape.leaf_pages - 1);
  EXPECT_LT(last, shape.total_pages);
  EXPECT_GE(last, shape.leaf_pages);
}

TEST(DatabaseLayoutTest, MeasuredSizesOverride) {
  DatabaseLayout layout = Make(1);
  ASSERT_TRUE(layout.ApplyMeasured({{"pgbench_accounts", 1700}, {"pgbench_history", 3}}).ok());
  EXPECT_EQ(layout.pages(Relation::kAccounts), 1700);
  EXPECT_TRUE(layout.relation(Relation::kAccounts).measured);
  EXPECT_EQ(layout.pages(Relation::kHistory), 3);
  EXPECT_EQ(layout.HeapBlock(Relation::kAccounts, 100000), 1639);
  Status bad = layout.ApplyMeasured({{"pgbench_nope", 1}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("pgbench_nope"), std::string::npos);
  Status negative = layout.ApplyMeasured({{"pgbench_tellers", -1}});
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.message().find("pgbench_tellers"), std::string::npos);
}

TEST(DatabaseLayoutTest, RejectsBadOptions) {
  EXPECT_FALSE(DatabaseLayout::Create({0, 100}).ok());
  StatusOr<DatabaseLayout> ff = DatabaseLayout::Create({1, 5});
  ASSERT_FALSE(ff.ok());
  EXPECT_NE(ff.status().message().find("fillfactor"), std::string::npos);
}

TEST(DatabaseLayoutTest, TotalBytesAddsRelations) {
  DatabaseLayout layout = Make(1);
  EXPECT_EQ(layout.total_bytes(), (1640 + 276 + 1 + 2 + 1 + 2) * 8192);
  EXPECT_STREQ(RelationName(Relation::kAccountsPkey), "pgbench_accounts_pkey");
  EXPECT_EQ(*ParseRelationName("pgbench_history"), Relation::kHistory);
}

}  // namespace
}  // namespace pgstorsim
