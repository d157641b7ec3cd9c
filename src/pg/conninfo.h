// Connection strings: which server a command talks to, and how to print that safely.
//
// ResolveConninfo decides, in this order: the command line (--db CONNINFO|URI and
// pgbench's -h -p -U -d / positional database name, which override --db's keys), then
// env PGSTORSIM_DB, then the libpq environment (any of the variables libpq reads for
// host, hostaddr, port, dbname, user or service, found through PQconndefaults), and
// only when none of these names a server, the embedded local cluster (local_cluster.h),
// which the caller must start. Strings are parsed by libpq itself (PQconninfoParse): a
// malformed --db is an error naming the option with libpq's reason. Keys left unset are
// filled by libpq at connect time from its environment, service file (PGSERVICE,
// ~/.pg_service.conf) and password file, exactly as psql and pgbench do.
// RedactConninfo prints a conninfo without its password; every conninfo that reaches
// stdout, stderr or a results file goes through it. Thread safety: pure functions
// (apart from reading the process environment in the overloads without EnvLookup).
#ifndef PGSTORSIM_PG_CONNINFO_H_
#define PGSTORSIM_PG_CONNINFO_H_

#include <functional>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

// What the command line says about the server. Empty strings mean "not given".
struct ServerFlags {
  std::string db;      // --db: key=value conninfo or postgresql:// URI.
  std::string host;    // -h
  std::string port;    // -p
  std::string user;    // -U
  std::string dbname;  // -d or the positional database name.
};

struct ConninfoChoice {
  std::string conninfo;   // key=value; empty means "libpq defaults and environment".
  std::string source;     // e.g. "--db", "-h/-p/-U/-d", "PGSTORSIM_DB",
                          // "libpq environment (PGPORT, PGUSER)", "embedded cluster".
  bool embedded = false;  // True: the caller must start the local cluster and use its conninfo.
};

// `getenv` returns nullptr for unset variables (injected for tests).
using EnvLookup = std::function<const char*(const char*)>;
StatusOr<ConninfoChoice> ResolveConninfo(const ServerFlags& flags, const EnvLookup& getenv);
StatusOr<ConninfoChoice> ResolveConninfo(const ServerFlags& flags);  // The process env.

// The libpq environment variables that name a server (PGHOST, PGHOSTADDR, PGPORT,
// PGDATABASE, PGUSER, PGSERVICE as libpq's PQconndefaults lists them) and are set.
std::vector<std::string> ServerNamingEnvironment(const EnvLookup& getenv);

// libpq's parse of `conninfo` (key=value or URI) rewritten as key=value with `overrides`
// (pairs key, value; empty values skipped) applied. Errors carry libpq's message.
StatusOr<std::string> CanonicalConninfo(
    const std::string& conninfo, const std::vector<std::pair<std::string, std::string>>& overrides);

// The conninfo as libpq parses it, as key=value without the password
// ("password=***" marks that one was given); "(unparsable conninfo)" when libpq
// rejects it. Never contains the password.
std::string RedactConninfo(const std::string& conninfo);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_CONNINFO_H_
