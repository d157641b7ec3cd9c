// TraceGenerator: workload model + cache model -> the physical I/O PostgreSQL would
// issue (docs/trace-format.md, docs/workload-model.md).
//
// For each transaction (keys drawn from a seed or read from a driver keys log), the
// PostgreSQL host model (pgmodel/host.h: buffer cache, relation extension, full-page
// images, WAL with page headers, non-HOT updates, checkpoints, background writer)
// turns each statement's page touches into physical I/O: misses become 8 KiB data
// reads, dirty victims, extensions and checkpoint writes become data writes; at each
// commit the unwritten 8 KiB-aligned WAL pages are written and the WAL file fsynced.
// Group commit: commits of other clients within `group_commit_window_ns` of a flush
// share its fsync. A checkpoint starts when the host says one is due (at a
// transaction's start); its dirty buffers are written spread evenly over the host's
// spread (completion target x the expected cycle), sorted by file and block. With
// host.cache.bgwriter_lru_maxpages > 0, a background-writer round every
// host.cache.bgwriter_delay_ms of trace time writes dirty buffers ahead of the clock
// hand, as data writes of the background client.
//
// Times: transaction i (global, 0-based) starts at i * 1e9 / rate_tps; its statements
// are spaced evenly inside the transaction's slot. With a keys log that records times
// (any end_ns > 0), each transaction's statements are spaced evenly inside its
// recorded [start_ns, end_ns] instead (transactions taken in commit order; where they
// overlap, a later-committing one starts no earlier than the previous record), so an
// open-loop replay issues them when the measured run did. Records are emitted in
// non-decreasing time order. Deterministic for options + seed. With
// `warmup_transactions` the first ones are run but not recorded (see the option).
// Cache accounting: every page touch is a buffer fetch as PostgreSQL counts them in
// pg_statio (an UPDATE fetches its row's heap page twice: the scan, then
// heap_update()), summed per relation in GeneratorSummary::relations.
// Thread safety: a generator is single-threaded.
#ifndef PGSTORSIM_TRACE_TRACE_GENERATOR_H_
#define PGSTORSIM_TRACE_TRACE_GENERATOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "pgmodel/host.h"
#include "trace/trace_io.h"
#include "trace/trace_record.h"

namespace pgstorsim {

// The host of GeneratorOptions built directly (tests): pgmodel::HostConfig's defaults
// (128 MiB shared_buffers, no OS cache, no readahead, cold, checkpoints every 300 s or
// 1 GiB of WAL) with 1 GiB of WAL files.
pgmodel::HostConfig DefaultGeneratorHost();

struct GeneratorOptions {
  // The PostgreSQL host model (pgmodel/host.h): workload kind, scale, fillfactor,
  // measured relations, caches and their start (kPgPrewarm: as `pgstorsim run --cache
  // warm` leaves the server, not counted in the summary), heap churn, full-page writes,
  // checkpoints, the background writer (0 pages = off, the default; PostgreSQL's is
  // 100) and the WAL files' size (wal_cache_region_bytes: WAL offsets wrap at it rounded
  // up to whole 16 MiB segments; at least one segment). From a scenario:
  // pgmodel::HostConfigFromScenario.
  pgmodel::HostConfig host = DefaultGeneratorHost();
  int64_t transactions = 1000;  // Ignored when keys_log_path is set (all of it).
  int clients = 1;
  uint64_t seed = 1;          // Client c draws its keys from ClientKeys(host.scale, seed, c).
  std::string keys_log_path;  // Driver keys log (src/workload/keys_log.h); empty = draw keys.
  // Transactions run through the caches, WAL and checkpoints before the trace starts,
  // not recorded (keys: the first ones drawn or read from the keys log). A warm trace
  // then starts as a server that has been running: shared buffers hold dirty pages and
  // evicting them writes, where a fresh warm cache is all clean and its first
  // shared_buffers' worth of transactions write nothing. Recorded times and
  // transaction numbers start at 0 with the first recorded transaction; the summary
  // counts the recorded part only.
  int64_t warmup_transactions = 0;
  double rate_tps = 1000;              // Nominal spacing for open-loop replay.
  int64_t group_commit_window_ns = 0;  // 0 = every commit flushes on its own.
};

// Buffer fetches of one relation, as pg_statio counts them (pgmodel/host.h).
using RelationCacheCounts = pgmodel::RelationFetches;

struct GeneratorSummary {
  uint64_t transactions = 0;
  uint64_t skipped_transactions = 0;  // Keys-log entries with committed = 0.
  uint64_t records = 0;
  uint64_t data_reads = 0;
  uint64_t data_writes = 0;
  uint64_t wal_writes = 0;
  uint64_t fsyncs = 0;
  uint64_t checkpoints = 0;
  uint64_t full_page_images = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;  // Data + WAL.
  int64_t wal_bytes = 0;      // WAL bytes inserted (records + images).
  uint64_t shared_hits = 0;
  uint64_t os_hits = 0;
  uint64_t misses = 0;
  uint64_t non_hot_updates = 0;  // With heap_churn.
  uint64_t prunes = 0;
  // Data-page writes by writer, as pg_stat_bgwriter counts them (PostgreSQL 15 counts
  // relation extensions in buffers_backend too): backend = dirty evictions + extends.
  uint64_t buffers_checkpoint = 0;
  uint64_t buffers_clean = 0;
  uint64_t maxwritten_clean = 0;
  uint64_t buffers_backend = 0;
  uint64_t buffers_alloc = 0;
  double shared_hit_ratio() const;   // shared_hits / touches.
  double os_hit_ratio() const;       // os_hits / touches.
  double overall_hit_ratio() const;  // (shared_hits + os_hits) / touches.
  // Per relation, indexed by file id (workload Relation value); empty before Run().
  std::vector<RelationCacheCounts> relations;
  pgmodel::HostCounts host;  // The host model's own counts (recorded part).
  // pg_statio's heap_blks_hit / (heap_blks_hit + heap_blks_read) over the tables
  // (`indexes` false) or idx_blks_* over their indexes (true); 0 without fetches.
  double StatioHitRatio(bool indexes) const;
  nlohmann::json ToJson() const;
};

// Receives records in time order; a non-OK Status stops generation.
using TraceSink = std::function<Status(const TraceRecord&)>;

// A prepared generation: options validated, keys log loaded, header built. The
// header has one data file per pgbench relation (ids = workload Relation values, sizes
// covering history growth) plus "wal" (id 7), sized to the WAL the trace writes
// (rounded up to 16 MiB; offsets wrap at wal_file_bytes if it needs more); meta holds
// the options and statement names. Sizing the WAL costs one dry run at Create().
class TraceGenerator {
 public:
  virtual ~TraceGenerator() = default;
  // Errors name the option (or the keys-log file and line).
  static StatusOr<std::unique_ptr<TraceGenerator>> Create(const GeneratorOptions& options);
  virtual const TraceHeader& header() const = 0;
  // Generates the whole trace into `sink` and fills *summary. May be called again;
  // the same options produce the same records.
  virtual Status Run(const TraceSink& sink, GeneratorSummary* summary) = 0;
};

// Convenience wrappers around TraceGenerator (each prepares anew).
StatusOr<TraceHeader> BuildTraceHeader(const GeneratorOptions& options);

Status GenerateTrace(const GeneratorOptions& options, const TraceSink& sink,
                     GeneratorSummary* summary);

}  // namespace pgstorsim

#endif  // PGSTORSIM_TRACE_TRACE_GENERATOR_H_
