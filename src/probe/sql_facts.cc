// ProbeSqlFacts: what SQL tells about a server (probe.h).
#include <cstdlib>
#include <map>

#include "pg/server.h"
#include "probe/probe.h"

namespace pgstorsim {
namespace {

struct Setting {
  std::string value;
  std::string unit;
};

// pg_settings rows for `names`; a name the server does not know is absent.
StatusOr<std::map<std::string, Setting>> Settings(PGconn* conn) {
  auto rows = QueryRows(conn,
                        "SELECT name, setting, coalesce(unit, '') FROM pg_settings WHERE name IN "
                        "('shared_buffers', 'synchronous_commit', 'full_page_writes', "
                        "'max_wal_size', 'checkpoint_segments', 'checkpoint_timeout', "
                        "'wal_writer_delay', 'checkpoint_completion_target', "
                        "'data_directory', 'server_version_num', "
                        "'server_version', 'block_size')");
  if (!rows.ok()) return rows.status().WithContext("pg_settings");
  const PGresult* res = rows->get();
  std::map<std::string, Setting> out;
  for (int i = 0; i < PQntuples(res); ++i) {
    out[PQgetvalue(res, i, 0)] = {PQgetvalue(res, i, 1), PQgetvalue(res, i, 2)};
  }
  return out;
}

// Bytes of a memory setting ("16384" with unit "8kB").
std::string Bytes(const Setting& s) {
  long long n = std::atoll(s.value.c_str());
  long long mult = 1;
  std::string u = s.unit;
  size_t digits = u.find_first_not_of("0123456789");
  if (digits > 0 && digits != std::string::npos) {
    mult = std::atoll(u.substr(0, digits).c_str());
    u = u.substr(digits);
  }
  if (u == "kB") mult *= 1024;
  if (u == "MB") mult *= 1024 * 1024;
  if (u == "GB") mult *= 1024LL * 1024 * 1024;
  return std::to_string(n * mult);
}

// A duration setting in scenario syntax ("300" with unit "s" -> "300s").
std::string Duration(const Setting& s) {
  if (s.unit == "min") return std::to_string(std::atoll(s.value.c_str()) * 60) + "s";
  return s.value + (s.unit.empty() ? "s" : s.unit);
}

Fact Detected(const std::string& key, const std::string& value, const std::string& source) {
  return {key, value, FactOrigin::kDetected, source};
}

}  // namespace

StatusOr<std::vector<Fact>> ProbeSqlFacts(PGconn* conn, std::string* data_directory) {
  auto settings = Settings(conn);
  if (!settings.ok()) return settings.status();
  std::map<std::string, Setting> set = std::move(settings).value();
  std::vector<Fact> facts;
  const int num = std::atoi(set["server_version_num"].value.c_str());
  const std::string major =
      num >= 100000 ? std::to_string(num / 10000)
                    : std::to_string(num / 10000) + "." + std::to_string(num / 100 % 100);
  facts.push_back(
      Detected("postgres.version", major, "server_version " + set["server_version"].value));
  facts.push_back(Detected("postgres.shared_buffers", Bytes(set["shared_buffers"]),
                           "pg_settings shared_buffers = " + set["shared_buffers"].value + " x " +
                               set["shared_buffers"].unit));
  facts.push_back(Detected("postgres.synchronous_commit",
                           set["synchronous_commit"].value == "off" ? "off" : "on",
                           "pg_settings synchronous_commit = " + set["synchronous_commit"].value));
  facts.push_back(Detected("postgres.full_page_writes", set["full_page_writes"].value,
                           "pg_settings full_page_writes"));
  if (set.count("max_wal_size")) {
    facts.push_back(Detected("postgres.max_wal_size", Bytes(set["max_wal_size"]),
                             "pg_settings max_wal_size = " + set["max_wal_size"].value + " " +
                                 set["max_wal_size"].unit));
  }
  if (set.count("checkpoint_segments")) {
    facts.push_back(Detected("postgres.checkpoint_segments", set["checkpoint_segments"].value,
                             "pg_settings checkpoint_segments"));
  }
  facts.push_back(Detected("postgres.checkpoint_timeout", Duration(set["checkpoint_timeout"]),
                           "pg_settings checkpoint_timeout"));
  facts.push_back(Detected("postgres.wal_writer_delay", Duration(set["wal_writer_delay"]),
                           "pg_settings wal_writer_delay"));
  if (set.count("checkpoint_completion_target")) {
    facts.push_back(Detected("postgres.checkpoint_completion_target",
                             set["checkpoint_completion_target"].value,
                             "pg_settings checkpoint_completion_target"));
  }
  *data_directory = set.count("data_directory") ? set["data_directory"].value : "";
  if (data_directory->empty()) {
    facts.push_back({"postgres.data_directory", "", FactOrigin::kUnknown,
                     "not readable by this role (needs pg_read_all_settings)"});
  } else {
    facts.push_back(Detected("postgres.data_directory", *data_directory, "pg_settings"));
  }
  auto size = QueryValue(conn, "SELECT pg_database_size(current_database())");
  if (size.ok()) {
    facts.push_back(Detected("database.size_bytes", *size, "pg_database_size(current_database())"));
  }
  auto scale = QueryValue(conn,
                          "SELECT CASE WHEN to_regclass('pgbench_branches') IS NULL THEN '' "
                          "ELSE (SELECT count(*)::text FROM pgbench_branches) END");
  if (scale.ok() && !scale->empty() && *scale != "0") {
    facts.push_back(Detected("workload.scale", *scale, "count(*) FROM pgbench_branches"));
  } else {
    facts.push_back({"workload.scale", "", FactOrigin::kAssumed,
                     "no pgbench tables in this database (pgstorsim init creates them)"});
  }
  return facts;
}

}  // namespace pgstorsim
