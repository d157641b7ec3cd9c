#include "driver/environment.h"

#include <unistd.h>

#include "pg/conninfo.h"
#include "pg/server.h"

namespace pgstorsim {

nlohmann::json DriverEnvironment(PGconn* conn, const std::string& conninfo,
                                 const std::string& source) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  nlohmann::json server = ServerIdentity(conn);
  return {{"hostname", host},
          {"server", server},
          {"server_version", server["server_version"]},
          {"conninfo", RedactConninfo(conninfo)},
          {"conninfo_source", source},
          {"libpq_version", PQlibVersion()}};
}

}  // namespace pgstorsim
