#include "pg/server_stats.h"

#include <cstdlib>

#include "pg/conninfo.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

const char* const kSettings[] = {"shared_buffers",     "synchronous_commit", "full_page_writes",
                                 "checkpoint_timeout", "max_wal_size",       "wal_sync_method",
                                 "block_size",         "server_version"};

// The statistics views a snapshot reads: counters named "<group>.<column>", and with
// `per_row` also "<group>.<first column's value>.<column>" per row.
struct StatsQuery {
  const char* group;
  const char* sql;
  bool per_row;
};
const StatsQuery kStatsQueries[] = {
    {"tables",
     "SELECT relname, heap_blks_read, heap_blks_hit, idx_blks_read, idx_blks_hit "
     "FROM pg_statio_user_tables ORDER BY relname",
     true},
    {"indexes",
     "SELECT indexrelname, idx_blks_read, idx_blks_hit "
     "FROM pg_statio_user_indexes ORDER BY indexrelname",
     true},
    {"wal", "SELECT wal_records, wal_fpi, wal_bytes, wal_write, wal_sync FROM pg_stat_wal", false},
    {"database",
     "SELECT xact_commit, xact_rollback, blks_read, blks_hit "
     "FROM pg_stat_database WHERE datname = current_database()",
     false},
    {"bgwriter",
     "SELECT checkpoints_timed, checkpoints_req, buffers_checkpoint, "
     "buffers_clean, buffers_backend FROM pg_stat_bgwriter",
     false},
};

double FieldOrZero(const PGresult* res, int row, int col) {
  return PQgetisnull(res, row, col) ? 0.0 : std::strtod(PQgetvalue(res, row, col), nullptr);
}

// Adds per-row counters "<group>.<name>.<column>" and group totals "<group>.<column>".
void AddRows(const PGresult* res, const std::string& group, StatCounters* out) {
  for (int r = 0; r < PQntuples(res); ++r) {
    const std::string name = PQgetvalue(res, r, 0);
    for (int c = 1; c < PQnfields(res); ++c) {
      const std::string column = PQfname(res, c);
      double v = FieldOrZero(res, r, c);
      (*out)[group + "." + name + "." + column] = v;
      (*out)[group + "." + column] += v;
    }
  }
}

void AddSingleRow(const PGresult* res, const std::string& group, StatCounters* out) {
  if (PQntuples(res) == 0) return;
  for (int c = 0; c < PQnfields(res); ++c) {
    (*out)[group + "." + PQfname(res, c)] = FieldOrZero(res, 0, c);
  }
}

// One query for every setting (as SHOW prints it) and the postmaster's start time.
std::string SettingsSql() {
  std::string sql = "SELECT ";
  for (const char* name : kSettings) sql += std::string("current_setting('") + name + "'), ";
  return sql + "pg_postmaster_start_time()::text";
}

void AddRatio(const StatCounters& delta, const std::string& prefix, StatCounters* out) {
  auto hit = delta.find(prefix + "_blks_hit");
  auto read = delta.find(prefix + "_blks_read");
  if (hit == delta.end() || read == delta.end()) return;
  double total = hit->second + read->second;
  if (total > 0) (*out)[prefix + "_hit_ratio"] = hit->second / total;
}

}  // namespace

StatusOr<StatsSnapshot> TakeSnapshot(PGconn* conn) {
  StatsSnapshot snap;
  for (const StatsQuery& q : kStatsQueries) {
    auto rows = QueryRows(conn, q.sql);
    if (!rows.ok()) return rows.status().WithContext("server statistics");
    if (q.per_row) {
      AddRows(rows->get(), q.group, &snap.counters);
    } else {
      AddSingleRow(rows->get(), q.group, &snap.counters);
    }
  }
  static const std::string kSettingsSql = SettingsSql();
  auto settings = QueryRows(conn, kSettingsSql);
  if (!settings.ok()) return settings.status().WithContext("server statistics");
  if (PQntuples(settings->get()) != 1) {
    return Status::Error("server statistics: the settings query returned no row");
  }
  int col = 0;
  for (const char* name : kSettings) snap.settings[name] = PQgetvalue(settings->get(), 0, col++);
  snap.postmaster_start_time = PQgetvalue(settings->get(), 0, col);
  return snap;
}

StatusOr<StatsSnapshot> TakeSnapshot(const std::string& conninfo) {
  auto conn = Connect(conninfo);
  if (!conn.ok()) return conn.status().WithContext("server statistics");
  return TakeSnapshot(conn->get());
}

StatCounters StatsDelta(const StatCounters& before, const StatCounters& after) {
  StatCounters delta;
  for (const auto& [key, value] : after) {
    auto it = before.find(key);
    delta[key] = value - (it == before.end() ? 0.0 : it->second);
  }
  StatCounters ratios;
  AddRatio(delta, "tables.heap", &ratios);
  AddRatio(delta, "tables.idx", &ratios);
  AddRatio(delta, "indexes.idx", &ratios);
  delta.insert(ratios.begin(), ratios.end());
  return delta;
}

nlohmann::json CountersToJson(const StatCounters& counters) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : counters) {
    size_t dot = key.find('.');
    if (dot == std::string::npos) {
      out[key] = value;
    } else {
      out[key.substr(0, dot)][key.substr(dot + 1)] = value;
    }
  }
  return out;
}

nlohmann::json SnapshotToJson(const StatsSnapshot& snapshot) {
  return {{"counters", CountersToJson(snapshot.counters)},
          {"settings", snapshot.settings},
          {"postmaster_start_time", snapshot.postmaster_start_time}};
}

}  // namespace pgstorsim
