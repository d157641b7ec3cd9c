// One engine thread's failure handling (ThreadLoop, engine_thread_loop.h): statement
// errors, rollback and retry, lost connections with backoff and reconnect, giving up on
// a lost server, and adding connections to the thread's wait set. See engine.h for the
// failure rules.
#include <algorithm>
#include <cstdio>

#include "common/units.h"
#include "driver/engine_thread_loop.h"

namespace pgstorsim {
namespace {

constexpr int64_t kFirstBackoffNs = 100 * kNsPerMs;
constexpr int64_t kMaxBackoffNs = 2 * kNsPerSec;

}  // namespace

Status ThreadLoop::AddClients(std::vector<ClientSeed> seeds) {
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

Status ThreadLoop::Watch(size_t index) {
  return waiter_->Add(PQsocket(clients_[index].conn.get()), static_cast<uint32_t>(index));
}

Status ThreadLoop::StepReconnect(size_t index, int64_t now, int64_t* wake_ns) {
  EngineClient* c = &clients_[index];
  if (now >= c->reconnect_at_ns) return Reconnect(index);
  *wake_ns = std::min(*wake_ns, c->reconnect_at_ns);
  return Status::Ok();
}

Status ThreadLoop::StatementFailed(EngineClient* c) {
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

Status ThreadLoop::AfterRollback(EngineClient* c, int64_t now) {
  if (!c->retry_after_rollback) {
    TransactionDone(c, now, false);
    return Status::Ok();
  }
  if (c->measured) recorder_.Retry(c->tries);
  return StartTransaction(c, now, /*retry=*/true);
}

void ThreadLoop::ConnectionLost(EngineClient* c, const std::string& why) {
  recorder_.ConnectionLost(why);
  bool in_txn = c->state == ClientState::kBusy || c->state == ClientState::kRollback ||
                c->state == ClientState::kScriptSleep;
  CloseConnection(c);
  if (in_txn) TransactionDone(c, MonotonicNs(), false);
  if (c->lost_since_ns == 0) c->lost_since_ns = MonotonicNs();
  c->state = ClientState::kReconnectWait;
  c->reconnect_at_ns = MonotonicNs() + c->backoff_ns;
}

void ThreadLoop::ServerLost(EngineClient* c, int64_t now, const Status& last) {
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

void ThreadLoop::CloseConnection(EngineClient* c) {
  if (c->conn == nullptr) return;
  int fd = PQsocket(c->conn.get());
  if (fd >= 0) waiter_->Remove(fd);
  c->conn.reset();
}

Status ThreadLoop::Reconnect(size_t index) {
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

}  // namespace pgstorsim
