// The replay core: plays trace records on volumes with one thread per worker, each
// with its own IoEngine (opened before any worker starts) and IoCore; times and counts
// everything; returns the measurements. Knows nothing about the command line.
//
// Clients are numbered densely in increasing id order (a trace's checkpointer is one
// more client); at most 1024 workers.
// Closed loop: worker w runs the transactions of clients k with k % workers == w, in
// transaction order, back to back; inside a transaction the records run in this
// order: data reads, data writes, WAL writes, fsyncs (each group in trace order).
// Latency is measured from issue. Data-page writes follow PostgreSQL's path by default
// (buffered_data_writes): write() into an emulated OS page cache of os_cache_bytes that
// a flusher thread writes back as Linux does (replay/os_writeback.h); a data-file fsync
// writes back that file's dirty pages first. Otherwise each is written synchronously
// by its worker (O_DIRECT, as before). Open loop: each record is issued at its trace time
// (relative to the start), latency from that scheduled time, so a late worker's
// queueing shows up (no coordinated omission). With a duration the trace repeats
// (open loop: shifted by the trace's span) until the duration has passed, checked
// between transactions; without one it plays once. `stop` (optional) ends the
// replay early: each worker checks it between transactions (and while waiting for an
// open-loop issue time), finishes the transaction it is in, and the outcome is
// marked interrupted.
// Thread safety: RunReplay is reentrant; it joins all threads before returning.
#ifndef PGSTORSIM_REPLAY_REPLAYER_H_
#define PGSTORSIM_REPLAY_REPLAYER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "common/status.h"
#include "io/io_core.h"
#include "io/io_engine.h"
#include "replay/placement.h"
#include "replay/volume.h"
#include "trace/trace_record.h"

namespace pgstorsim {

struct IntervalStats;
// Called from the replay's own thread with each finished interval, in order, while the
// replay runs (rows equal the final ReplayOutcome::intervals); `seconds` is the
// interval's length (shorter for the last one).
using IntervalCallback =
    std::function<void(size_t index, const IntervalStats& row, double seconds)>;

struct ReplayOptions {
  std::string engine = "psync";
  int queue_depth = 32;     // io_uring ring size per worker.
  int workers = 0;          // 0 = one per distinct client in the trace.
  int64_t duration_ns = 0;  // 0 = play the trace once.
  bool open_loop = false;
  int64_t interval_ns = 1000LL * 1000 * 1000;
  uint64_t seed = 1;  // Write data content.
  // PostgreSQL's write path (io.data_writes = buffered): data writes go to the emulated
  // OS page cache of `os_cache_bytes`; false: each is written at once (direct).
  bool buffered_data_writes = true;
  int64_t os_cache_bytes = 0;
  int64_t os_dirty_background_bytes = 0;  // Its dirty thresholds (0 = the defaults).
  int64_t os_dirty_limit_bytes = 0;
  IntervalCallback on_interval;  // Optional live output.
  // Optional; not owned; set to true (e.g. from a signal handler) to stop early.
  const std::atomic<bool>* stop = nullptr;
};

// Everything the workers need; volumes index `targets`.
struct ReplaySetup {
  std::vector<IoTargetSpec> targets;
  const Volume* data_volume = nullptr;
  const Volume* wal_volume = nullptr;  // nullptr: WAL files live on data_volume.
  Placement placement;
};

// Min/mean/max/stddev accumulator in nanoseconds.
struct LatencyAcc {
  uint64_t count = 0;
  double sum_ns = 0;
  double sum_sq_ns2 = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  void Add(int64_t ns);
  void Merge(const LatencyAcc& o);
};

struct IntervalStats {
  LatencyAcc reads;   // Logical data page reads.
  LatencyAcc writes;  // Logical writes (data and WAL).
  uint64_t transactions = 0;
  double txn_latency_sum_ns = 0;
};

struct ReplayOutcome {
  int workers = 0;
  bool interrupted = false;  // `stop` was set before the replay ended by itself.
  int64_t elapsed_ns = 0;
  uint64_t transactions = 0;
  uint64_t failed_transactions = 0;
  uint64_t records = 0;
  uint64_t failed_records = 0;
  uint64_t member_requests = 0;
  uint64_t member_errors = 0;
  // wal_write: a commit's wait until its WAL is durable (its group's write and fsync);
  // fsync: the data files' fsyncs.
  LatencyHistogram data_read, data_write, wal_write, fsync, transaction;
  // Group commit (wal_flush_group.h): commits, and the WAL flushes that made them durable.
  uint64_t wal_commits = 0, wal_flushes = 0;
  std::vector<IntervalStats> intervals;  // intervals[i] covers [i, i+1) * interval_ns.
  std::vector<DeviceCounters> devices;   // Indexed like ReplaySetup::targets.
  // Buffered data writes: the flusher's writes and what was still dirty at the end.
  uint64_t flusher_writes = 0;
  int64_t dirty_bytes_at_end = 0;
};

StatusOr<ReplayOutcome> RunReplay(const std::vector<TraceRecord>& records, const ReplaySetup& setup,
                                  const ReplayOptions& options);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_REPLAYER_H_
