// The transaction engine of `pgstorsim run`: `threads` OS threads (with one thread and
// no progress lines, the calling thread itself), each driving its share of `clients`
// libpq connections asynchronously (one epoll wait loop per thread, like pgbench's -j
// threads), each client running the workload's statements one at a time (no
// pipelining: each statement waits for the previous one's result, as in pgbench).
// Otherwise the calling thread sleeps until the threads end, waking only to print a
// progress line. Waits arm no timer unless a client has a deadline (--rate schedule,
// reconnect backoff); stop flags are checked at least every 50 ms (socket_waiter.h).
//
// Timing: the run starts when all connections are open (and, with --start-at, when the
// wall clock reaches that time, so drivers on several hosts start together; the wait is
// not part of the initial connection time); the measured window starts
// warmup_ns later and lasts duration_ns (or until each client has run
// transactions_per_client measured transactions). A transaction is measured when it
// starts (or, under --rate, is scheduled) inside the window; in-flight transactions are
// finished after the window ends. Latency runs from the start (or scheduled start under
// --rate; the lag start - schedule is kept separately). Failed transactions:
// serialization failures (40001) and deadlocks (40P01) are retried with the same keys up
// to max_tries; lost connections (server restart, pg_terminate_backend) count the
// transaction as failed and the client reconnects with backoff (100 ms doubling to 2 s).
// A client still without a connection config.max_reconnect_wait_ns after it lost it
// (also after the window ends) ends the run: server_lost, and measured_s stops when
// that outage began, so tps covers only the time the server was up.
// Any other SQL error aborts the run with that error. Thread safety: RunEngine is
// called once from one thread; `stop` may be set from a signal handler.
#ifndef PGSTORSIM_DRIVER_ENGINE_H_
#define PGSTORSIM_DRIVER_ENGINE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "common/status.h"
#include "driver/run_options.h"
#include "workload/keys_log.h"

namespace pgstorsim {

struct EngineInput {
  RunConfig config;
  std::string conninfo;
  int scale = 1;
  KeysLogWriter* keys_log = nullptr;        // Optional; not owned.
  const std::atomic<bool>* stop = nullptr;  // Optional; set => stop now (interrupt).
  // Called from the engine's main thread every progress_ns with one line.
  std::function<void(const std::string&)> progress;
};

// CPU time of this whole process (every thread: engine threads, the waiting caller,
// libpq) from the moment all clients are connected until the last engine thread ends,
// i.e. warm-up and measured window, without connection set-up, server statistics or
// results (getrusage RUSAGE_SELF differences).
struct ClientCpu {
  double user_s = 0;
  double sys_s = 0;
  int64_t voluntary_switches = 0;    // Waits that slept (one per wake-up).
  int64_t involuntary_switches = 0;  // Preemptions.
  int64_t minor_faults = 0;
  uint64_t committed = 0;  // Committed transactions in that span (warm-up included).

  // (user + sys) / committed in microseconds; 0 when nothing committed.
  double UsPerTransaction() const;
};

struct EngineOutput {
  uint64_t transactions = 0;  // Committed, measured.
  uint64_t failed = 0;        // Measured transactions that did not commit.
  uint64_t retried = 0;       // Measured transactions retried at least once.
  uint64_t retries = 0;       // Total retries (serialization/deadlock) of measured ones.
  uint64_t connection_losses = 0;
  uint64_t reconnects = 0;
  double connect_s = 0;   // Time to open all connections.
  double measured_s = 0;  // Window start to the last measured completion (or stop).
  bool interrupted = false;
  bool server_lost = false;        // No connection for max_reconnect_wait_ns: run ended.
  std::string server_lost_reason;  // One line: how long, and libpq's last error.
  LatencyHistogram txn_latency;
  LatencyHistogram schedule_lag;               // Only under --rate.
  std::vector<LatencyHistogram> stmt_latency;  // Index = DriverStatements order.
  std::vector<uint64_t> stmt_failures;
  std::vector<uint64_t> script_txns;          // Committed, measured, per ScriptMix entry.
  std::vector<uint64_t> per_second_txns;      // Committed, by completion second.
  std::vector<double> per_second_latency_ns;  // Sum of latencies, same buckets.
  std::string first_error;                    // First non-fatal error text seen (for the report).
  uint64_t unmeasured_committed = 0;          // Committed outside the window (warm-up).
  ClientCpu cpu;
  std::vector<std::string> txn_logs;  // -l files written, thread order.
};

StatusOr<EngineOutput> RunEngine(const EngineInput& input);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_H_
