// Server statistics sampler: snapshots of PostgreSQL's own I/O counters, their deltas
// over a run, and the settings that shape the I/O pattern.
//
// A snapshot holds flat counters keyed "<group>.<name>" with groups
//   tables   (pg_statio_user_tables: heap_blks_read/hit, idx_blks_read/hit; totals and
//             "<relname>.<column>" per table),
//   indexes  (pg_statio_user_indexes: idx_blks_read/hit; totals and per index),
//   wal      (pg_stat_wal: wal_records, wal_fpi, wal_bytes, wal_write, wal_sync),
//   database (pg_stat_database of the current database: xact_commit, xact_rollback,
//             blks_read, blks_hit),
//   bgwriter (pg_stat_bgwriter: checkpoints_timed, checkpoints_req, buffers_checkpoint,
//             buffers_clean, buffers_backend),
// and settings (shared_buffers, synchronous_commit, full_page_writes, checkpoint_timeout,
// max_wal_size, wal_sync_method, block_size, server_version) as text with units.
// Counters are cumulative for the whole cluster/database, so deltas include other
// sessions' activity. Thread safety: values; TakeSnapshot(conninfo) opens its own
// connection, TakeSnapshot(conn) uses the caller's (one thread at a time).
#ifndef PGSTORSIM_PG_SERVER_STATS_H_
#define PGSTORSIM_PG_SERVER_STATS_H_

#include <libpq-fe.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"

namespace pgstorsim {

using StatCounters = std::map<std::string, double>;

struct StatsSnapshot {
  StatCounters counters;
  std::map<std::string, std::string> settings;
  std::string postmaster_start_time;  // pg_postmaster_start_time(), text.
};

// Reads a snapshot over `conn` (open, idle, not inside a transaction block: each query
// sees fresh statistics). Errors carry the server's message.
StatusOr<StatsSnapshot> TakeSnapshot(PGconn* conn);
// The same over a connection of its own to `conninfo`; errors name the server without
// its password.
StatusOr<StatsSnapshot> TakeSnapshot(const std::string& conninfo);

// after - before for every counter in `after` (a counter missing from `before` counts
// from 0), plus derived hit ratios hit/(hit+read) for tables.heap, tables.idx and
// indexes.idx named "<group>.<kind>_hit_ratio", present only when hit+read > 0. Pure.
StatCounters StatsDelta(const StatCounters& before, const StatCounters& after);

// {"tables":{"heap_blks_read":..,..},"wal":{..},..}: grouped by the first key segment.
nlohmann::json CountersToJson(const StatCounters& counters);
nlohmann::json SnapshotToJson(const StatsSnapshot& snapshot);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_SERVER_STATS_H_
