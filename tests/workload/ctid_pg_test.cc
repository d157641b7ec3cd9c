// Checks the computed layout against a real PostgreSQL: `pgbench -i -s 1` into a fresh
// database, then compare each sampled aid's heap block (ctid) and every relation's
// size with DatabaseLayout. Needs PGSTORSIM_TEST_DB (a conninfo) and pgbench.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "workload/database_layout.h"

namespace pgstorsim {
namespace {

using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

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
    Conn admin(PQconnectdb(base_.c_str()), &PQfinish);
    ASSERT_EQ(PQstatus(admin.get()), CONNECTION_OK) << PQerrorMessage(admin.get());
    PQsetNoticeProcessor(
        admin.get(), [](void*, const char*) {}, nullptr);
    Exec(admin.get(), "DROP DATABASE IF EXISTS " + dbname_);
    Exec(admin.get(), "CREATE DATABASE " + dbname_);
    created_ = true;
    db_conninfo_ = base_ + " dbname=" + dbname_;
  }

  void TearDown() override {
    if (!created_) return;
    conn_.reset();
    Conn admin(PQconnectdb(base_.c_str()), &PQfinish);
    if (PQstatus(admin.get()) == CONNECTION_OK) Exec(admin.get(), "DROP DATABASE " + dbname_);
  }

  static void Exec(PGconn* conn, const std::string& sql) {
    Result r(PQexec(conn, sql.c_str()), &PQclear);
    EXPECT_TRUE(PQresultStatus(r.get()) == PGRES_COMMAND_OK ||
                PQresultStatus(r.get()) == PGRES_TUPLES_OK)
        << sql << ": " << PQerrorMessage(conn);
  }

  void Pgbench(int scale) {
    const std::string cmd = pgbench_ + " -i -q -s " + std::to_string(scale) + " " +
                            Quote(db_conninfo_) + " </dev/null >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    conn_.reset(PQconnectdb(db_conninfo_.c_str()));
    ASSERT_EQ(PQstatus(conn_.get()), CONNECTION_OK) << PQerrorMessage(conn_.get());
  }

  int64_t QueryInt(const std::string& sql) {
    Result r(PQexec(conn_.get(), sql.c_str()), &PQclear);
    EXPECT_EQ(PQresultStatus(r.get()), PGRES_TUPLES_OK)
        << sql << ": " << PQerrorMessage(conn_.get());
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) != 1) return -1;
    return std::strtoll(PQgetvalue(r.get(), 0, 0), nullptr, 10);
  }

  std::string pgbench_, base_, dbname_, db_conninfo_;
  bool created_ = false;
  Conn conn_{nullptr, &PQfinish};
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
  Result ext(PQexec(conn_.get(), "CREATE EXTENSION IF NOT EXISTS pageinspect"), &PQclear);
  if (PQresultStatus(ext.get()) != PGRES_COMMAND_OK) {
    GTEST_SKIP() << "pageinspect unavailable: " << PQerrorMessage(conn_.get());
  }
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
