// One engine thread: a state machine per client (engine_client.h), driven by one
// epoll wait over the thread's connections (socket_waiter.h), with the counting done
// by engine_recorder.h. See engine.h for the timing and failure rules.
#include "driver/engine_thread.h"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "common/random.h"
#include "common/units.h"
#include "driver/engine_client.h"
#include "driver/engine_recorder.h"
#include "driver/socket_waiter.h"
#include "driver/statement_sql.h"

namespace pgstorsim {
namespace {

constexpr int64_t kFirstBackoffNs = 100 * kNsPerMs;
constexpr int64_t kMaxBackoffNs = 2 * kNsPerSec;

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

  Status Run(std::vector<ClientSeed> seeds) {
    Status s = AddClients(std::move(seeds));
    return s.ok() ? Loop() : s;
  }

  int64_t last_done_ns() const { return recorder_.last_done_ns(); }
  bool interrupted() const { return interrupted_; }

 private:
  Status AddClients(std::vector<ClientSeed> seeds) {
    clients_.resize(seeds.size());  // Never resized again: Wait() tags are indexes.
    for (size_t i = 0; i < seeds.size(); ++i) {
      InitClient(seeds[i].id, std::move(seeds[i].conn), mix_, in_.scale, cfg_.seed,
                 shared_->run_start_ns, &clients_[i]);
      clients_[i].backoff_ns = kFirstBackoffNs;
      Status s = Watch(i);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  Status Watch(size_t index) {
    return waiter_->Add(PQsocket(clients_[index].conn.get()), static_cast<uint32_t>(index));
  }

  Status Loop() {
    while (true) {
      if (in_.stop != nullptr && in_.stop->load(std::memory_order_relaxed)) {
        interrupted_ = true;
        return Status::Ok();
      }
      if (shared_->fatal.load(std::memory_order_relaxed) ||
          shared_->server_lost.load(std::memory_order_relaxed)) {
        return Status::Ok();  // The failing thread reports it.
      }
      // The clock is read once a client needs it: most wake-ups only complete
      // statements whose successor HandleInput has already sent.
      int64_t now = 0;
      bool all_done = true;
      int64_t wake_ns = INT64_MAX;  // No deadline: the waiter's tick bounds the wait.
      for (size_t i = 0; i < clients_.size(); ++i) {
        if (NeedsStep(clients_[i].state)) {
          if (now == 0) {
            now = MonotonicNs();
            stopping_ = now >= shared_->window_end_ns;
          }
          Status s = Step(i, now, &wake_ns);
          if (!s.ok()) return s;
        }
        if (clients_[i].state != ClientState::kDone) all_done = false;
      }
      if (all_done) return Status::Ok();
      Status s =
          WaitAndHandle(wake_ns == INT64_MAX ? SocketWaiter::kNoDeadline
                                             : std::max<int64_t>(0, wake_ns - MonotonicNs()));
      if (!s.ok()) return s;
    }
  }

  // Whether Step has anything to do for a client in `state`.
  static bool NeedsStep(ClientState state) {
    return state != ClientState::kBusy && state != ClientState::kRollback &&
           state != ClientState::kDone;
  }

  // Starts what is due for a client that is not waiting for the server, and lowers
  // *wake_ns to its next deadline.
  Status Step(size_t index, int64_t now, int64_t* wake_ns) {
    EngineClient* c = &clients_[index];
    if (c->state == ClientState::kIdle) {
      if (ClientFinished(*c)) {
        CloseConnection(c);
        c->state = ClientState::kDone;
        return Status::Ok();
      }
      NewTransaction(c);
      c->state = ClientState::kWaitSchedule;
    }
    if (c->state == ClientState::kWaitSchedule) {
      Status s = StepScheduled(c, now, wake_ns);
      if (!s.ok()) return s;
    }
    if (c->state == ClientState::kScriptSleep) {
      if (now < c->wake_ns) {
        *wake_ns = std::min(*wake_ns, c->wake_ns);
      } else {
        return Advance(c, now);
      }
    }
    if (c->state == ClientState::kReconnectWait) return StepReconnect(index, now, wake_ns);
    return Status::Ok();
  }

  Status StepScheduled(EngineClient* c, int64_t now, int64_t* wake_ns) {
    if (stopping_) {
      c->state = ClientState::kIdle;  // Finishes on the next step.
    } else if (now < c->sched_ns) {
      *wake_ns = std::min(*wake_ns, c->sched_ns);
    } else {
      return StartTransaction(c, now);
    }
    return Status::Ok();
  }

  // Also after the window ends: a server that does not come back must be reported,
  // not averaged into the run (engine.h).
  Status StepReconnect(size_t index, int64_t now, int64_t* wake_ns) {
    EngineClient* c = &clients_[index];
    if (now >= c->reconnect_at_ns) return Reconnect(index);
    *wake_ns = std::min(*wake_ns, c->reconnect_at_ns);
    return Status::Ok();
  }

  bool ClientFinished(const EngineClient& c) const {
    if (stopping_) return true;
    return cfg_.transactions_per_client > 0 &&
           c.measured_done >= static_cast<uint64_t>(cfg_.transactions_per_client);
  }

  void NewTransaction(EngineClient* c) {
    c->script = mix_.entries.size() == 1
                    ? 0
                    : PickScript(mix_, c->mix_rng.UniformInt(0, mix_.total_weight - 1));
    if (mix_.entries[c->script].builtin) c->keys = c->key_gens[c->script].Next();
    c->tries = 0;
    if (cfg_.rate_tps > 0) {
      c->sched_ns += SecToNs(c->sched_rng.Exponential(cfg_.clients / cfg_.rate_tps));
    } else {
      c->sched_ns = 0;
    }
  }

  // A retry keeps the first try's start, measured status and schedule, so its latency
  // covers every try and a retry after the window still counts.
  // A custom script's retry starts the script again with the variables as the failed
  // try left them.
  Status StartTransaction(EngineClient* c, int64_t now, bool retry = false) {
    if (!retry) {
      c->txn_start_ns = now;
      int64_t origin = cfg_.rate_tps > 0 ? c->sched_ns : now;
      c->measured = origin >= shared_->window_start_ns && origin < shared_->window_end_ns;
      if (cfg_.rate_tps > 0 && c->measured) recorder_.ScheduleLag(now - c->sched_ns);
    }
    c->stmt = 0;
    const ScriptEntry& e = mix_.entries[c->script];
    if (e.builtin) {
      Send(c, now);
      return Status::Ok();
    }
    c->runner->Begin(e.script.get());
    return Advance(c, now);
  }

  void Send(EngineClient* c, int64_t now) {
    const ScriptEntry& e = mix_.entries[c->script];
    c->stmt_start_ns = now;
    c->state = ClientState::kBusy;
    if (!SendStatement(c, e.first_slot + c->stmt, DriverStatements(e.kind)[c->stmt],
                       cfg_.prepared)) {
      ConnectionLost(c, PQerrorMessage(c->conn.get()));
    }
  }

  // Runs a custom script up to its next SQL command (sent), \sleep or end.
  Status Advance(EngineClient* c, int64_t now) {
    const ScriptEntry& e = mix_.entries[c->script];
    ScriptAction action;
    Status s = c->runner->Next(&action);
    if (!s.ok()) return Status::Error("client " + std::to_string(c->id) + ": " + s.message());
    switch (action.kind) {
      case ScriptAction::Kind::kEnd:
        TransactionDone(c, now, true);
        return Status::Ok();
      case ScriptAction::Kind::kSleep:
        c->state = ClientState::kScriptSleep;
        c->wake_ns = now + action.sleep_us * kNsPerUs;
        return Status::Ok();
      case ScriptAction::Kind::kSql:
        break;
    }
    c->stmt = static_cast<size_t>(action.sql);
    c->stmt_start_ns = now;
    c->state = ClientState::kBusy;
    bool sent = false;
    s = SendScriptSql(c, e.first_slot + c->stmt, e.script->sql[c->stmt], cfg_.prepared, &sent);
    if (!s.ok()) return Status::Error("client " + std::to_string(c->id) + ": " + s.message());
    if (!sent) ConnectionLost(c, PQerrorMessage(c->conn.get()));
    return Status::Ok();
  }

  Status WaitAndHandle(int64_t timeout_ns) {
    waiter_->Wait(timeout_ns, &ready_);
    for (uint32_t index : ready_) {
      Status s = HandleInput(&clients_[index]);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  Status HandleInput(EngineClient* c) {
    std::string why;
    if (c->state != ClientState::kBusy && c->state != ClientState::kRollback) {
      if (c->conn != nullptr && !DrainIdleInput(c, &why)) ConnectionLost(c, why);
      return Status::Ok();
    }
    switch (ReadResults(c, &why)) {
      case ReadOutcome::kPending:
        return Status::Ok();
      case ReadOutcome::kLost:
        ConnectionLost(c, why);
        return Status::Ok();
      case ReadOutcome::kComplete:
        break;
    }
    int64_t now = MonotonicNs();
    if (c->state == ClientState::kRollback) return AfterRollback(c, now);
    if (!c->sqlstate.empty()) return StatementFailed(c);
    const ScriptEntry& e = mix_.entries[c->script];
    if (c->measured) recorder_.Statement(e.first_slot + c->stmt, now - c->stmt_start_ns);
    if (!e.builtin) return Advance(c, now);
    if (++c->stmt < e.slots) {
      Send(c, now);
    } else {
      TransactionDone(c, now, true);
    }
    return Status::Ok();
  }

  Status StatementFailed(EngineClient* c) {
    if (SqlStateIsConnectionLoss(c->sqlstate)) {
      ConnectionLost(c, c->error);
      return Status::Ok();
    }
    const size_t slot = mix_.entries[c->script].first_slot + c->stmt;
    if (c->measured) recorder_.StatementFailure(slot);
    if (!SqlStateIsRetryable(c->sqlstate)) {
      std::string msg = c->error;
      while (!msg.empty() && msg.back() == '\n') msg.pop_back();
      return Status::Error("client " + std::to_string(c->id) + ", statement '" +
                           mix_.slots[slot].name + "': " + msg);
    }
    recorder_.NoteError(c->error);
    c->retry_after_rollback = ++c->tries < cfg_.max_tries;
    c->state = ClientState::kRollback;
    if (!SendRollback(c)) ConnectionLost(c, PQerrorMessage(c->conn.get()));
    return Status::Ok();
  }

  Status AfterRollback(EngineClient* c, int64_t now) {
    if (!c->retry_after_rollback) {
      TransactionDone(c, now, false);
      return Status::Ok();
    }
    if (c->measured) recorder_.Retry(c->tries);
    return StartTransaction(c, now, /*retry=*/true);
  }

  void TransactionDone(EngineClient* c, int64_t now, bool committed) {
    c->state = ClientState::kIdle;
    uint64_t seq = c->seq++;
    if (!c->measured) {
      recorder_.Unmeasured(committed);
      return;
    }
    ++c->measured_done;
    int64_t origin = cfg_.rate_tps > 0 ? c->sched_ns : c->txn_start_ns;
    recorder_.Transaction(*c, seq, origin, now, committed);
  }

  void ConnectionLost(EngineClient* c, const std::string& why) {
    recorder_.ConnectionLost(why);
    bool in_txn = c->state == ClientState::kBusy || c->state == ClientState::kRollback ||
                  c->state == ClientState::kScriptSleep;
    CloseConnection(c);
    if (in_txn) TransactionDone(c, MonotonicNs(), false);
    if (c->lost_since_ns == 0) c->lost_since_ns = MonotonicNs();
    c->state = ClientState::kReconnectWait;
    c->reconnect_at_ns = MonotonicNs() + c->backoff_ns;
  }

  void ServerLost(EngineClient* c, int64_t now, const Status& last) {
    std::string why = last.ok() ? std::string("unknown") : last.message();
    std::replace(why.begin(), why.end(), '\n', ' ');
    while (!why.empty() && why.back() == ' ') why.pop_back();
    char head[120];
    std::snprintf(head, sizeof head, "no connection to the server for %.1f s (client %d)",
                  NsToSec(now - c->lost_since_ns), c->id);
    out_->server_lost = true;
    out_->server_lost_reason = std::string(head) + "; last error: " + why;
    int64_t expected = 0;
    shared_->outage_start_ns.compare_exchange_strong(expected, c->lost_since_ns);
    shared_->server_lost.store(true);
  }

  void CloseConnection(EngineClient* c) {
    if (c->conn == nullptr) return;
    int fd = PQsocket(c->conn.get());
    if (fd >= 0) waiter_->Remove(fd);
    c->conn.reset();
  }

  Status Reconnect(size_t index) {
    EngineClient* c = &clients_[index];
    auto conn = Connect(in_.conninfo);
    Status prepared = Status::Ok();
    if (conn.ok() && cfg_.prepared) prepared = PrepareStatements(conn->get(), mix_);
    if (!conn.ok() || !prepared.ok()) {
      const int64_t now = MonotonicNs();
      if (now - c->lost_since_ns >= cfg_.max_reconnect_wait_ns) {
        ServerLost(c, now, conn.ok() ? prepared : conn.status());
        return Status::Ok();
      }
      c->backoff_ns = std::min(c->backoff_ns * 2, kMaxBackoffNs);
      c->reconnect_at_ns = now + c->backoff_ns;
      return Status::Ok();
    }
    recorder_.Reconnected();
    c->lost_since_ns = 0;
    c->conn = std::move(conn).value();
    c->backoff_ns = kFirstBackoffNs;
    c->state = ClientState::kIdle;
    if (cfg_.rate_tps > 0) c->sched_ns = std::max(c->sched_ns, MonotonicNs());
    return Watch(index);
  }

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

}  // namespace

Status RunEngineThread(EngineShared* shared, int thread, std::vector<ClientSeed> clients,
                       TxnLog* txn_log, EngineOutput* out) {
  auto waiter = NewSocketWaiter(shared->tick_ns);
  if (!waiter.ok()) {
    shared->fatal.store(true);
    return waiter.status();
  }
  int64_t last_done_ns = 0;
  Status s = Status::Ok();
  {
    ThreadLoop loop(shared, &shared->live[thread], out, waiter->get(), txn_log);
    s = loop.Run(std::move(clients));
    last_done_ns = loop.last_done_ns();
    out->interrupted = loop.interrupted();
  }  // Flushes the latency samples and the keys log.
  if (!s.ok()) shared->fatal.store(true);
  int64_t end = std::max(last_done_ns, MonotonicNs());
  if (shared->server_lost.load()) {
    // Only while the server was up: until the outage that ended the run began.
    end = std::min(shared->outage_start_ns.load(), shared->window_end_ns);
  } else if (shared->window_end_ns != INT64_MAX && !out->interrupted) {
    end = std::max(last_done_ns, shared->window_end_ns);
  }
  out->measured_s = std::max(0.0, NsToSec(end - shared->window_start_ns));
  return s;
}

}  // namespace pgstorsim
