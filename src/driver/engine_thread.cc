#include "driver/engine_thread.h"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>

#include "common/random.h"
#include "common/units.h"
#include "driver/statement_sql.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace {

constexpr int64_t kMaxPollNs = 10 * kNsPerMs;
constexpr int64_t kFirstBackoffNs = 100 * kNsPerMs;
constexpr int64_t kMaxBackoffNs = 2 * kNsPerSec;
constexpr size_t kKeysLogFlushBytes = 64 * 1024;

enum class State { kIdle, kWaitSchedule, kBusy, kRollback, kReconnectWait, kDone };

struct Client {
  int id = 0;
  PgConn conn;
  KeyGenerator key_gen{WorkloadKind::kTpcbLike, 1, Random(1)};
  Random sched_rng{1};
  State state = State::kIdle;
  size_t stmt = 0;
  TxnKeys keys;
  uint64_t seq = 0;
  uint64_t measured_done = 0;
  int64_t sched_ns = 0;
  int64_t txn_start_ns = 0;
  int64_t stmt_start_ns = 0;
  int tries = 0;
  bool measured = false;
  bool retry_after_rollback = false;
  std::string sqlstate;  // Of the current statement's error, "" if none.
  std::string error;
  int64_t reconnect_at_ns = 0;
  int64_t backoff_ns = kFirstBackoffNs;
};

class ThreadLoop {
 public:
  ThreadLoop(EngineShared* shared, EngineOutput* out)
      : shared_(shared),
        in_(*shared->input),
        cfg_(in_.config),
        defs_(DriverStatements(cfg_.workload)),
        out_(out) {
    out_->stmt_latency.assign(defs_.size(), LatencyHistogram());
    out_->stmt_failures.assign(defs_.size(), 0);
  }

  Status Run(std::vector<ClientSeed> seeds) {
    Random master(cfg_.seed);
    for (ClientSeed& s : seeds) {
      Client c;
      c.id = s.id;
      c.conn = std::move(s.conn);
      c.key_gen =
          KeyGenerator(cfg_.workload, in_.scale, master.Fork(2 * static_cast<uint64_t>(s.id)));
      c.sched_rng = master.Fork(2 * static_cast<uint64_t>(s.id) + 1);
      c.sched_ns = shared_->run_start_ns;
      clients_.push_back(std::move(c));
    }
    Status s = Loop();
    FlushKeysLog(true);
    return s;
  }

  // Monotonic time of the last measured completion (0 if none).
  int64_t last_done_ns() const { return last_done_ns_; }

 private:
  Status Loop() {
    while (true) {
      if (in_.stop != nullptr && in_.stop->load()) {
        out_->interrupted = true;
        return Status::Ok();
      }
      if (shared_->fatal.load()) return Status::Ok();  // Another thread reports it.
      int64_t now = MonotonicNs();
      stopping_ = now >= shared_->window_end_ns;
      bool all_done = true;
      int64_t wake_ns = now + kMaxPollNs;
      for (Client& c : clients_) {
        Status s = Step(&c, now, &wake_ns);
        if (!s.ok()) return s;
        if (c.state != State::kDone) all_done = false;
      }
      if (all_done) return Status::Ok();
      Status s = PollAndHandle(std::max<int64_t>(0, wake_ns - MonotonicNs()));
      if (!s.ok()) return s;
    }
  }

  Status Step(Client* c, int64_t now, int64_t* wake_ns) {
    switch (c->state) {
      case State::kIdle:
        if (ClientFinished(*c)) {
          c->state = State::kDone;
          c->conn.reset();
          return Status::Ok();
        }
        NewTransaction(c);
        [[fallthrough]];
      case State::kWaitSchedule:
        if (stopping_) {
          c->state = State::kIdle;
          return Status::Ok();
        }
        if (now < c->sched_ns) {
          c->state = State::kWaitSchedule;
          *wake_ns = std::min(*wake_ns, c->sched_ns);
          return Status::Ok();
        }
        return StartTransaction(c, now);
      case State::kReconnectWait:
        if (stopping_) {
          c->state = State::kDone;
          return Status::Ok();
        }
        if (now >= c->reconnect_at_ns) return Reconnect(c);
        *wake_ns = std::min(*wake_ns, c->reconnect_at_ns);
        return Status::Ok();
      default:
        return Status::Ok();
    }
  }

  bool ClientFinished(const Client& c) const {
    if (stopping_) return true;
    return cfg_.transactions_per_client > 0 &&
           c.measured_done >= static_cast<uint64_t>(cfg_.transactions_per_client);
  }

  void NewTransaction(Client* c) {
    c->keys = c->key_gen.Next();
    c->tries = 0;
    if (cfg_.rate_tps > 0) {
      double mean_s = cfg_.clients / cfg_.rate_tps;
      c->sched_ns += SecToNs(c->sched_rng.Exponential(mean_s));
    } else {
      c->sched_ns = 0;
    }
  }

  // A retry keeps the first try's start, measured status and schedule, so its latency
  // covers every try and a retry after the window still counts.
  Status StartTransaction(Client* c, int64_t now, bool retry = false) {
    if (!retry) {
      c->txn_start_ns = now;
      int64_t origin = cfg_.rate_tps > 0 ? c->sched_ns : now;
      c->measured = origin >= shared_->window_start_ns && origin < shared_->window_end_ns;
      if (cfg_.rate_tps > 0 && c->measured) out_->schedule_lag.Record(now - c->sched_ns);
    }
    c->stmt = 0;
    return SendStatement(c);
  }

  Status SendStatement(Client* c) {
    const StatementDef& def = defs_[c->stmt];
    c->sqlstate.clear();
    c->stmt_start_ns = MonotonicNs();
    int ok;
    if (cfg_.prepared) {
      std::string values[4];
      const char* ptrs[4];
      for (size_t i = 0; i < def.params.size(); ++i) {
        values[i] = ParamText(def.params[i], c->keys);
        ptrs[i] = values[i].c_str();
      }
      static const char* const kNames[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"};
      ok = PQsendQueryPrepared(c->conn.get(), kNames[c->stmt], static_cast<int>(def.params.size()),
                               ptrs, nullptr, nullptr, 0);
    } else {
      ok = PQsendQuery(c->conn.get(), SimpleSql(def, c->keys).c_str());
    }
    c->state = State::kBusy;
    if (!ok) ConnectionLost(c, PQerrorMessage(c->conn.get()));
    return Status::Ok();
  }

  Status PollAndHandle(int64_t timeout_ns) {
    std::vector<pollfd>& fds = poll_fds_;
    std::vector<Client*>& owners = poll_owners_;
    fds.clear();
    owners.clear();
    for (Client& c : clients_) {
      if (c.state != State::kBusy && c.state != State::kRollback) continue;
      fds.push_back({PQsocket(c.conn.get()), POLLIN, 0});
      owners.push_back(&c);
    }
    int timeout_ms = static_cast<int>((timeout_ns + kNsPerMs - 1) / kNsPerMs);
    int n = poll(fds.data(), fds.size(), timeout_ms);
    if (n <= 0) return Status::Ok();
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      Status s = HandleInput(owners[i]);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  Status HandleInput(Client* c) {
    PGconn* conn = c->conn.get();
    if (!PQconsumeInput(conn)) {
      ConnectionLost(c, PQerrorMessage(conn));
      return Status::Ok();
    }
    while (!PQisBusy(conn)) {
      PGresult* res = PQgetResult(conn);
      if (res == nullptr) return StatementDone(c);
      ExecStatusType st = PQresultStatus(res);
      if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && c->sqlstate.empty()) {
        const char* code = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        const char* primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
        c->sqlstate = code != nullptr ? code : "XX000";
        c->error = std::string(primary != nullptr ? primary : PQresultErrorMessage(res)) +
                   " (SQLSTATE " + c->sqlstate + ")";
      }
      PQclear(res);
    }
    return Status::Ok();
  }

  Status StatementDone(Client* c) {
    int64_t now = MonotonicNs();
    if (PQstatus(c->conn.get()) == CONNECTION_BAD) {
      ConnectionLost(c, c->error.empty() ? PQerrorMessage(c->conn.get()) : c->error);
      return Status::Ok();
    }
    if (c->state == State::kRollback) return AfterRollback(c, now);
    if (!c->sqlstate.empty()) return StatementFailed(c);
    if (c->measured) out_->stmt_latency[c->stmt].Record(now - c->stmt_start_ns);
    if (++c->stmt < defs_.size()) return SendStatement(c);
    TransactionDone(c, now, true);
    return Status::Ok();
  }

  Status StatementFailed(Client* c) {
    if (SqlStateIsConnectionLoss(c->sqlstate)) {
      ConnectionLost(c, c->error);
      return Status::Ok();
    }
    if (c->measured) ++out_->stmt_failures[c->stmt];
    if (!SqlStateIsRetryable(c->sqlstate)) {
      std::string msg = c->error;
      while (!msg.empty() && msg.back() == '\n') msg.pop_back();
      return Status::Error("client " + std::to_string(c->id) + ", statement '" +
                           defs_[c->stmt].name() + "': " + msg);
    }
    if (out_->first_error.empty()) out_->first_error = c->error;
    c->retry_after_rollback = ++c->tries < cfg_.max_tries;
    c->state = State::kRollback;
    if (!PQsendQuery(c->conn.get(), "ROLLBACK")) ConnectionLost(c, PQerrorMessage(c->conn.get()));
    return Status::Ok();
  }

  Status AfterRollback(Client* c, int64_t now) {
    if (c->retry_after_rollback) {
      if (c->measured) {
        ++out_->retries;
        if (c->tries == 1) ++out_->retried;
      }
      return StartTransaction(c, now, /*retry=*/true);
    }
    TransactionDone(c, now, false);
    return Status::Ok();
  }

  void TransactionDone(Client* c, int64_t now, bool committed) {
    c->state = State::kIdle;
    uint64_t seq = c->seq++;
    if (!c->measured) return;
    ++c->measured_done;
    int64_t origin = cfg_.rate_tps > 0 ? c->sched_ns : c->txn_start_ns;
    int64_t latency = now - origin;
    if (committed) {
      ++out_->transactions;
      out_->txn_latency.Record(latency);
      size_t second = static_cast<size_t>((now - shared_->window_start_ns) / kNsPerSec);
      if (out_->per_second_txns.size() <= second) {
        out_->per_second_txns.resize(second + 1, 0);
        out_->per_second_latency_ns.resize(second + 1, 0.0);
      }
      ++out_->per_second_txns[second];
      out_->per_second_latency_ns[second] += latency;
      shared_->live_txns.fetch_add(1, std::memory_order_relaxed);
      shared_->live_latency_ns.fetch_add(latency, std::memory_order_relaxed);
    } else {
      ++out_->failed;
      shared_->live_failed.fetch_add(1, std::memory_order_relaxed);
    }
    last_done_ns_ = std::max(last_done_ns_, now);
    LogKeys(*c, seq, origin, now, committed);
  }

  void ConnectionLost(Client* c, const std::string& why) {
    ++out_->connection_losses;
    if (out_->first_error.empty()) out_->first_error = why;
    bool in_txn = c->state == State::kBusy || c->state == State::kRollback;
    c->conn.reset();
    if (in_txn) TransactionDone(c, MonotonicNs(), false);
    c->state = State::kReconnectWait;
    c->reconnect_at_ns = MonotonicNs() + c->backoff_ns;
  }

  Status Reconnect(Client* c) {
    auto conn = Connect(in_.conninfo);
    if (!conn.ok() || (cfg_.prepared && !PrepareStatements(conn->get(), cfg_.workload).ok())) {
      c->backoff_ns = std::min(c->backoff_ns * 2, kMaxBackoffNs);
      c->reconnect_at_ns = MonotonicNs() + c->backoff_ns;
      return Status::Ok();
    }
    ++out_->reconnects;
    c->conn = std::move(conn).value();
    c->backoff_ns = kFirstBackoffNs;
    c->state = State::kIdle;
    if (cfg_.rate_tps > 0) c->sched_ns = std::max(c->sched_ns, MonotonicNs());
    return Status::Ok();
  }

  void LogKeys(const Client& c, uint64_t seq, int64_t origin, int64_t now, bool committed) {
    if (in_.keys_log == nullptr) return;
    KeysLogRecord r{c.id,
                    seq,
                    c.keys.aid,
                    c.keys.tid,
                    c.keys.bid,
                    c.keys.delta,
                    origin - shared_->window_start_ns,
                    now - shared_->window_start_ns,
                    committed};
    keys_buf_ += FormatKeysLogRecord(r);
    keys_buf_ += '\n';
    FlushKeysLog(false);
  }

  void FlushKeysLog(bool force) {
    if (in_.keys_log == nullptr || keys_buf_.empty()) return;
    if (!force && keys_buf_.size() < kKeysLogFlushBytes) return;
    Status s = in_.keys_log->Append(keys_buf_);
    if (!s.ok() && out_->first_error.empty()) out_->first_error = s.message();
    keys_buf_.clear();
  }

 private:
  EngineShared* shared_;
  const EngineInput& in_;
  const RunConfig& cfg_;
  const std::vector<StatementDef>& defs_;
  EngineOutput* out_;
  std::vector<Client> clients_;
  bool stopping_ = false;
  int64_t last_done_ns_ = 0;
  std::string keys_buf_;
  std::vector<pollfd> poll_fds_;      // Reused by PollAndHandle.
  std::vector<Client*> poll_owners_;  // Client of poll_fds_[i].
};

}  // namespace

Status RunEngineThread(EngineShared* shared, std::vector<ClientSeed> clients, EngineOutput* out) {
  ThreadLoop loop(shared, out);
  Status s = loop.Run(std::move(clients));
  if (!s.ok()) shared->fatal.store(true);
  int64_t end = std::max(loop.last_done_ns(), MonotonicNs());
  if (shared->window_end_ns != INT64_MAX && !out->interrupted) {
    end = std::max(loop.last_done_ns(), shared->window_end_ns);
  }
  out->measured_s = std::max(0.0, NsToSec(end - shared->window_start_ns));
  return s;
}

}  // namespace pgstorsim
