// Internal to the engine (engine.h): one engine thread's statistics and keys-log
// buffer. Every count lands in the thread's own EngineOutput (merged after the run),
// so threads never share a lock; only the thread's progress counters (LiveCounters) are
// atomic (relaxed). Keys-log lines are buffered and appended in blocks of 64 KiB. Latency
// samples are buffered too and recorded into their histograms in batches of
// kPendingSamples, in arrival order (so every sum is the same as one by one): a
// histogram's buckets then stay in the CPU cache for a whole batch instead of missing
// it once per statement after each wait. The histograms in `out` are complete once
// the recorder is destroyed (or FlushLatencies ran).
// Thread safety: one thread per recorder.
#ifndef PGSTORSIM_DRIVER_ENGINE_RECORDER_H_
#define PGSTORSIM_DRIVER_ENGINE_RECORDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "driver/engine.h"
#include "driver/engine_client.h"
#include "driver/engine_thread.h"
#include "driver/txn_log.h"

namespace pgstorsim {

class EngineRecorder {
 public:
  // `shared`, `live` (this thread's), `out` and `txn_log` (may be null: no -l) must
  // outlive the recorder. Sizes
  // out's per-statement vectors for `statements` slots and per-script counts for
  // `scripts` scripts.
  EngineRecorder(EngineShared* shared, LiveCounters* live, EngineOutput* out, size_t statements,
                 size_t scripts, TxnLog* txn_log);
  ~EngineRecorder();  // Flushes the latency samples and the keys log.

  // A measured statement `stmt` completed after latency_ns.
  void Statement(size_t stmt, int64_t latency_ns) { Pend(&out_->stmt_latency[stmt], latency_ns); }
  // A measured statement `stmt` failed.
  void StatementFailure(size_t stmt) { ++out_->stmt_failures[stmt]; }
  // A measured transaction is retried for the `tries`-th time (1 = first retry).
  void Retry(int tries);
  // A measured --rate transaction started lag_ns after its schedule.
  void ScheduleLag(int64_t lag_ns) { Pend(&out_->schedule_lag, lag_ns); }
  // Client `c`'s measured transaction number `seq` ended at now_ns; latency runs from
  // origin_ns (start, or schedule under --rate). Also writes its keys-log line and its
  // -l line.
  void Transaction(const EngineClient& c, uint64_t seq, int64_t origin_ns, int64_t now_ns,
                   bool committed);
  // A transaction outside the window (warm-up) ended; only counted for ClientCpu.
  void Unmeasured(bool committed) { out_->unmeasured_committed += committed ? 1 : 0; }
  void ConnectionLost(const std::string& why);
  void Reconnected() { ++out_->reconnects; }
  // Keeps the first non-fatal error for the report.
  void NoteError(const std::string& message);

  // Monotonic time of the last measured completion (0 if none).
  int64_t last_done_ns() const { return last_done_ns_; }

  // Records the buffered latency samples into out's histograms.
  void FlushLatencies();

 private:
  static constexpr size_t kPendingSamples = 2048;  // 32 KiB.
  struct PendingSample {
    LatencyHistogram* histogram;  // Into out_: sized once by the constructor.
    int64_t value_ns;
  };

  void Pend(LatencyHistogram* histogram, int64_t value_ns) {
    pending_.push_back({histogram, value_ns});
    if (pending_.size() == kPendingSamples) FlushLatencies();
  }
  void CountSecond(int64_t now_ns, int64_t latency_ns);
  void LogKeys(const EngineClient& c, uint64_t seq, int64_t origin_ns, int64_t now_ns,
               bool committed);
  void FlushKeysLog(bool force);

  EngineShared* shared_;
  LiveCounters* live_;
  EngineOutput* out_;
  KeysLogWriter* keys_log_;
  TxnLog* txn_log_;
  std::string keys_buf_;
  std::vector<PendingSample> pending_;  // Capacity kPendingSamples, reserved once.
  int64_t last_done_ns_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_RECORDER_H_
