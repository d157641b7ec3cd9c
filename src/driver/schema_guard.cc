#include "driver/schema_guard.h"

#include <string>
#include <vector>

#include "driver/schema.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
  return out;
}

}  // namespace

Status CheckPgbenchTablesReplaceable(PGconn* conn, bool force) {
  for (const PgbenchTableColumns& t : PgbenchTables()) {
    auto name = QueryValue(conn, "SELECT coalesce(to_regclass('" + t.table + "')::text, '')");
    if (!name.ok()) return name.status();
    if (name->empty()) continue;
    auto columns = QueryValue(conn,
                              "SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute "
                              "WHERE attrelid = '" +
                                  t.table + "'::regclass AND attnum > 0 AND NOT attisdropped");
    if (!columns.ok()) return columns.status();
    if (*columns != Join(t.columns)) {
      return Status::Error("table " + *name + " is not a pgbench table (columns " + *columns +
                           ", pgbench's are " + Join(t.columns) +
                           "); not dropped: rename or drop it yourself, or use another database");
    }
    if (force) continue;
    auto rows = QueryValue(conn, "SELECT EXISTS (SELECT 1 FROM " + t.table + ")");
    if (!rows.ok()) return rows.status();
    if (*rows == "t") {
      return Status::Error("table " + *name +
                           " already holds rows; add --force to drop and reload the pgbench "
                           "tables");
    }
  }
  return Status::Ok();
}

}  // namespace pgstorsim
