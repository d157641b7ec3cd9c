// TpcbModel::Transaction reuses the caller's vector (and each statement's touch
// vector) between transactions; the effects must be exactly those of a fresh
// vector, whatever the previous transaction left there (other workload kinds,
// extra touches added by HeapChurn, a commit flag). DatabaseLayout::IndexPathInto
// must agree with IndexPath.
#include <gtest/gtest.h>

#include <vector>

#include "common/random.h"
#include "workload/database_layout.h"
#include "workload/heap_churn.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace {

void ExpectSame(const std::vector<StatementEffects>& a, const std::vector<StatementEffects>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].statement, b[i].statement) << i;
    EXPECT_EQ(a[i].touches, b[i].touches) << i;
    EXPECT_EQ(a[i].wal_bytes, b[i].wal_bytes) << i;
    EXPECT_EQ(a[i].commit, b[i].commit) << i;
  }
}

TEST(TpcbReuseTest, ReusedOutputEqualsFreshOutput) {
  const DatabaseLayout layout = DatabaseLayout::Create({20, 100}).value();
  const TpcbModel tpcb(&layout, WorkloadKind::kTpcbLike);
  const TpcbModel simple(&layout, WorkloadKind::kSimpleUpdate);
  const TpcbModel select(&layout, WorkloadKind::kSelectOnly);
  const TpcbModel* models[] = {&tpcb, &simple, &select};
  KeyGenerator keys(20, 11);
  Random pick(5);
  std::vector<StatementEffects> reused;
  // Garbage the reused vector must not leak into the next transaction.
  reused.resize(9);
  reused[3].touches.assign(17, PageTouch{Relation::kHistory, 99, true});
  reused[3].commit = true;
  reused[3].wal_bytes = 12345;
  for (int i = 0; i < 300; ++i) {
    const TpcbModel& m = *models[pick.UniformInt(0, 2)];
    const TxnKeys k = keys.Next();
    std::vector<StatementEffects> fresh;
    m.Transaction(k, i * 3, &fresh);
    m.Transaction(k, i * 3, &reused);
    ExpectSame(reused, fresh);
    if (!reused.empty()) reused.back().touches.push_back({Relation::kAccounts, 7, true});
  }
}

TEST(TpcbReuseTest, HeapChurnOnAReusedVectorMatchesFresh) {
  const DatabaseLayout layout = DatabaseLayout::Create({1, 100}).value();  // Full pages.
  const TpcbModel model(&layout, WorkloadKind::kTpcbLike);
  HeapChurn churn_a(&layout), churn_b(&layout);
  KeyGenerator keys(1, 3);
  std::vector<StatementEffects> reused;
  for (int i = 0; i < 2000; ++i) {
    const TxnKeys k = keys.Next();
    std::vector<StatementEffects> fresh;
    model.Transaction(k, i, &fresh);
    churn_a.Apply(k, &fresh);
    model.Transaction(k, i, &reused);
    churn_b.Apply(k, &reused);
    ExpectSame(reused, fresh);
  }
  EXPECT_GT(churn_a.stats().non_hot_updates, 0u);  // Extra touches were really added.
}

TEST(TpcbReuseTest, IndexPathIntoMatchesIndexPath) {
  const DatabaseLayout layout = DatabaseLayout::Create({300, 100}).value();
  Random rng(9);
  const Relation indexes[] = {Relation::kAccountsPkey, Relation::kTellersPkey,
                              Relation::kBranchesPkey};
  const int64_t keys[] = {layout.accounts(), layout.tellers(), layout.branches()};
  for (int i = 0; i < 3; ++i) {
    EXPECT_GE(layout.btree(indexes[i]).levels, 1);
    for (int n = 0; n < 500; ++n) {
      const int64_t key = rng.UniformInt(1, keys[i]);
      int64_t blocks[DatabaseLayout::kMaxIndexLevels];
      const int levels = layout.IndexPathInto(indexes[i], key, blocks);
      EXPECT_EQ(std::vector<int64_t>(blocks, blocks + levels), layout.IndexPath(indexes[i], key));
    }
  }
  EXPECT_GE(layout.btree(Relation::kAccountsPkey).levels, 3);  // Inner levels exercised.
}

TEST(TpcbReuseTest, AbsurdScaleIsAnError) {
  EXPECT_FALSE(DatabaseLayout::Create({int64_t{2} << 30, 100}).ok());
}

}  // namespace
}  // namespace pgstorsim
