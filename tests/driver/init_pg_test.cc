// `pgstorsim init` makes exactly what `pgbench -i` makes.
#include <gtest/gtest.h>

#include "common/file_util.h"
#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;
using testing_util::RunTool;
using testing_util::Value;

const char* kSchemaQuery =
    "SELECT string_agg(table_name || '.' || column_name || ':' || data_type || ':' || "
    "coalesce(character_maximum_length::text, '-') || ':' || is_nullable, ',' "
    "ORDER BY table_name, ordinal_position) FROM information_schema.columns "
    "WHERE table_name LIKE 'pgbench_%'";
const char* kOptionsQuery =
    "SELECT string_agg(relname || '=' || coalesce(array_to_string(reloptions, ';'), '') || "
    "':' || relpersistence::text, ',' ORDER BY relname) FROM pg_class WHERE relname LIKE "
    "'pgbench_%'";
const char* kIndexQuery =
    "SELECT string_agg(indexdef, ',' ORDER BY indexname) FROM pg_indexes "
    "WHERE tablename LIKE 'pgbench_%'";

void ExpectSameAsPgbench(const std::string& ours, const std::string& theirs) {
  for (const char* t :
       {"pgbench_accounts", "pgbench_branches", "pgbench_tellers", "pgbench_history"}) {
    std::string q = std::string("SELECT count(*) FROM ") + t;
    EXPECT_EQ(Value(ours, q), Value(theirs, q)) << t;
  }
  EXPECT_EQ(Value(ours, "SELECT count(*) FROM pgbench_accounts"), "100000");
  for (const char* q : {kSchemaQuery, kOptionsQuery, kIndexQuery}) {
    std::string mine = Value(ours, q);
    EXPECT_NE(mine.substr(0, 1), "<") << mine;  // Query errors come back as "<message>".
    EXPECT_EQ(mine, Value(theirs, q)) << q;
  }
  for (const char* q :
       {"SELECT count(*) FROM pgbench_branches WHERE filler IS NULL",
        "SELECT count(*) FROM pgbench_tellers WHERE filler IS NULL",
        "SELECT count(DISTINCT bid) || ':' || min(aid) || ':' || max(aid) || ':' "
        "|| sum(abalance) || ':' || count(*) FILTER (WHERE filler = '') "
        "FROM pgbench_accounts",
        "SELECT string_agg(tid || '/' || bid, ',' ORDER BY tid) FROM pgbench_tellers",
        "SELECT pg_relation_size('pgbench_accounts')",
        "SELECT pg_relation_size('pgbench_accounts_pkey')"}) {
    EXPECT_EQ(Value(ours, q), Value(theirs, q)) << q;
  }
}

TEST(InitPgTest, SameTablesRowsAndSizesAsPgbenchInit) {
  PGSTORSIM_FRESH_DB_OR_SKIP(ours, "pgst_drv_init_ours");
  PGSTORSIM_FRESH_DB_OR_SKIP(theirs, "pgst_drv_init_theirs");
  std::string out = testing_util::TempFile("init.json");
  auto r = RunPgstorsim({"init", "--scale", "1", "--db", ours, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto p = RunTool({testing_util::PgbenchPath(), "-i", "-q", "-s", "1", theirs});
  ASSERT_EQ(p.exit_code, 0) << p.output;
  ExpectSameAsPgbench(ours, theirs);

  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const auto& sizes = (*doc)["sections"]["relations"];
  EXPECT_EQ(std::to_string(sizes["pgbench_accounts"].get<long long>() * 8192),
            Value(ours, "SELECT pg_relation_size('pgbench_accounts')"));
  EXPECT_GT(sizes["pgbench_accounts_pkey"].get<long long>(), 0);
  EXPECT_EQ((*doc)["kind"], "init");
  unlink(out.c_str());
  testing_util::DropDatabase("pgst_drv_init_ours");
  testing_util::DropDatabase("pgst_drv_init_theirs");
}

TEST(InitPgTest, FillfactorAndUnloggedMatchPgbench) {
  PGSTORSIM_FRESH_DB_OR_SKIP(ours, "pgst_drv_initff_ours");
  PGSTORSIM_FRESH_DB_OR_SKIP(theirs, "pgst_drv_initff_theirs");
  std::string out = testing_util::TempFile("initff.json");
  auto r = RunPgstorsim({"init", "-s", "1", "-F", "80", "--unlogged", "--db", ours, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto p = RunTool({testing_util::PgbenchPath(), "-i", "-q", "-s", "1", "-F", "80",
                    "--unlogged-tables", theirs});
  ASSERT_EQ(p.exit_code, 0) << p.output;
  ExpectSameAsPgbench(ours, theirs);
  EXPECT_NE(Value(ours, kOptionsQuery).find("pgbench_accounts=fillfactor=80:u"), std::string::npos)
      << Value(ours, kOptionsQuery);
  unlink(out.c_str());
  testing_util::DropDatabase("pgst_drv_initff_ours");
  testing_util::DropDatabase("pgst_drv_initff_theirs");
}

}  // namespace
}  // namespace pgstorsim
