// The command-line options that name a PostgreSQL server, spelled as pgbench spells
// them, for every command that connects (init, run, probe): --db (a libpq conninfo or
// URI), -h, -p, -U, -d and a database name as the last argument. What they resolve to
// (with PGSTORSIM_DB, the PG* environment and service files, else the embedded
// cluster) is pg/conninfo.h's. Thread safety: single-threaded setup.
#ifndef PGSTORSIM_CLI_SERVER_FLAGS_H_
#define PGSTORSIM_CLI_SERVER_FLAGS_H_

#include <CLI/CLI.hpp>
#include <string>

#include "common/status.h"
#include "pg/conninfo.h"

namespace pgstorsim {

// Declares the options on `app`, bound to *flags and (the positional database name) to
// *positional_dbname; both must outlive the parse. -h being the host, help is --help.
void AddServerFlags(CLI::App* app, ServerFlags* flags, std::string* positional_dbname);

// After the parse: the positional database name becomes flags->dbname. An error names
// both when -d gives another one.
Status ApplyPositionalDbname(const std::string& positional_dbname, ServerFlags* flags);

}  // namespace pgstorsim

#endif  // PGSTORSIM_CLI_SERVER_FLAGS_H_
