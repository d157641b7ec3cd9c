#include "workload/tpcb.h"

#include <gtest/gtest.h>

#include <map>

namespace pgstorsim {
namespace {

class TpcbTest : public ::testing::Test {
 protected:
  TpcbTest() : layout_(DatabaseLayout::Create({1, 100}).value()) {}
  DatabaseLayout layout_;
};

TEST_F(TpcbTest, StatementNamesAreTheVocabulary) {
  std::vector<std::string> names;
  for (Statement s : WorkloadStatements(WorkloadKind::kTpcbLike)) names.push_back(StatementName(s));
  EXPECT_EQ(names, (std::vector<std::string>{"BEGIN", "UPDATE accounts", "SELECT accounts",
                                             "UPDATE tellers", "UPDATE branches", "INSERT history",
                                             "END"}));
  EXPECT_EQ(*ParseStatementName("INSERT history"), Statement::kInsertHistory);
  EXPECT_FALSE(ParseStatementName("DELETE").ok());
  EXPECT_EQ(WorkloadStatements(WorkloadKind::kSimpleUpdate).size(), 5u);
  EXPECT_EQ(WorkloadStatements(WorkloadKind::kSelectOnly),
            std::vector<Statement>{Statement::kSelectAccounts});
  EXPECT_EQ(*ParseWorkloadKind("simple-update"), WorkloadKind::kSimpleUpdate);
  EXPECT_FALSE(ParseWorkloadKind("tpcc").ok());
}

TEST_F(TpcbTest, PageTouchesPerStatement) {
  TpcbModel model(&layout_, WorkloadKind::kTpcbLike);
  std::vector<StatementEffects> effects;
  const TxnKeys keys{62, 3, 1, -17};
  model.Transaction(keys, 157 * 2 + 5, &effects);
  ASSERT_EQ(effects.size(), 7u);
  EXPECT_TRUE(effects[0].touches.empty());  // BEGIN.
  // UPDATE accounts: root (3) and leaf (1) of the pkey, then heap block 1, dirtied.
  const std::vector<PageTouch> update = {{Relation::kAccountsPkey, 3, false},
                                         {Relation::kAccountsPkey, 1, false},
                                         {Relation::kAccounts, 1, true}};
  EXPECT_EQ(effects[1].touches, update);
  EXPECT_GT(effects[1].wal_bytes, 0);
  // SELECT re-touches the same pages without dirtying them, no WAL.
  ASSERT_EQ(effects[2].touches.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(effects[2].touches[i].block, update[i].block);
    EXPECT_FALSE(effects[2].touches[i].dirty);
  }
  EXPECT_EQ(effects[2].wal_bytes, 0);
  // Tellers and branches: single-page pkey (root = leaf, block 1) + heap block 0.
  EXPECT_EQ(effects[3].touches, (std::vector<PageTouch>{{Relation::kTellersPkey, 1, false},
                                                        {Relation::kTellers, 0, true}}));
  EXPECT_EQ(effects[4].touches, (std::vector<PageTouch>{{Relation::kBranchesPkey, 1, false},
                                                        {Relation::kBranches, 0, true}}));
  // History: 157 rows per page, so row 320 goes to block 2.
  EXPECT_EQ(effects[5].touches, (std::vector<PageTouch>{{Relation::kHistory, 2, true}}));
  EXPECT_TRUE(effects[6].commit);
  EXPECT_FALSE(effects[5].commit);
  EXPECT_EQ(effects[6].wal_bytes, 40);  // Commit record 34 bytes, MAXALIGNed.
  for (const StatementEffects& e : effects) EXPECT_EQ(e.wal_bytes % 8, 0);
}

TEST_F(TpcbTest, SelectOnlyHasNoCommitOrWal) {
  TpcbModel model(&layout_, WorkloadKind::kSelectOnly);
  std::vector<StatementEffects> effects;
  model.Transaction({100000, 1, 1, 0}, 0, &effects);
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_FALSE(effects[0].commit);
  EXPECT_EQ(effects[0].wal_bytes, 0);
  EXPECT_EQ(effects[0].touches.back(), (PageTouch{Relation::kAccounts, 1639, false}));
  EXPECT_EQ(model.WalBytesPerTransaction(), 0);
}

TEST_F(TpcbTest, FullPageImageSubtractsHole) {
  TpcbModel model(&layout_, WorkloadKind::kTpcbLike);
  const int64_t accounts = model.FullPageImageBytes(Relation::kAccounts, 0);
  EXPECT_GT(accounts, 8192 - 200);
  EXPECT_LE(accounts, 8192);
  // A history page with one row is mostly hole.
  EXPECT_LT(model.FullPageImageBytes(Relation::kHistory, 1), 200);
  EXPECT_GT(model.FullPageImageBytes(Relation::kHistory, 157),
            model.FullPageImageBytes(Relation::kHistory, 10));
}

TEST_F(TpcbTest, ExpectedTouchesMatchTransaction) {
  TpcbModel model(&layout_, WorkloadKind::kTpcbLike);
  std::vector<StatementEffects> effects;
  model.Transaction({5000, 7, 1, 1}, 0, &effects);
  for (const StatementEffects& e : effects) {
    std::map<Relation, int> counts;
    for (const PageTouch& t : e.touches) ++counts[t.relation];
    for (int r = 0; r < kRelationCount; ++r) {
      const Relation rel = static_cast<Relation>(r);
      EXPECT_DOUBLE_EQ(model.ExpectedTouches(e.statement, rel), counts[rel])
          << StatementName(e.statement) << " " << RelationName(rel);
    }
  }
  EXPECT_EQ(model.ExpectedDirties(Statement::kUpdateAccounts, Relation::kAccounts), 1);
  EXPECT_EQ(model.ExpectedDirties(Statement::kSelectAccounts, Relation::kAccounts), 0);
  EXPECT_EQ(model.ExpectedDirties(Statement::kUpdateAccounts, Relation::kAccountsPkey), 0);
}

// pgbench's key ranges at `scale`, written out here rather than taken from the code
// under test: aid 1..100000*scale, tid 1..10*scale, bid 1..scale, delta -5000..5000.
::testing::AssertionResult InPgbenchRanges(const TxnKeys& k, int64_t scale) {
  if (k.aid < 1 || k.aid > 100000 * scale || k.tid < 1 || k.tid > 10 * scale || k.bid < 1 ||
      k.bid > scale || k.delta < -5000 || k.delta > 5000) {
    return ::testing::AssertionFailure()
           << "aid " << k.aid << " tid " << k.tid << " bid " << k.bid << " delta " << k.delta
           << " out of range at scale " << scale;
  }
  return ::testing::AssertionSuccess();
}

TEST(KeyGeneratorTest, SeededDeterministicAndInRange) {
  KeyGenerator a(10, 7), b(10, 7), c(10, 8);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    TxnKeys x = a.Next(), y = b.Next(), z = c.Next();
    EXPECT_EQ(x.aid, y.aid);
    EXPECT_EQ(x.tid, y.tid);
    EXPECT_EQ(x.bid, y.bid);
    EXPECT_EQ(x.delta, y.delta);
    differs |= x.aid != z.aid;
    EXPECT_TRUE(InPgbenchRanges(x, 10));
  }
  EXPECT_TRUE(differs);
}

// NextAid draws what Next draws: the same aids, and the stream where Next leaves it.
TEST(KeyGeneratorTest, NextAidIsNextsAidAndAdvancesTheSame) {
  for (WorkloadKind kind :
       {WorkloadKind::kTpcbLike, WorkloadKind::kSimpleUpdate, WorkloadKind::kSelectOnly}) {
    KeyGenerator full(kind, 20, Random(9)), aids(kind, 20, Random(9));
    for (int i = 0; i < 1000; ++i) {
      const bool skip = i % 3 != 2;  // Mixed: a skip, then a full draw.
      const TxnKeys k = full.Next();
      if (skip) {
        ASSERT_EQ(aids.NextAid(), k.aid) << "draw " << i;
      } else {
        const TxnKeys a = aids.Next();
        ASSERT_EQ(a.aid, k.aid);
        ASSERT_EQ(a.tid, k.tid);
        ASSERT_EQ(a.bid, k.bid);
        ASSERT_EQ(a.delta, k.delta);
      }
    }
  }
}

TEST(KeyGeneratorTest, ParsesPgbenchScriptNames) {
  EXPECT_EQ(*ParseWorkloadKind("tpcb-like"), WorkloadKind::kTpcbLike);
  EXPECT_EQ(*ParseWorkloadKind("simple-update"), WorkloadKind::kSimpleUpdate);
  EXPECT_EQ(*ParseWorkloadKind("select-only"), WorkloadKind::kSelectOnly);
  EXPECT_FALSE(ParseWorkloadKind("TPC-B").ok());
  EXPECT_STREQ(WorkloadKindName(WorkloadKind::kSelectOnly), "select-only");
}

TEST(KeyGeneratorTest, ForkedStreamStaysInPgbenchRangesAndIsSeeded) {
  KeyGenerator a(WorkloadKind::kTpcbLike, 3, Random(42)), b(WorkloadKind::kTpcbLike, 3, Random(42));
  for (int i = 0; i < 10000; ++i) {
    TxnKeys k = a.Next();
    ASSERT_TRUE(InPgbenchRanges(k, 3));
    TxnKeys k2 = b.Next();
    ASSERT_EQ(k.aid, k2.aid);
    ASSERT_EQ(k.delta, k2.delta);
  }
  KeyGenerator select(WorkloadKind::kSelectOnly, 3, Random(42));
  TxnKeys s = select.Next();
  EXPECT_EQ(s.tid, 0);
  EXPECT_EQ(s.bid, 0);
  EXPECT_EQ(s.delta, 0);
}

TEST(KeyGeneratorTest, DrawOrderFollowsPgbenchScripts) {
  // tpcb-like and simple-update draw aid, bid, tid, delta; select-only draws aid only.
  Random reference(5);
  KeyGenerator tpcb(WorkloadKind::kTpcbLike, 4, Random(5));
  KeyGenerator simple(WorkloadKind::kSimpleUpdate, 4, Random(5));
  KeyGenerator seeded(4, 5);
  for (int i = 0; i < 100; ++i) {
    TxnKeys t = tpcb.Next(), u = simple.Next(), v = seeded.Next();
    EXPECT_EQ(t.aid, reference.UniformInt(1, 400000));
    EXPECT_EQ(t.bid, reference.UniformInt(1, 4));
    EXPECT_EQ(t.tid, reference.UniformInt(1, 40));
    EXPECT_EQ(t.delta, reference.UniformInt(-5000, 5000));
    EXPECT_TRUE(u.aid == t.aid && u.bid == t.bid && u.tid == t.tid && u.delta == t.delta);
    EXPECT_TRUE(v.aid == t.aid && v.bid == t.bid && v.tid == t.tid && v.delta == t.delta);
  }
  Random select_reference(5);
  KeyGenerator select(WorkloadKind::kSelectOnly, 4, Random(5));
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(select.Next().aid, select_reference.UniformInt(1, 400000));
}

TEST(KeyGeneratorTest, KeysAreUniform) {
  // Chi-square over 10 branches and 20 aid buckets: fails if a key range is skewed.
  KeyGenerator gen(10, 123);
  const int n = 100000;
  std::vector<int> bids(10), aids(20);
  for (int i = 0; i < n; ++i) {
    TxnKeys k = gen.Next();
    ++bids[k.bid - 1];
    ++aids[(k.aid - 1) / 50000];
  }
  auto chi2 = [](const std::vector<int>& counts) {
    const double expected = static_cast<double>(n) / counts.size();
    double sum = 0;
    for (int c : counts) sum += (c - expected) * (c - expected) / expected;
    return sum;
  };
  EXPECT_LT(chi2(bids), 27.9);  // p = 0.001 at 9 degrees of freedom.
  EXPECT_LT(chi2(aids), 43.8);  // p = 0.001 at 19 degrees of freedom.
}

TEST_F(TpcbTest, MissProbabilityHelpers) {
  EXPECT_DOUBLE_EQ(UniformMissProbability(250, 1000), 0.75);
  EXPECT_DOUBLE_EQ(UniformMissProbability(5000, 1000), 0.0);
  EXPECT_DOUBLE_EQ(UniformMissProbability(0, 1000), 1.0);
  EXPECT_DOUBLE_EQ(UniformMissProbability(10, 0), 0.0);
  // Scale 1: everything but the accounts heap (1640 pages) fits in 300 pages; the
  // accounts pkey leaves (274) come before the heap in the warm order.
  const int64_t hot = 1 + 1 + 2 + 1 + 274;  // root, tellers heap+leaf, branches heap+leaf.
  EXPECT_DOUBLE_EQ(RelationMissProbability(layout_, Relation::kTellers, 300), 0.0);
  EXPECT_DOUBLE_EQ(RelationMissProbability(layout_, Relation::kAccountsPkey, 300), 0.0);
  EXPECT_NEAR(RelationMissProbability(layout_, Relation::kAccounts, hot + 410), 0.75, 1e-9);
  EXPECT_DOUBLE_EQ(RelationMissProbability(layout_, Relation::kAccounts, 1 << 20), 0.0);
  // With room for the root only, the pkey misses on the leaf level only: 1/2 per touch.
  EXPECT_NEAR(RelationMissProbability(layout_, Relation::kAccountsPkey, 1), 0.5, 1e-9);
}

TEST_F(TpcbTest, WarmOrderCoversRelationsOnce) {
  std::map<Relation, int64_t> pages;
  for (const PageRange& r : WarmOrder(layout_)) pages[r.relation] += r.pages;
  EXPECT_EQ(pages[Relation::kAccounts], 1640);
  EXPECT_EQ(pages[Relation::kAccountsPkey], 275);  // All but the metapage.
  EXPECT_EQ(pages[Relation::kTellers], 1);
  EXPECT_EQ(pages[Relation::kHistory], 0);
  EXPECT_EQ(WarmOrder(layout_).front().relation, Relation::kAccountsPkey);
  EXPECT_EQ(WarmOrder(layout_).back().relation, Relation::kAccounts);
}

}  // namespace
}  // namespace pgstorsim
