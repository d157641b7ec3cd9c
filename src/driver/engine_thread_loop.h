// Internal to the engine (engine.h): the loop one engine thread runs over its clients,
// declared here so its state machine can be defined in two files: engine_thread.cc (the
// normal path: scheduling, statement issue, results, transaction completion, and
// RunEngineThread) and engine_thread_failures.cc (statement failures, rollback and
// retry, lost connections, reconnects, and adding clients to the wait set).
//
// Units: times are monotonic nanoseconds (MonotonicNs), as in EngineShared.
// Ownership: the loop owns its clients (and so their connections) and its recorder;
// `shared`, `live`, `out`, `waiter` and `txn_log` are the caller's and outlive it.
// Threads: a loop is used by one engine thread only; of `shared` it reads the timing and
// the stop flags and sets fatal / server_lost / outage_start_ns as engine_thread.h says.
#ifndef PGSTORSIM_DRIVER_ENGINE_THREAD_LOOP_H_
#define PGSTORSIM_DRIVER_ENGINE_THREAD_LOOP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "driver/engine.h"
#include "driver/engine_client.h"
#include "driver/engine_recorder.h"
#include "driver/engine_thread.h"
#include "driver/socket_waiter.h"
#include "driver/txn_log.h"

namespace pgstorsim {

class ThreadLoop {
 public:
  ThreadLoop(EngineShared* shared, LiveCounters* live, EngineOutput* out, SocketWaiter* waiter,
             TxnLog* txn_log)
      : shared_(shared),
        in_(*shared->input),
        cfg_(in_.config),
        mix_(cfg_.Mix()),
        waiter_(waiter),
        recorder_(shared, live, out, mix_.slots.size(), mix_.entries.size(), txn_log),
        out_(out) {}

  // Takes the clients and runs them until every one is done, a stop flag is set or a
  // fatal error, which it returns.
  Status Run(std::vector<ClientSeed> seeds);

  int64_t last_done_ns() const { return recorder_.last_done_ns(); }
  bool interrupted() const { return interrupted_; }

 private:
  // engine_thread.cc: the normal path.
  Status Loop();
  // Whether Step has anything to do for a client in `state`.
  static bool NeedsStep(ClientState state) {
    return state != ClientState::kBusy && state != ClientState::kRollback &&
           state != ClientState::kDone;
  }
  // Starts what is due for a client that is not waiting for the server, and lowers
  // *wake_ns to its next deadline.
  Status Step(size_t index, int64_t now, int64_t* wake_ns);
  Status StepScheduled(EngineClient* c, int64_t now, int64_t* wake_ns);
  bool ClientFinished(const EngineClient& c) const {
    if (stopping_) return true;
    return cfg_.transactions_per_client > 0 &&
           c.measured_done >= static_cast<uint64_t>(cfg_.transactions_per_client);
  }
  void NewTransaction(EngineClient* c);
  // A retry keeps the first try's start, measured status and schedule, so its latency
  // covers every try and a retry after the window still counts.
  // A custom script's retry starts the script again with the variables as the failed
  // try left them.
  Status StartTransaction(EngineClient* c, int64_t now, bool retry = false);
  void Send(EngineClient* c, int64_t now);
  // Runs a custom script up to its next SQL command (sent), \sleep or end.
  Status Advance(EngineClient* c, int64_t now);
  Status WaitAndHandle(int64_t timeout_ns);
  Status HandleInput(EngineClient* c);
  void TransactionDone(EngineClient* c, int64_t now, bool committed);

  // engine_thread_failures.cc: failures, reconnects and the wait set.
  Status AddClients(std::vector<ClientSeed> seeds);
  Status Watch(size_t index);
  // Also after the window ends: a server that does not come back must be reported,
  // not averaged into the run (engine.h).
  Status StepReconnect(size_t index, int64_t now, int64_t* wake_ns);
  Status StatementFailed(EngineClient* c);
  Status AfterRollback(EngineClient* c, int64_t now);
  void ConnectionLost(EngineClient* c, const std::string& why);
  void ServerLost(EngineClient* c, int64_t now, const Status& last);
  void CloseConnection(EngineClient* c);
  Status Reconnect(size_t index);

  EngineShared* shared_;
  const EngineInput& in_;
  const RunConfig& cfg_;
  const ScriptMix& mix_;
  SocketWaiter* waiter_;
  EngineRecorder recorder_;
  EngineOutput* out_;
  std::vector<EngineClient> clients_;
  std::vector<uint32_t> ready_;  // Reused by WaitAndHandle.
  bool stopping_ = false;
  bool interrupted_ = false;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_ENGINE_THREAD_LOOP_H_
