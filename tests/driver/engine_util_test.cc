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

}  // namespace
}  // namespace pgstorsim
