// Environment block of driver results: client hostname, the server reached
// (ServerIdentity: host, port, database, version, system_identifier, data_directory),
// server version, redacted conninfo
// and where it came from. Thread safety: pure apart from gethostname.
#ifndef PGSTORSIM_DRIVER_ENVIRONMENT_H_
#define PGSTORSIM_DRIVER_ENVIRONMENT_H_

#include <libpq-fe.h>

#include <nlohmann/json.hpp>
#include <string>

namespace pgstorsim {

nlohmann::json DriverEnvironment(PGconn* conn, const std::string& conninfo,
                                 const std::string& source);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENVIRONMENT_H_
