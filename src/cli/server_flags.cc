// The server options shared by the commands that connect (server_flags.h).
#include "cli/server_flags.h"

namespace pgstorsim {

void AddServerFlags(CLI::App* app, ServerFlags* flags, std::string* positional_dbname) {
  app->set_help_flag("--help", "Print this help message and exit");
  app->add_option("--db", flags->db,
                  "libpq conninfo or URI (default: PGSTORSIM_DB, PG* env, "
                  "else the embedded cluster)");
  app->add_option("-h,--host", flags->host, "Server host (libpq host)");
  app->add_option("-p,--port", flags->port, "Server port");
  app->add_option("-U,--username", flags->user, "User name");
  app->add_option("-d,--dbname", flags->dbname, "Database name");
  app->add_option("dbname", *positional_dbname, "Database name (as pgbench's last argument)");
}

Status ApplyPositionalDbname(const std::string& positional_dbname, ServerFlags* flags) {
  if (positional_dbname.empty()) return Status::Ok();
  if (!flags->dbname.empty() && flags->dbname != positional_dbname) {
    return Status::Error("-d " + flags->dbname + " and the database name " + positional_dbname +
                         " disagree");
  }
  flags->dbname = positional_dbname;
  return Status::Ok();
}

}  // namespace pgstorsim
