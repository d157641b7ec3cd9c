// One engine thread's normal path: the wait loop over its clients, scheduling,
// statement issue and results, transaction completion (ThreadLoop, engine_thread_loop.h),
// and RunEngineThread. Failures and reconnects are in engine_thread_failures.cc. See
// engine.h for the timing and failure rules.
#include "driver/engine_thread.h"

#include <algorithm>
#include <climits>

#include "common/units.h"
#include "driver/engine_thread_loop.h"
#include "driver/statement_sql.h"

namespace pgstorsim {

Status ThreadLoop::Run(std::vector<ClientSeed> seeds) {
  Status s = AddClients(std::move(seeds));
  return s.ok() ? Loop() : s;
}

Status ThreadLoop::Loop() {
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
    Status s = WaitAndHandle(wake_ns == INT64_MAX ? SocketWaiter::kNoDeadline
                                                  : std::max<int64_t>(0, wake_ns - MonotonicNs()));
    if (!s.ok()) return s;
  }
}

Status ThreadLoop::Step(size_t index, int64_t now, int64_t* wake_ns) {
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

Status ThreadLoop::StepScheduled(EngineClient* c, int64_t now, int64_t* wake_ns) {
  if (stopping_) {
    c->state = ClientState::kIdle;  // Finishes on the next step.
  } else if (now < c->sched_ns) {
    *wake_ns = std::min(*wake_ns, c->sched_ns);
  } else {
    return StartTransaction(c, now);
  }
  return Status::Ok();
}

void ThreadLoop::NewTransaction(EngineClient* c) {
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

Status ThreadLoop::StartTransaction(EngineClient* c, int64_t now, bool retry) {
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

void ThreadLoop::Send(EngineClient* c, int64_t now) {
  const ScriptEntry& e = mix_.entries[c->script];
  c->stmt_start_ns = now;
  c->state = ClientState::kBusy;
  if (!SendStatement(c, e.first_slot + c->stmt, DriverStatements(e.kind)[c->stmt], cfg_.prepared)) {
    ConnectionLost(c, PQerrorMessage(c->conn.get()));
  }
}

Status ThreadLoop::Advance(EngineClient* c, int64_t now) {
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

Status ThreadLoop::WaitAndHandle(int64_t timeout_ns) {
  waiter_->Wait(timeout_ns, &ready_);
  for (uint32_t index : ready_) {
    Status s = HandleInput(&clients_[index]);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status ThreadLoop::HandleInput(EngineClient* c) {
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

void ThreadLoop::TransactionDone(EngineClient* c, int64_t now, bool committed) {
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
