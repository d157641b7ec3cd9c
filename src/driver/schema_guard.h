// The guard `pgstorsim init` runs before it drops the pgbench tables: tables that are
// not pgbench's (other columns) are never dropped, and pgbench tables holding rows
// only with --force. Thread safety: uses the connection it is given.
#ifndef PGSTORSIM_DRIVER_SCHEMA_GUARD_H_
#define PGSTORSIM_DRIVER_SCHEMA_GUARD_H_

#include <libpq-fe.h>

#include "common/status.h"

namespace pgstorsim {

// OK when DROP TABLE IF EXISTS pgbench_accounts, _branches, _history, _tellers (as
// resolved by the session's search_path) destroys nothing the user may want: each
// existing one has exactly pgbench's columns (schema.h PgbenchTables) and, unless
// `force`, holds no row. Errors name the table and why, and say what to do.
Status CheckPgbenchTablesReplaceable(PGconn* conn, bool force);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_SCHEMA_GUARD_H_
