#include "pg/server_stats.h"

#include <pqxx/pqxx>

#include "pg/conninfo.h"

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

double FieldOrZero(const pqxx::field& f) { return f.is_null() ? 0.0 : f.as<double>(); }

// Adds per-row counters "<group>.<name>.<column>" and group totals "<group>.<column>".
void AddRows(const pqxx::result& rows, const std::string& group, StatCounters* out) {
  for (const auto& row : rows) {
    std::string name = row[0].as<std::string>();
    for (pqxx::row::size_type c = 1; c < row.size(); ++c) {
      std::string column = rows.column_name(c);
      double v = FieldOrZero(row[c]);
      (*out)[group + "." + name + "." + column] = v;
      (*out)[group + "." + column] += v;
    }
  }
}

void AddSingleRow(const pqxx::result& rows, const std::string& group, StatCounters* out) {
  if (rows.empty()) return;
  for (pqxx::row::size_type c = 0; c < rows[0].size(); ++c) {
    (*out)[group + "." + rows.column_name(c)] = FieldOrZero(rows[0][c]);
  }
}

void AddRatio(const StatCounters& delta, const std::string& prefix, StatCounters* out) {
  auto hit = delta.find(prefix + "_blks_hit");
  auto read = delta.find(prefix + "_blks_read");
  if (hit == delta.end() || read == delta.end()) return;
  double total = hit->second + read->second;
  if (total > 0) (*out)[prefix + "_hit_ratio"] = hit->second / total;
}

}  // namespace

StatusOr<StatsSnapshot> TakeSnapshot(const std::string& conninfo) {
  StatsSnapshot snap;
  try {
    pqxx::connection conn(conninfo);
    pqxx::nontransaction tx(conn);
    for (const StatsQuery& q : kStatsQueries) {
      const pqxx::result rows = tx.exec(q.sql);
      if (q.per_row) {
        AddRows(rows, q.group, &snap.counters);
      } else {
        AddSingleRow(rows, q.group, &snap.counters);
      }
    }
    for (const char* name : kSettings) {
      snap.settings[name] = tx.exec1(std::string("SHOW ") + name)[0].as<std::string>();
    }
    snap.postmaster_start_time = tx.exec1("SELECT pg_postmaster_start_time()::text")[0].c_str();
  } catch (const std::exception& e) {
    std::string msg = e.what();
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    return Status::Error("server statistics from '" + RedactConninfo(conninfo) + "': " + msg);
  }
  return snap;
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
