// The pgbench schema: creation, loading and inspection of pgbench_accounts, _branches,
// _tellers and _history exactly as `pgbench -i` (PostgreSQL 15) makes them: same
// columns and types (aid bigint from scale 20000), fillfactor on the three updated
// tables, 1 branch / 10 tellers / 100000 accounts per scale unit, branch and teller
// filler NULL, account filler '' (blank-padded char(84)), data loaded with COPY ...
// FREEZE in one transaction, then VACUUM ANALYZE, then primary keys.
// Thread safety: functions use the connection they are given; one caller per connection.
#ifndef PGSTORSIM_DRIVER_SCHEMA_H_
#define PGSTORSIM_DRIVER_SCHEMA_H_

#include <libpq-fe.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

struct InitOptions {
  int scale = 1;         // >= 1.
  int fillfactor = 100;  // 10..100, as pgbench -F.
  bool unlogged = false;
};

// Errors name the offending option (--scale, --fillfactor).
Status ValidateInitOptions(const InitOptions& options);

// Progress lines ("creating tables...", ...) go to `progress`, which may be empty.
using ProgressFn = std::function<void(const std::string&)>;

// Drops and recreates the four tables and loads them. REQUIRES: ValidateInitOptions ok.
// `step_seconds` (may be null) receives {"create_tables":s,"generate":s,"vacuum":s,
// "primary_keys":s} as pgbench -i reports them.
Status CreateAndLoadPgbenchTables(PGconn* conn, const InitOptions& options,
                                  const ProgressFn& progress, nlohmann::json* step_seconds);

// A pgbench table and its column names in order, as CreateAndLoadPgbenchTables makes it.
struct PgbenchTableColumns {
  std::string table;
  std::vector<std::string> columns;
};
std::vector<PgbenchTableColumns> PgbenchTables();

// The pgbench tables, their primary keys and pgbench_history (RelationName order).
std::vector<std::string> PgbenchRelationNames();

// {"pgbench_accounts": pages, ..., "pgbench_accounts_pkey": pages, ...}:
// pg_relation_size / 8192 for each table and primary-key index.
StatusOr<nlohmann::json> RelationSizesPages(PGconn* conn);

// pgbench's pre-run maintenance (skipped by -n): VACUUM pgbench_branches, VACUUM
// pgbench_tellers, TRUNCATE pgbench_history. Like pgbench, a failing step is reported
// and the rest continues: returns one message per failure.
std::vector<std::string> PreRunVacuum(PGconn* conn);

// Scale of an initialised database (rows in pgbench_branches). Errors say the tables
// are missing and that `pgstorsim init` creates them.
StatusOr<int> DetectScale(PGconn* conn);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_SCHEMA_H_
