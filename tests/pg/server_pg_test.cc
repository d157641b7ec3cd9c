// The statement helpers of pg/server.h against a live server: results, one-line errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "pg/server.h"

namespace pgstorsim {
namespace {

class ServerPgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* db = std::getenv("PGSTORSIM_TEST_DB");
    if (db == nullptr) GTEST_SKIP() << "PGSTORSIM_TEST_DB not set (scripts/test.sh sets it)";
    auto conn = Connect(db);
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    conn_ = std::move(conn).value();
  }
  PgConn conn_;
};

TEST_F(ServerPgTest, QueryRowsOwnsAllRows) {
  auto rows = QueryRows(conn_.get(), "SELECT g, g * 2 FROM generate_series(1, 3) g");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(PQntuples(rows->get()), 3);
  EXPECT_STREQ(PQgetvalue(rows->get(), 2, 1), "6");
  auto value = QueryValue(conn_.get(), "SELECT 'x' WHERE false");
  ASSERT_TRUE(value.ok()) << value.status().message();
  EXPECT_EQ(*value, "");
}

TEST_F(ServerPgTest, ErrorIsOneLineWithServerMessageAndStatement) {
  auto rows = QueryRows(conn_.get(), "SELECT * FROM pgstorsim_no_such_table");
  ASSERT_FALSE(rows.ok());
  const std::string& m = rows.status().message();
  EXPECT_NE(m.find("pgstorsim_no_such_table\" does not exist"), std::string::npos) << m;
  EXPECT_NE(m.find("(in: SELECT * FROM pgstorsim_no_such_table)"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  // A statement that returns no rows is not a query; Exec takes both kinds.
  EXPECT_FALSE(QueryRows(conn_.get(), "SET application_name = 'pgstorsim'").ok());
  EXPECT_TRUE(Exec(conn_.get(), "SET application_name = 'pgstorsim'").ok());
  EXPECT_TRUE(Exec(conn_.get(), "SELECT 1").ok());
}

}  // namespace
}  // namespace pgstorsim
