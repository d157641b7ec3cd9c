// Internal to the engine: one OS thread's loop over its clients (see engine.h).
// Not part of the driver's public interface.
#ifndef PGSTORSIM_DRIVER_ENGINE_THREAD_H_
#define PGSTORSIM_DRIVER_ENGINE_THREAD_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "driver/engine.h"
#include "pg/server.h"

namespace pgstorsim {

// Shared, read-only timing plus live counters for progress lines.
struct EngineShared {
  const EngineInput* input = nullptr;
  int64_t run_start_ns = 0;
  int64_t window_start_ns = 0;
  int64_t window_end_ns = 0;  // INT64_MAX in transactions mode.
  std::atomic<uint64_t> live_txns{0};
  std::atomic<uint64_t> live_latency_ns{0};
  std::atomic<uint64_t> live_failed{0};
  std::atomic<bool> fatal{false};  // A thread hit a fatal error: every thread stops.
};

struct ClientSeed {
  int id = 0;
  PgConn conn;
};

// Runs until every client is done, the stop flag is set, or a fatal error. Fills `out`
// (a per-thread EngineOutput merged later). Returns a fatal error, if any.
Status RunEngineThread(EngineShared* shared, std::vector<ClientSeed> clients, EngineOutput* out);

// Prepares the workload's statements as "s0", "s1", ... on `conn`.
Status PrepareStatements(PGconn* conn, WorkloadKind kind);

int64_t MonotonicNs();

// Serialization failure (40001) or deadlock (40P01): the transaction may be retried.
bool SqlStateIsRetryable(const std::string& sqlstate);
// Admin/crash shutdown (57P01-57P03) or connection exception (class 08): reconnect.
bool SqlStateIsConnectionLoss(const std::string& sqlstate);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_THREAD_H_
