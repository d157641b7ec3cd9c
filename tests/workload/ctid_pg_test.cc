// Checks the computed layout against a real PostgreSQL: `pgbench -i -s 1` into a fresh
// database, then compare each sampled aid's heap block (ctid) and every relation's
// size with DatabaseLayout. Needs PGSTORSIM_TEST_DB (a conninfo) and pgbench.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "pg/server.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace {

std::string PgbenchPath() {
  const char* candidates[] = {"/usr/lib/postgresql/15/bin/pgbench", "/usr/bin/pgbench"};
  for (const char* c : candidates) {
    if (::access(c, X_OK) == 0) return c;
  }
  return "";
}

// Single-quoted conninfo value.
std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

class CtidPgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* conninfo = std::getenv("PGSTORSIM_TEST_DB");
    if (conninfo == nullptr || *conninfo == '\0') {
      GTEST_SKIP() << "PGSTORSIM_TEST_DB is not set (scripts/test.sh starts a test cluster)";
    }
    pgbench_ = PgbenchPath();
    if (pgbench_.empty()) GTEST_SKIP() << "pgbench not found";
    base_ = conninfo;
    dbname_ = "pgstorsim_ctid_" + std::to_string(::getpid());
    auto admin = Connect(base_);
    ASSERT_TRUE(admin.ok()) << admin.status().message();
    ExpectExec(admin->get(), "DROP DATABASE IF EXISTS " + dbname_);
    ExpectExec(admin->get(), "CREATE DATABASE " + dbname_);
    created_ = true;
    db_conninfo_ = base_ + " dbname=" + dbname_;
  }

  void TearDown() override {
    if (!created_) return;
    conn_.reset();
    auto admin = Connect(base_);
    if (admin.ok()) ExpectExec(admin->get(), "DROP DATABASE " + dbname_);
  }

  static void ExpectExec(PGconn* conn, const std::string& sql) {
    const Status s = Exec(conn, sql);
    EXPECT_TRUE(s.ok()) << s.message();
  }

  void Pgbench(int scale) {
    const std::string cmd = pgbench_ + " -i -q -s " + std::to_string(scale) + " " +
                            Quote(db_conninfo_) + " </dev/null >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    auto conn = Connect(db_conninfo_);
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    conn_ = std::move(conn).value();
  }

  int64_t QueryInt(const std::string& sql) {
    auto rows = QueryRows(conn_.get(), sql);
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    if (!rows.ok() || PQntuples(rows->get()) != 1) return -1;
    return std::strtoll(PQgetvalue(rows->get(), 0, 0), nullptr, 10);
  }

  std::string pgbench_, base_, dbname_, db_conninfo_;
  bool created_ = false;
  PgConn conn_;
};

TEST_F(CtidPgTest, HeapBlocksAndRelationSizesMatchLayout) {
  ASSERT_NO_FATAL_FAILURE(Pgbench(1));
  const DatabaseLayout layout = DatabaseLayout::Create({1, 100}).value();
  const int64_t aids[] = {1, 2, 60, 61, 62, 122, 123, 4321, 50000, 77777, 99939, 99999, 100000};
  for (int64_t aid : aids) {
    const int64_t block =
        QueryInt("SELECT (ctid::text::point)[0]::bigint FROM pgbench_accounts WHERE aid = " +
                 std::to_string(aid));
    EXPECT_EQ(block, layout.HeapBlock(Relation::kAccounts, aid)) << "aid " << aid;
  }
  for (int i = 0; i < kRelationCount; ++i) {
    const Relation r = static_cast<Relation>(i);
    const int64_t pages =
        QueryInt("SELECT pg_relation_size('" + std::string(RelationName(r)) + "') / 8192");
    EXPECT_EQ(pages, layout.pages(r)) << RelationName(r);
  }
}

TEST_F(CtidPgTest, AccountsPkeyRootMatchesLayoutWhenPageinspectExists) {
  ASSERT_NO_FATAL_FAILURE(Pgbench(1));
  const Status ext = Exec(conn_.get(), "CREATE EXTENSION IF NOT EXISTS pageinspect");
  if (!ext.ok()) GTEST_SKIP() << "pageinspect unavailable: " << ext.message();
  const DatabaseLayout layout = DatabaseLayout::Create({1, 100}).value();
  const BtreeShape& shape = layout.btree(Relation::kAccountsPkey);
  EXPECT_EQ(QueryInt("SELECT root FROM bt_metap('pgbench_accounts_pkey')"),
            layout.IndexPath(Relation::kAccountsPkey, 1).front());
  EXPECT_EQ(QueryInt("SELECT level FROM bt_metap('pgbench_accounts_pkey')"), shape.levels - 1);
  // Data items on the first leaf: live items minus the high key.
  EXPECT_EQ(QueryInt("SELECT live_items - 1 FROM bt_page_stats('pgbench_accounts_pkey', 1)"),
            shape.leaf_keys_per_page);
}

}  // namespace
}  // namespace pgstorsim
