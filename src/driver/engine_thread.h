// Internal to the engine (engine.h): one OS thread's loop over its clients, and the
// small helpers the engine's files share. Not part of the driver's public interface.
//
// Files: engine_thread_loop.h (the per-client state machine and the thread's wait loop,
// defined in engine_thread.cc and engine_thread_failures.cc), engine_client.h (a
// client's state and libpq statement I/O), engine_recorder.h (per-thread statistics and
// keys-log buffer), socket_waiter.h (epoll over the thread's connections),
// engine_util.cc (the helpers below).
#ifndef PGSTORSIM_DRIVER_ENGINE_THREAD_H_
#define PGSTORSIM_DRIVER_ENGINE_THREAD_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/engine.h"
#include "driver/txn_log.h"
#include "pg/server.h"

namespace pgstorsim {

// One engine thread's counters for progress lines: written by that thread only (a
// relaxed load and store, no locked instruction), read by the progress thread. Each on
// its own cache line, so the threads' per-transaction writes never touch a line another
// thread reads.
struct alignas(64) LiveCounters {
  std::atomic<uint64_t> txns{0};        // Committed, measured.
  std::atomic<uint64_t> latency_ns{0};  // Sum of their latencies.
  std::atomic<uint64_t> failed{0};      // Measured, not committed.

  static void Add(std::atomic<uint64_t>* counter, uint64_t n) {
    counter->store(counter->load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
};

// Shared, read-only timing, the threads' live counters and the stop flags.
struct EngineShared {
  const EngineInput* input = nullptr;
  int64_t run_start_ns = 0;
  int64_t window_start_ns = 0;
  int64_t window_end_ns = 0;   // INT64_MAX in transactions mode.
  int64_t unix_offset_ns = 0;  // Unix time minus monotonic time.
  // Period of the tick that ends a thread's waits so it sees the stop flags: short when
  // another thread may set them (several engine threads, Ctrl-C caught by the progress
  // thread); long when the caller drives the only thread, whose waits a signal ends
  // itself (EINTR) and the tick only covers a signal landing just before a wait.
  int64_t tick_ns = 0;
  std::unique_ptr<LiveCounters[]> live;  // One per engine thread, by thread index.
  std::atomic<bool> fatal{false};        // A thread hit a fatal error: every thread stops.
  // A client found the server lost (engine.h): every thread stops; the outage began
  // at outage_start_ns (monotonic).
  std::atomic<bool> server_lost{false};
  std::atomic<int64_t> outage_start_ns{0};
};

struct ClientSeed {
  int id = 0;
  PgConn conn;
};

// Runs `clients` (thread `thread`'s share; it writes shared->live[thread]) until every one is done,
// the stop flag is set, or a fatal error (set in shared->fatal for the other threads). Fills `out`
// (this thread's EngineOutput, merged later by the caller, including measured_s and interrupted).
// Returns the fatal error, if any. `txn_log` (null without -l) is this thread's own. Thread safety:
// `shared` is shared with the other engine threads.
Status RunEngineThread(EngineShared* shared, int thread, std::vector<ClientSeed> clients,
                       TxnLog* txn_log, EngineOutput* out);

// Prepares every statement slot of the mix as PreparedName(slot) on `conn`.
Status PrepareStatements(PGconn* conn, const ScriptMix& mix);

// Monotonic clock (steady_clock) in nanoseconds.
int64_t MonotonicNs();

// This process's CPU usage so far (getrusage RUSAGE_SELF; `committed` left 0).
ClientCpu ProcessCpuNow();
// after - before, field by field.
ClientCpu CpuDelta(const ClientCpu& before, const ClientCpu& after);

// Serialization failure (40001) or deadlock (40P01): the transaction may be retried.
bool SqlStateIsRetryable(const std::string& sqlstate);
// Admin/crash shutdown (57P01-57P03) or connection exception (class 08): reconnect.
bool SqlStateIsConnectionLoss(const std::string& sqlstate);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_THREAD_H_
