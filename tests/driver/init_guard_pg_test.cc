// `pgstorsim init` never drops tables it should not: a table named like pgbench's
// with other columns is refused always; pgbench tables holding rows only with --force.
#include <gtest/gtest.h>

#include <algorithm>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;
using testing_util::Value;

// init never drops a pgbench_accounts holding rows unless told to (--force).
TEST(InitGuardPgTest, TablesWithRowsNeedForce) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_init_guard_rows");
  Value(db,
        "CREATE TABLE pgbench_accounts(aid int not null, bid int, abalance int, "
        "filler char(84))");
  Value(db, "INSERT INTO pgbench_accounts VALUES (42, 1, 1000, 'mine')");
  const std::string out = testing_util::TempFile("guard.json");
  unlink(out.c_str());
  auto r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("pgstorsim init: table pgbench_accounts already holds rows", 0), 0u)
      << r.output;
  EXPECT_NE(r.output.find("--force"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_EQ(Value(db, "SELECT filler FROM pgbench_accounts WHERE aid = 42"),
            "mine" + std::string(80, ' '));
  r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out, "--force"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Value(db, "SELECT count(*) FROM pgbench_accounts"), "100000");
  // Our own tables hold rows too: a second init needs --force as well (and --force-out
  // to replace its --out).
  r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out, "--force-out"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("already holds rows"), std::string::npos) << r.output;
  r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out, "--force", "--force-out"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  unlink(out.c_str());
  testing_util::DropDatabase("pgst_init_guard_rows");
}

TEST(InitGuardPgTest, ForeignTableWithPgbenchNameIsNeverDropped) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_init_guard_cols");
  Value(db, "CREATE TABLE pgbench_history(id serial, note text)");
  const std::string out = testing_util::TempFile("guard2.json");
  unlink(out.c_str());
  auto r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out, "--force"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("pgbench_history is not a pgbench table (columns id,note"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(Value(db, "SELECT to_regclass('pgbench_history') IS NOT NULL"), "t");
  EXPECT_EQ(Value(db,
                  "SELECT count(*) FROM pg_attribute WHERE attrelid = "
                  "'pgbench_history'::regclass AND attname = 'note'"),
            "1");
  // Empty pgbench-shaped tables are replaced without --force.
  Value(db, "DROP TABLE pgbench_history");
  Value(db,
        "CREATE TABLE pgbench_tellers(tid int not null, bid int, tbalance int, "
        "filler char(84))");
  r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  unlink(out.c_str());
  testing_util::DropDatabase("pgst_init_guard_cols");
}

}  // namespace
}  // namespace pgstorsim
