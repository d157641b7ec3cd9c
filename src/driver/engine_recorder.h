// Internal to the engine (engine.h): one engine thread's statistics and keys-log
// buffer. Every count lands in the thread's own EngineOutput (merged after the run),
// so threads never share a lock; only the progress counters in EngineShared are atomic
// (relaxed). Keys-log lines are buffered and appended in blocks of 64 KiB.
// Thread safety: one thread per recorder.
#ifndef PGSTORSIM_DRIVER_ENGINE_RECORDER_H_
#define PGSTORSIM_DRIVER_ENGINE_RECORDER_H_

#include <cstdint>
#include <string>

#include "driver/engine.h"
#include "driver/engine_client.h"
#include "driver/engine_thread.h"
#include "driver/txn_log.h"

namespace pgstorsim {

class EngineRecorder {
 public:
  // `shared`, `out` and `txn_log` (may be null: no -l) must outlive the recorder. Sizes
  // out's per-statement vectors for `statements` slots and per-script counts for
  // `scripts` scripts.
  EngineRecorder(EngineShared* shared, EngineOutput* out, size_t statements, size_t scripts,
                 TxnLog* txn_log);
  ~EngineRecorder();  // Flushes the keys log.

  // A measured statement `stmt` completed after latency_ns.
  void Statement(size_t stmt, int64_t latency_ns) { out_->stmt_latency[stmt].Record(latency_ns); }
  // A measured statement `stmt` failed.
  void StatementFailure(size_t stmt) { ++out_->stmt_failures[stmt]; }
  // A measured transaction is retried for the `tries`-th time (1 = first retry).
  void Retry(int tries);
  // A measured --rate transaction started lag_ns after its schedule.
  void ScheduleLag(int64_t lag_ns) { out_->schedule_lag.Record(lag_ns); }
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

 private:
  void CountSecond(int64_t now_ns, int64_t latency_ns);
  void LogKeys(const EngineClient& c, uint64_t seq, int64_t origin_ns, int64_t now_ns,
               bool committed);
  void FlushKeysLog(bool force);

  EngineShared* shared_;
  EngineOutput* out_;
  KeysLogWriter* keys_log_;
  TxnLog* txn_log_;
  std::string keys_buf_;
  int64_t last_done_ns_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_RECORDER_H_
