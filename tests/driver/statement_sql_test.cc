#include "driver/statement_sql.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

std::vector<std::string> Names(WorkloadKind k) {
  std::vector<std::string> out;
  for (const auto& d : DriverStatements(k)) out.push_back(d.name());
  return out;
}

TEST(StatementSqlTest, StatementNamesAreTheSharedVocabulary) {
  EXPECT_EQ(
      Names(WorkloadKind::kTpcbLike),
      (std::vector<std::string>{"BEGIN", "UPDATE accounts", "SELECT accounts", "UPDATE tellers",
                                "UPDATE branches", "INSERT history", "END"}));
  EXPECT_EQ(Names(WorkloadKind::kSimpleUpdate),
            (std::vector<std::string>{"BEGIN", "UPDATE accounts", "SELECT accounts",
                                      "INSERT history", "END"}));
  EXPECT_EQ(Names(WorkloadKind::kSelectOnly), (std::vector<std::string>{"SELECT accounts"}));
}

TEST(StatementSqlTest, PreparedSqlNumbersVariablesInOrder) {
  const auto& defs = DriverStatements(WorkloadKind::kTpcbLike);
  ASSERT_EQ(defs.size(), 7u);
  const std::vector<std::string> sql = {
      "BEGIN;",
      "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2;",
      "SELECT abalance FROM pgbench_accounts WHERE aid = $1;",
      "UPDATE pgbench_tellers SET tbalance = tbalance + $1 WHERE tid = $2;",
      "UPDATE pgbench_branches SET bbalance = bbalance + $1 WHERE bid = $2;",
      "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
      "VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP);",
      "END;"};
  const std::vector<std::vector<Param>> params = {
      {},
      {Param::kDelta, Param::kAid},
      {Param::kAid},
      {Param::kDelta, Param::kTid},
      {Param::kDelta, Param::kBid},
      {Param::kTid, Param::kBid, Param::kAid, Param::kDelta},
      {}};
  for (size_t i = 0; i < defs.size(); ++i) {
    EXPECT_EQ(defs[i].sql, sql[i]);
    EXPECT_EQ(defs[i].params, params[i]) << defs[i].name();
  }
}

TEST(StatementSqlTest, SimpleSqlSubstitutesKeys) {
  TxnKeys k{123, 7, 2, -45};
  const auto& defs = DriverStatements(WorkloadKind::kTpcbLike);
  EXPECT_EQ(SimpleSql(defs[1], k),
            "UPDATE pgbench_accounts SET abalance = abalance + -45 WHERE aid = 123;");
  EXPECT_EQ(SimpleSql(defs[5], k),
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
            "VALUES (7, 2, 123, -45, CURRENT_TIMESTAMP);");
}

TEST(StatementSqlTest, PgbenchTitles) {
  EXPECT_STREQ(WorkloadPgbenchTitle(WorkloadKind::kTpcbLike), "<builtin: TPC-B (sort of)>");
  EXPECT_STREQ(WorkloadPgbenchTitle(WorkloadKind::kSimpleUpdate), "<builtin: simple update>");
  EXPECT_STREQ(WorkloadPgbenchTitle(WorkloadKind::kSelectOnly), "<builtin: select only>");
}

}  // namespace
}  // namespace pgstorsim
