// Internal to the engine (engine.h): one client's state and its libpq statement I/O.
//
// A client owns one connection in non-blocking use: SendStatement / SendRollback queue
// a command with libpq's async API, and ReadResults collects what has arrived without
// ever blocking. Timing and accounting are done by the caller (engine_thread_loop.h,
// engine_recorder.h). Thread safety: a client is used by one engine thread only.
#ifndef PGSTORSIM_DRIVER_ENGINE_CLIENT_H_
#define PGSTORSIM_DRIVER_ENGINE_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/random.h"
#include "driver/script_mix.h"
#include "driver/statement_sql.h"
#include "pg/server.h"
#include "workload/tpcb.h"

namespace pgstorsim {

// kIdle: between transactions. kWaitSchedule: a --rate transaction waits for its
// scheduled start. kBusy: a statement is in flight. kScriptSleep: a custom script's
// \sleep. kRollback: the ROLLBACK after a retryable error is in flight. kReconnectWait:
// connection lost, reconnecting after a backoff. kDone: finished (connection closed).
enum class ClientState {
  kIdle,
  kWaitSchedule,
  kBusy,
  kScriptSleep,
  kRollback,
  kReconnectWait,
  kDone
};

struct EngineClient {
  int id = 0;
  PgConn conn;
  std::vector<KeyGenerator> key_gens;    // One per script entry (used by builtins).
  std::unique_ptr<ScriptRunner> runner;  // Custom scripts' interpreter; null without.
  Random sched_rng{1};
  Random mix_rng{1};  // Script choice (drawn only when there are several scripts).
  ClientState state = ClientState::kIdle;
  size_t script = 0;    // Entry of the current transaction in the ScriptMix.
  size_t stmt = 0;      // Builtin: index in DriverStatements; custom: SQL command index.
  int64_t wake_ns = 0;  // kScriptSleep: end of the sleep.
  TxnKeys keys;
  uint64_t seq = 0;  // Transactions started (with retries counted once).
  uint64_t measured_done = 0;
  int64_t sched_ns = 0;  // Scheduled start under --rate, monotonic.
  int64_t txn_start_ns = 0;
  int64_t stmt_start_ns = 0;
  int tries = 0;
  bool measured = false;
  bool retry_after_rollback = false;
  std::string sqlstate;  // Of the current statement's first error, "" if none.
  std::string error;     // Its message with " (SQLSTATE xxxxx)".
  int64_t reconnect_at_ns = 0;
  int64_t backoff_ns = 0;
  int64_t lost_since_ns = 0;  // When the connection was lost; 0 while connected.
};

// Sends builtin statement `def` with the client's keys, as the prepared statement
// PreparedName(slot) or as simple-protocol text. Clears sqlstate/error. Returns false
// when libpq could not send (the connection is lost; see PQerrorMessage).
// REQUIRES: the connection is idle.
bool SendStatement(EngineClient* c, size_t slot, const StatementDef& def, bool prepared);
// Sends SQL command `sql` of a custom script with the runner's variables. Returns an
// error for an undefined variable (prepared), false in *sent when the connection is lost.
Status SendScriptSql(EngineClient* c, size_t slot, const ScriptSql& sql, bool prepared, bool* sent);
// "s<slot>": the name of a prepared statement, formatted in place (no shared table, so
// sending a statement touches no memory beyond the client's own).
class PreparedName {
 public:
  explicit PreparedName(size_t slot);
  const char* c_str() const { return text_; }

 private:
  char text_[24];
};
// Sends ROLLBACK; false when the connection is lost.
bool SendRollback(EngineClient* c);

// Sets up client `id` on `conn`: the key stream of script entry k is master.Fork(2 id)
// for k = 0 and master.Fork(2 id + 2^32 k) after, the schedule stream master.Fork(2 id
// + 1), the script choice master.Fork(2 id + 2^40) and the custom scripts' stream
// master.Fork(2 id + 2^41); first schedule at start_ns. Custom script variables
// "scale", "client_id" and "random_seed" are preset.
void InitClient(int id, PgConn conn, const ScriptMix& mix, int scale, uint64_t seed,
                int64_t start_ns, EngineClient* c);

enum class ReadOutcome {
  kPending,   // The command's results have not all arrived yet.
  kComplete,  // All results are in; c->sqlstate / c->error hold its first error, if any.
  kLost,      // The connection is lost; *why says how (no password: server text only).
};
// Consumes what the server has sent so far. Never blocks.
ReadOutcome ReadResults(EngineClient* c, std::string* why);
// Input on a connection with nothing in flight: the server closed it (terminated
// backend, shutdown) or sent an asynchronous message. Reads it; false when the
// connection is lost (*why says how). REQUIRES: c->conn is open.
bool DrainIdleInput(EngineClient* c, std::string* why);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_CLIENT_H_
