#include "pg/server.h"

#include <utility>

#include "pg/conninfo.h"
#include "pg/libpq_loader.h"

namespace pgstorsim {
namespace {

std::string OneLine(std::string s) {
  // libpq's messages continue on "\n\t" lines: one line, single spaces.
  std::string out;
  for (char c : s) {
    const bool space = c == '\n' || c == '\t' || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out.push_back(space ? ' ' : c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Runs `sql`; an error unless it returned rows or (when !rows_only) completed a command.
StatusOr<PgResult> Run(PGconn* conn, const std::string& sql, bool rows_only) {
  PgResult res(PQexec(conn, sql.c_str()));
  const ExecStatusType st = PQresultStatus(res.get());
  if (st == PGRES_TUPLES_OK || (!rows_only && st == PGRES_COMMAND_OK)) {
    return StatusOr<PgResult>(std::move(res));
  }
  std::string msg = PQresultErrorMessage(res.get());
  if (msg.empty()) msg = PQerrorMessage(conn);
  return Status::Error(OneLine(msg) + " (in: " + sql.substr(0, 80) + ")");
}

Status EnsureDatabase(const LocalCluster& cluster, const std::string& dbname) {
  auto conn = Connect(cluster.Conninfo("postgres"));
  if (!conn.ok()) return conn.status();
  auto exists =
      QueryValue(conn->get(), "SELECT 1 FROM pg_database WHERE datname = '" + dbname + "'");
  if (!exists.ok()) return exists.status();
  if (!exists->empty()) return Status::Ok();
  return Exec(conn->get(), "CREATE DATABASE " + dbname);
}

}  // namespace

StatusOr<Server> OpenServer(const ServerFlags& flags) {
  if (Status s = LoadLibpq(); !s.ok()) return s;
  auto choice = ResolveConninfo(flags);
  if (!choice.ok()) return choice.status();
  Server server;
  server.source = choice->source;
  server.conninfo = choice->conninfo;
  if (!choice->embedded) return server;
  return OpenEmbeddedServer();
}

std::string ServerBanner(const Server& server, PGconn* conn) {
  std::string where = std::string("host=") + PQhost(conn) + " port=" + PQport(conn) +
                      " dbname=" + PQdb(conn) + " user=" + PQuser(conn);
  if (server.cluster != nullptr) {
    return "server: embedded cluster in " + server.cluster->config().home + " (" + where +
           "): nothing named a server (--db, -h/-p/-U/-d, PGSTORSIM_DB, PGHOST, PGPORT, "
           "PGDATABASE, PGUSER, PGSERVICE)";
  }
  return "server: " + where + " (from " + server.source + ")";
}

StatusOr<Server> OpenEmbeddedServer() {
  if (Status s = LoadLibpq(); !s.ok()) return s;
  Server server;
  server.source = "embedded cluster";
  server.cluster = NewLocalCluster(DefaultLocalClusterConfig());
  Status s = server.cluster->Start();
  if (!s.ok()) return s.WithContext("embedded cluster");
  s = EnsureDatabase(*server.cluster, "pgstorsim");
  if (!s.ok()) return s.WithContext("embedded cluster");
  server.conninfo = server.cluster->Conninfo("pgstorsim");
  return server;
}

StatusOr<PgConn> Connect(const std::string& conninfo) {
  // expand_dbname=1: `conninfo` may be key=value or a URI; fallback_application_name
  // lets tests and DBAs find pgstorsim's sessions in pg_stat_activity.
  const char* keys[] = {"dbname", "fallback_application_name", nullptr};
  const char* values[] = {conninfo.c_str(), "pgstorsim", nullptr};
  if (Status s = LoadLibpq(); !s.ok()) return s;
  PgConn conn(PQconnectdbParams(keys, values, 1));
  if (conn == nullptr) return Status::Error("cannot allocate a libpq connection");
  // NOTICEs ("... does not exist, skipping") are not for the user; errors come back
  // through results.
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    std::string target = conninfo.empty() ? "libpq defaults" : RedactConninfo(conninfo);
    return Status::Error("cannot connect to '" + target +
                         "': " + OneLine(PQerrorMessage(conn.get())));
  }
  return conn;
}

Status Exec(PGconn* conn, const std::string& sql) {
  return Run(conn, sql, /*rows_only=*/false).status();
}

StatusOr<PgResult> QueryRows(PGconn* conn, const std::string& sql) {
  return Run(conn, sql, /*rows_only=*/true);
}

nlohmann::json ServerIdentity(PGconn* conn) {
  auto value = [conn](const char* sql) -> std::string {
    auto v = QueryValue(conn, sql);
    return v.ok() ? *v : "unknown: " + v.status().message();
  };
  const char* hostaddr = PQhostaddr(conn);
  return {{"host", PQhost(conn)},
          {"hostaddr", hostaddr != nullptr ? hostaddr : ""},
          {"port", PQport(conn)},
          {"database", PQdb(conn)},
          {"user", PQuser(conn)},
          {"server_version", value("SHOW server_version")},
          {"system_identifier", value("SELECT system_identifier::text FROM pg_control_system()")},
          {"data_directory", value("SHOW data_directory")}};
}

StatusOr<std::string> QueryValue(PGconn* conn, const std::string& sql) {
  auto rows = QueryRows(conn, sql);
  if (!rows.ok()) return rows.status();
  return std::string(PQntuples(rows->get()) > 0 ? PQgetvalue(rows->get(), 0, 0) : "");
}

}  // namespace pgstorsim
