// Opening the server a command should talk to.
//
// OpenServer resolves the conninfo (conninfo.h); for the embedded cluster it starts the
// cluster (local_cluster.h) and makes sure database "pgstorsim" exists. Connect opens one
// libpq connection and turns failures into one line without passwords.
// Thread safety: Connect is safe to call from several threads (one PGconn each).
#ifndef PGSTORSIM_PG_SERVER_H_
#define PGSTORSIM_PG_SERVER_H_

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "common/status.h"
#include "pg/local_cluster.h"

namespace pgstorsim {

struct Server {
  std::string conninfo;                   // Secret; print only RedactConninfo(conninfo).
  std::string source;                     // Where the conninfo came from (see ConninfoChoice).
  std::unique_ptr<LocalCluster> cluster;  // Non-null when we manage the server.
};

StatusOr<Server> OpenServer(const std::string& db_flag);
// Starts the embedded cluster regardless of flags and environment.
StatusOr<Server> OpenEmbeddedServer();

struct PgConnDeleter {
  void operator()(PGconn* c) const { PQfinish(c); }
};
using PgConn = std::unique_ptr<PGconn, PgConnDeleter>;

// Sessions carry application_name "pgstorsim" unless the conninfo sets one.
StatusOr<PgConn> Connect(const std::string& conninfo);

// Runs one statement that returns no rows or ignores them; errors carry the server message.
Status Exec(PGconn* conn, const std::string& sql);
// Runs a query and returns the first column of the first row as text ("" if no rows).
StatusOr<std::string> QueryValue(PGconn* conn, const std::string& sql);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_SERVER_H_
