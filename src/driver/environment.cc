#include "driver/environment.h"

#include <unistd.h>

#include "pg/conninfo.h"
#include "pg/server.h"

namespace pgstorsim {

nlohmann::json DriverEnvironment(PGconn* conn, const std::string& conninfo,
                                 const std::string& source) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  auto version = QueryValue(conn, "SHOW server_version");
  return {{"hostname", host},
          {"server_version", version.ok() ? *version : "unknown"},
          {"conninfo", RedactConninfo(conninfo)},
          {"conninfo_source", source},
          {"libpq_version", PQlibVersion()}};
}

}  // namespace pgstorsim
