// Connection strings: which server a command talks to, and how to print that safely.
//
// Resolution order (ResolveConninfo): the --db flag, then env PGSTORSIM_DB, then the
// libpq environment (PGHOST or PGDATABASE set: an empty conninfo lets libpq read it),
// and otherwise the embedded local cluster (see local_cluster.h), which the caller
// must start. RedactConninfo removes passwords from both key=value strings and
// postgresql:// URIs; every conninfo that reaches stdout, stderr or a results file
// goes through it. Thread safety: pure functions.
#ifndef PGSTORSIM_PG_CONNINFO_H_
#define PGSTORSIM_PG_CONNINFO_H_

#include <functional>
#include <string>

namespace pgstorsim {

struct ConninfoChoice {
  std::string conninfo;   // Empty means "libpq defaults/environment".
  std::string source;     // "--db", "PGSTORSIM_DB", "libpq environment", "embedded cluster".
  bool embedded = false;  // True: the caller must start the local cluster and use its conninfo.
};

// `getenv` returns nullptr for unset variables (injected for tests).
using EnvLookup = std::function<const char*(const char*)>;
ConninfoChoice ResolveConninfo(const std::string& db_flag, const EnvLookup& getenv);
ConninfoChoice ResolveConninfo(const std::string& db_flag);  // Uses the process env.

// "host=h password=secret" -> "host=h password=***";
// "postgresql://u:secret@h/db?password=x" -> "postgresql://u:***@h/db?password=***".
std::string RedactConninfo(const std::string& conninfo);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_CONNINFO_H_
