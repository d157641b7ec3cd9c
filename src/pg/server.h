// Opening the server a command should talk to.
//
// OpenServer resolves the conninfo (conninfo.h); for the embedded cluster it starts the
// cluster (local_cluster.h) and makes sure database "pgstorsim" exists. ServerBanner is
// the one line saying which server a command talks to and why. Connect opens one
// libpq connection and turns failures into one line without passwords.
// Thread safety: Connect is safe to call from several threads (one PGconn each).
#ifndef PGSTORSIM_PG_SERVER_H_
#define PGSTORSIM_PG_SERVER_H_

#include <libpq-fe.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"
#include "pg/conninfo.h"
#include "pg/local_cluster.h"

namespace pgstorsim {

struct Server {
  std::string conninfo;                   // Secret; print only RedactConninfo(conninfo).
  std::string source;                     // Where the conninfo came from (see ConninfoChoice).
  std::unique_ptr<LocalCluster> cluster;  // Non-null when we manage the server.
};

StatusOr<Server> OpenServer(const ServerFlags& flags);
// Starts the embedded cluster regardless of flags and environment.
StatusOr<Server> OpenEmbeddedServer();

struct PgConnDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConn = std::unique_ptr<PGconn, PgConnDeleter>;

// "server: host=/tmp port=5432 dbname=bank user=bob (from libpq environment (PGPORT))";
// for the embedded cluster it says that nothing named a server. No password.
std::string ServerBanner(const Server& server, PGconn* conn);

// Sessions carry application_name "pgstorsim" unless the conninfo sets one.
StatusOr<PgConn> Connect(const std::string& conninfo);

// Which server `conn` reached: host, hostaddr, port, database, user (libpq's view, no
// password), server_version, system_identifier (pg_control_system()) and
// data_directory; a value the role may not read is "unknown: <reason>".
nlohmann::json ServerIdentity(PGconn* conn);

struct PgResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// The statement helpers below block until the server answers; one thread at a time per
// `conn`. An error is one line: the server's message (libpq's when there is no result)
// and "(in: <the first 80 characters of sql>)".
//
// Runs one statement that returns no rows or ignores them.
Status Exec(PGconn* conn, const std::string& sql);
// Runs a query that returns rows (PGRES_TUPLES_OK; anything else is an error). The caller
// owns the result; PgResult frees it with PQclear.
StatusOr<PgResult> QueryRows(PGconn* conn, const std::string& sql);
// Runs a query and returns the first column of the first row as text ("" if no rows).
StatusOr<std::string> QueryValue(PGconn* conn, const std::string& sql);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_SERVER_H_
