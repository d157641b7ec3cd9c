// The model's row-lock term: Little's law on the rows held by in-flight transactions.
#include "model/row_lock_wait.h"

#include <gtest/gtest.h>

#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

RowLockInput Input(int clients, int branches, double x_per_ms, double hold_ms) {
  RowLockInput in;
  in.clients = clients;
  in.branches = branches;
  in.x_per_ms = x_per_ms;
  in.branch_hold_ms = hold_ms;
  in.branch_update_ms = 0.1;
  return in;
}

TEST(RowLockWait, OneClientNeverWaits) {
  const RowLockWait w = MeanRowLockWait(Input(1, 1, 5, 10));
  EXPECT_EQ(w.branches_ms, 0);
  EXPECT_EQ(w.tellers_ms, 0);
}

TEST(RowLockWait, HeldShareTimesHalfTheHold) {
  // 10 clients, 200 branches, 6 transactions per ms, a 1 ms hold: a branch is held by
  // another transaction 9/10 x 6 x 1 / 200 = 2.7 % of the time, for half a hold.
  const RowLockWait w = MeanRowLockWait(Input(10, 200, 6, 1));
  EXPECT_NEAR(w.branches_ms, 0.027 * 0.5, 1e-12);
  const double teller_hold_ms = 1 + 0.1 + w.branches_ms;
  EXPECT_NEAR(w.tellers_ms, 0.9 * 6 * teller_hold_ms / 2000 * teller_hold_ms / 2, 1e-12);
}

TEST(RowLockWait, SaturatesAtHalfTheHoldAndFallsWithMoreRows) {
  EXPECT_NEAR(MeanRowLockWait(Input(50, 1, 100, 4)).branches_ms, 2, 1e-12);
  EXPECT_GT(MeanRowLockWait(Input(4, 5, 0.6, 5)).branches_ms,
            10 * MeanRowLockWait(Input(4, 2000, 0.6, 5)).branches_ms);
}

// In the model: UPDATE branches carries the wait, which grows as branches get fewer;
// a single client has none.
TEST(RowLockWait, PredictChargesUpdateBranchesAtSmallScale) {
  auto base = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(base.ok()) << base.status().message();
  auto branches_ms = [&](const char* scale, const char* clients) {
    Scenario s = *base;
    EXPECT_TRUE(ApplyOverride(&s, std::string("workload.scale=") + scale).ok());
    EXPECT_TRUE(ApplyOverride(&s, std::string("workload.clients=") + clients).ok());
    auto p = Predict(s);
    EXPECT_TRUE(p.ok()) << p.status().message();
    return p.ok() ? p->statement_latency_ms.at("UPDATE branches") : 0.0;
  };
  const double one = branches_ms("5", "1");
  EXPECT_NEAR(branches_ms("2000", "1"), one, 1e-9);
  EXPECT_GT(branches_ms("5", "10"), one + 0.5);
  // The wait (above the statement's CPU, `one`): 32x at 2000 branches what it is at 5.
  EXPECT_LT(branches_ms("2000", "10") - one, (branches_ms("5", "10") - one) / 10);
}

}  // namespace
}  // namespace pgstorsim
