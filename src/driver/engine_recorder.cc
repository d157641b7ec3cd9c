#include "driver/engine_recorder.h"

#include <algorithm>

#include "common/units.h"
#include "workload/keys_log.h"

namespace pgstorsim {
namespace {

constexpr size_t kKeysLogFlushBytes = 64 * 1024;

}  // namespace

EngineRecorder::EngineRecorder(EngineShared* shared, LiveCounters* live, EngineOutput* out,
                               size_t statements, size_t scripts, TxnLog* txn_log)
    : shared_(shared),
      live_(live),
      out_(out),
      keys_log_(shared->input->keys_log),
      txn_log_(txn_log) {
  out_->stmt_latency.assign(statements, LatencyHistogram());
  out_->stmt_failures.assign(statements, 0);
  out_->script_txns.assign(scripts, 0);
  pending_.reserve(kPendingSamples);
}

EngineRecorder::~EngineRecorder() {
  FlushLatencies();
  FlushKeysLog(true);
}

void EngineRecorder::FlushLatencies() {
  for (const PendingSample& s : pending_) s.histogram->Record(s.value_ns);
  pending_.clear();
}

void EngineRecorder::Retry(int tries) {
  ++out_->retries;
  if (tries == 1) ++out_->retried;
}

void EngineRecorder::Transaction(const EngineClient& c, uint64_t seq, int64_t origin_ns,
                                 int64_t now_ns, bool committed) {
  int64_t latency_ns = now_ns - origin_ns;
  if (committed) {
    ++out_->transactions;
    ++out_->script_txns[c.script];
    Pend(&out_->txn_latency, latency_ns);
    CountSecond(now_ns, latency_ns);
    LiveCounters::Add(&live_->txns, 1);
    LiveCounters::Add(&live_->latency_ns, static_cast<uint64_t>(latency_ns));
  } else {
    ++out_->failed;
    LiveCounters::Add(&live_->failed, 1);
  }
  last_done_ns_ = std::max(last_done_ns_, now_ns);
  LogKeys(c, seq, origin_ns, now_ns, committed);
  if (txn_log_ != nullptr) {
    TxnLogRecord r;
    r.client = c.id;
    r.transaction_no = seq;
    r.script = static_cast<int>(c.script);
    r.latency_us = latency_ns / kNsPerUs;
    r.lag_us = (c.txn_start_ns - origin_ns) / kNsPerUs;
    r.committed = committed;
    r.serialization_failure = c.sqlstate == "40001";
    r.retries = std::max(0, c.tries - (committed ? 0 : 1));
    r.end_unix_us = (now_ns + shared_->unix_offset_ns) / kNsPerUs;
    txn_log_->Record(r);
  }
}

// Committed transactions and their latency sum, by completion second of the window.
void EngineRecorder::CountSecond(int64_t now_ns, int64_t latency_ns) {
  size_t second = static_cast<size_t>((now_ns - shared_->window_start_ns) / kNsPerSec);
  if (out_->per_second_txns.size() <= second) {
    out_->per_second_txns.resize(second + 1, 0);
    out_->per_second_latency_ns.resize(second + 1, 0.0);
  }
  ++out_->per_second_txns[second];
  out_->per_second_latency_ns[second] += latency_ns;
}

void EngineRecorder::ConnectionLost(const std::string& why) {
  ++out_->connection_losses;
  NoteError(why);
}

void EngineRecorder::NoteError(const std::string& message) {
  if (out_->first_error.empty()) out_->first_error = message;
}

void EngineRecorder::LogKeys(const EngineClient& c, uint64_t seq, int64_t origin_ns, int64_t now_ns,
                             bool committed) {
  if (keys_log_ == nullptr) return;
  KeysLogRecord r{c.id,
                  seq,
                  c.keys.aid,
                  c.keys.tid,
                  c.keys.bid,
                  c.keys.delta,
                  origin_ns - shared_->window_start_ns,
                  now_ns - shared_->window_start_ns,
                  committed};
  keys_buf_ += FormatKeysLogRecord(r);
  keys_buf_ += '\n';
  FlushKeysLog(false);
}

void EngineRecorder::FlushKeysLog(bool force) {
  if (keys_log_ == nullptr || keys_buf_.empty()) return;
  if (!force && keys_buf_.size() < kKeysLogFlushBytes) return;
  Status s = keys_log_->Append(keys_buf_);
  if (!s.ok()) NoteError(s.message());
  keys_buf_.clear();
}

}  // namespace pgstorsim
