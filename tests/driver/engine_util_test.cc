#include <gtest/gtest.h>

#include "driver/engine_thread.h"

namespace pgstorsim {
namespace {

TEST(EngineUtilTest, RetryableSqlStates) {
  EXPECT_TRUE(SqlStateIsRetryable("40001"));
  EXPECT_TRUE(SqlStateIsRetryable("40P01"));
  EXPECT_FALSE(SqlStateIsRetryable("23505"));  // unique_violation: a real error.
  EXPECT_FALSE(SqlStateIsRetryable("57P01"));
}

TEST(EngineUtilTest, ConnectionLossSqlStates) {
  EXPECT_TRUE(SqlStateIsConnectionLoss("57P01"));  // pg_terminate_backend, fast shutdown
  EXPECT_TRUE(SqlStateIsConnectionLoss("57P02"));  // crash shutdown
  EXPECT_TRUE(SqlStateIsConnectionLoss("57P03"));  // cannot connect now (starting up)
  EXPECT_TRUE(SqlStateIsConnectionLoss("08006"));
  EXPECT_FALSE(SqlStateIsConnectionLoss("40001"));
  EXPECT_FALSE(SqlStateIsConnectionLoss("42P01"));  // undefined_table
}

TEST(EngineUtilTest, MonotonicClockAdvances) {
  int64_t a = MonotonicNs();
  int64_t b = MonotonicNs();
  EXPECT_GE(b, a);
  EXPECT_GT(a, 0);
}

TEST(EngineUtilTest, ProcessCpuAdvancesAndDeltaSubtractsEachField) {
  ClientCpu before = ProcessCpuNow();
  volatile uint64_t spin = 0;
  for (int i = 0; i < 20000000; ++i) spin += i;  // Some user CPU, enough for a tick.
  EXPECT_GT(spin, 0u);
  ClientCpu after = ProcessCpuNow();
  EXPECT_GT(after.user_s + after.sys_s, before.user_s + before.sys_s);
  EXPECT_GT(after.minor_faults, 0);
  // user_s, sys_s, voluntary, involuntary, minor faults, committed.
  ClientCpu a{1.5, 2.0, 10, 3, 100, 50};
  ClientCpu b{2.0, 2.5, 17, 4, 130, 60};
  ClientCpu d = CpuDelta(a, b);
  EXPECT_DOUBLE_EQ(d.user_s, 0.5);
  EXPECT_DOUBLE_EQ(d.sys_s, 0.5);
  EXPECT_EQ(d.voluntary_switches, 7);
  EXPECT_EQ(d.involuntary_switches, 1);
  EXPECT_EQ(d.minor_faults, 30);
  EXPECT_EQ(d.committed, 10u);
  EXPECT_DOUBLE_EQ(d.UsPerTransaction(), 1e5);
  EXPECT_DOUBLE_EQ(ClientCpu().UsPerTransaction(), 0.0);
}

}  // namespace
}  // namespace pgstorsim
