// pgbench's transaction log (-l) and its aggregated form (--aggregate-interval N), in
// PostgreSQL 15's format, one file per engine thread: <prefix>.<pid> for thread 0 and
// <prefix>.<pid>.<thread> for the others.
//
// Per transaction: "client_id transaction_no time script_no time_epoch time_us
// [schedule_lag] [retries]": time is the latency in microseconds ("failed" when the
// transaction did not commit), script_no counts from 0, time_epoch/time_us is the
// completion time (Unix seconds and microseconds), schedule_lag (us) only under --rate
// and retries only when --max-tries is not 1.
// Aggregated, per interval of N seconds: "interval_start num_transactions sum_latency
// sum_latency_2 min_latency max_latency sum_lag sum_lag_2 min_lag max_lag skipped
// retried retries failures serialization_failures deadlock_failures" (microseconds;
// lag columns 0 without --rate; skipped is always 0: pgstorsim has no --latency-limit).
// Intervals start at the thread's start second; empty intervals are written too, and
// the last, partial one at Close. Thread safety: one TxnLog per engine thread.
#ifndef PGSTORSIM_DRIVER_TXN_LOG_H_
#define PGSTORSIM_DRIVER_TXN_LOG_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "common/status.h"

namespace pgstorsim {

struct TxnLogRecord {
  int client = 0;
  uint64_t transaction_no = 0;
  int script = 0;
  int64_t latency_us = 0;
  int64_t lag_us = 0;
  bool committed = true;
  bool serialization_failure = false;  // Failed after 40001 (else a deadlock if failed).
  int retries = 0;
  int64_t end_unix_us = 0;
};

struct TxnLogOptions {
  std::string prefix = "pgbench_log";
  int aggregate_interval_s = 0;  // 0: one line per transaction.
  bool rate = false;             // --rate given: schedule lag column(s).
  int max_tries = 1;
};

// The per-transaction line (without newline).
std::string FormatTxnLogLine(const TxnLogRecord& r, const TxnLogOptions& options);

// One aggregation interval.
struct TxnLogInterval {
  int64_t start_unix_s = 0;
  int64_t transactions = 0;
  double latency_sum = 0, latency_sum2 = 0, latency_min = 0, latency_max = 0;
  double lag_sum = 0, lag_sum2 = 0, lag_min = 0, lag_max = 0;
  int64_t retried = 0, retries = 0, serialization_failures = 0, deadlock_failures = 0;

  void Add(const TxnLogRecord& r);
};
std::string FormatIntervalLine(const TxnLogInterval& i);

class TxnLog {
 public:
  // Creates <prefix>.<pid>[.<thread>] (refuses to replace an existing file).
  static StatusOr<std::unique_ptr<TxnLog>> Open(const TxnLogOptions& options, int thread,
                                                int64_t start_unix_us);
  ~TxnLog();
  void Record(const TxnLogRecord& r);
  // Writes the last interval and closes the file; errors name the file.
  Status Close();
  const std::string& path() const { return path_; }

 private:
  TxnLog(const TxnLogOptions& options, std::string path, std::FILE* file, int64_t start_unix_us);
  void FlushIntervalsBefore(int64_t unix_us);

  TxnLogOptions options_;
  std::string path_;
  std::FILE* file_;
  TxnLogInterval interval_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_TXN_LOG_H_
