#include "sim/engine.h"

#include <algorithm>

#include "common/units.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace sim {
namespace {

enum EngineEvent : int32_t {
  kStartTxn = 1,
  kStatementDone = 2,
  kCommitCpuDone = 3,
  kSeriesTick = 4,
  kCheckpointTimer = 5,
  kLockGranted = 6,
  kCheckpointDone = 7,
};

// Random stream ids (forked from the seed).
constexpr uint64_t kArrivalStream = 2 << 20;

}  // namespace

Engine::Engine(const SimConfig& config) : config_(config), sim_(config.seed) {}
Engine::~Engine() = default;

Status Engine::Init() {
  Status valid = ValidateSimConfig(config_);
  if (!valid.ok()) return valid;
  StatusOr<std::unique_ptr<pgmodel::Host>> host = pgmodel::Host::Create(config_.host);
  if (!host.ok()) return host.status();
  host_ = std::move(host).value();

  StatusOr<std::unique_ptr<Controller>> controller =
      Controller::Create(config_.controller, config_.array, config_.disk, sim_);
  if (!controller.ok()) return controller.status();
  controller_ = std::move(controller).value();

  // History grows ~1 row per transaction and accounts (non-HOT updates) up to one row
  // per transaction: reserve room for 2 million of each.
  const DatabaseLayout& layout = host_->layout();
  std::array<int64_t, kRelationCount> reserve_pages{};
  reserve_pages[static_cast<int>(Relation::kHistory)] =
      1 + 2'000'000 / layout.history_tuples_per_page();
  reserve_pages[static_cast<int>(Relation::kAccounts)] =
      layout.pages(Relation::kAccounts) +
      (config_.host.heap_churn
           ? 1 + 2'000'000 / layout.relation(Relation::kAccounts).tuples_per_page
           : 0);
  StatusOr<VolumeMap> map =
      VolumeMap::Create(layout, reserve_pages, config_.host.wal_cache_region_bytes, config_.fs,
                        controller_->capacity_bytes());
  if (!map.ok()) return map.status();
  map_.emplace(std::move(map).value());

  // The WAL writer runs only for asynchronous commit; synchronous commits flush.
  wal_ = std::make_unique<WalLog>(sim_, config_.wal_on_data_volume ? controller_.get() : nullptr,
                                  &*map_, this,
                                  config_.synchronous_commit ? 0 : config_.wal_writer_delay_ns);
  const pgmodel::Host* wal_host = host_.get();
  CheckpointSchedule schedule{config_.host.checkpoint_timeout_ns, config_.host.checkpoint_wal_bytes,
                              config_.host.checkpoint_completion_target,
                              [wal_host] { return wal_host->insert_lsn(); }};
  writer_ = std::make_unique<BackgroundWriter>(sim_, controller_.get(), &*map_,
                                               config_.background_writes_outstanding,
                                               config_.os_dirty, std::move(schedule));
  writer_->set_checkpoint_done(this, kCheckpointDone);
  row_locks_ = std::make_unique<RowLockWaits>(config_.row_locks, config_.clients,
                                              host_->workload().statements());
  cpu_ = std::make_unique<HostCpu>(sim_, config_.cpu_cores);
  parts_ = {controller_.get(), wal_.get(), writer_.get(), row_locks_.get(), cpu_.get()};
  for (int i = 0; i < config_.clients; ++i) {
    clients_.emplace_back(ClientKeys(config_.host.scale, config_.seed, static_cast<uint32_t>(i)),
                          sim_.ForkRandom(kArrivalStream + i));
  }
  return Status::Ok();
}

void Engine::Run() {
  end_ns_ = config_.transactions_per_client > 0 ? INT64_MAX : config_.duration_ns;
  interval_ns_ = config_.series_interval_ns > 0
                     ? config_.series_interval_ns
                     : std::max<int64_t>(kNsPerSec, config_.duration_ns / 60);
  sim_.Schedule(interval_ns_, this, kSeriesTick);
  ArmCheckpointTimer();
  for (Component* part : parts_) part->Start();
  for (uint32_t c = 0; c < clients_.size(); ++c) {
    if (config_.rate_tps > 0) {
      NextTransaction(c);  // Schedules the first arrival.
    } else {
      sim_.Schedule(0, this, kStartTxn, c);
    }
  }
  sim_.RunUntil(end_ns_);
}

bool Engine::Accepting(const Client& client) const {
  if (config_.transactions_per_client > 0) return client.done < config_.transactions_per_client;
  return sim_.now_ns() < end_ns_;
}

void Engine::HandleEvent(const Event& e) {
  const uint32_t c = static_cast<uint32_t>(e.payload);
  switch (e.kind) {
    case kStartTxn:
      return StartTransaction(c);
    case kStatementDone:
      return StatementDone(c);
    case kCommitCpuDone:
      if (!config_.synchronous_commit) return OnWalFlushed(c);  // Ends without a flush.
      if (wal_->WaitFlushed(clients_[c].commit_lsn, c)) OnWalFlushed(c);
      return;
    case kLockGranted:
      return LockGranted(c);
    case kSeriesTick:
      return SeriesTick();
    case kCheckpointTimer:
      checkpoint_timer_armed_ = false;
      [[fallthrough]];
    case kCheckpointDone:
      CheckpointIfDue();
      return ArmCheckpointTimer();
  }
}

void Engine::StartTransaction(uint32_t c) {
  Client& client = clients_[c];
  if (config_.rate_tps <= 0) client.txn_start_ns = sim_.now_ns();
  client.txn_keys = client.keys.Next();
  host_->StartTransaction(client.txn_keys, &client.txn);
  client.transaction = transactions_started_++;
  client.statement = 0;
  StartStatement(c);
}

void Engine::StartStatement(uint32_t c) {
  Client& client = clients_[c];
  client.statement_start_ns = sim_.now_ns();
  client.touch = 0;
  client.progress = pgmodel::StatementProgress();
  ContinueTouches(c);
}

void Engine::ContinueTouches(uint32_t c) {
  Client& client = clients_[c];
  const StatementEffects& s = client.txn[client.statement];
  while (client.touch < s.touches.size()) {
    const PageTouch& t = s.touches[client.touch++];
    ios_.clear();
    host_->Touch(s.statement, t, &client.progress, &ios_);
    auto record = [&](const CacheIo& io, IoOp op) {
      TraceRecord r;
      r.time_ns = sim_.now_ns();
      r.client = c;
      r.transaction = client.transaction;
      r.statement = static_cast<uint8_t>(s.statement);
      r.op = op;
      r.file = io.first.file;
      r.offset_bytes = io.first.block * kPageBytes;
      r.length_bytes = io.pages * kPageBytes;
      return r;
    };
    const CacheIo* read = nullptr;
    bool buffered_writes = false;
    for (const CacheIo& io : ios_) {
      if (io.kind == CacheIo::kWrite) {
        if (config_.direct_data_writes) {
          client.pending_ios.push_back(record(io, IoOp::kWrite));
        } else {
          writer_->Enqueue(io.first, io.pages);
          buffered_writes = true;
        }
      } else {
        read = &io;
      }
    }
    // The victim is written before the page is read into its buffer.
    if (read != nullptr) client.pending_ios.push_back(record(*read, IoOp::kRead));
    const bool throttled = buffered_writes && writer_->Throttle(this, c);
    if (throttled || SubmitPending(c)) return;  // Resumes in OnIoDone.
  }
  if (LockStatementRow(c)) FinishStatementWork(c);
}

bool Engine::SubmitPending(uint32_t c) {
  Client& client = clients_[c];
  if (client.pending_ios.empty()) return false;
  const TraceRecord next = client.pending_ios.front();
  client.pending_ios.erase(client.pending_ios.begin());
  controller_->Submit(map_->Map(next), this, c);
  return true;
}

void Engine::OnIoDone(uint64_t token) {
  const auto c = static_cast<uint32_t>(token);
  if (!SubmitPending(c)) ContinueTouches(c);
}

void Engine::FinishStatementWork(uint32_t c) {
  Client& client = clients_[c];
  const StatementEffects& s = client.txn[client.statement];
  client.commit_lsn = host_->InsertWal(s, client.progress);
  wal_->Inserted(client.commit_lsn);
  const int64_t cpu_done_ns = cpu_->Run(config_.cpu_ns[static_cast<int>(s.statement)]);
  if (s.commit) {
    sim_.ScheduleAt(cpu_done_ns, this, kCommitCpuDone, c);
  } else {
    sim_.ScheduleAt(cpu_done_ns + config_.client_rtt_ns, this, kStatementDone, c);
  }
}

// The commit is durable (or, without synchronous commit, recorded): the
// transaction ends and its rows pass to their waiters.
void Engine::OnWalFlushed(uint32_t c) {
  EndTransactionLocks(c);
  sim_.Schedule(config_.client_rtt_ns, this, kStatementDone, c);
}

void Engine::EndTransactionLocks(uint32_t c) {
  granted_.clear();
  row_locks_->ReleaseAll(c, &granted_);
  for (uint32_t waiter : granted_) sim_.Schedule(0, this, kLockGranted, waiter);
}

// Called once the statement has found its row (its page touches are done).
bool Engine::LockStatementRow(uint32_t c) {
  const Client& client = clients_[c];
  return row_locks_->Acquire(client.txn[client.statement].statement, client.txn_keys, c,
                             sim_.now_ns());
}

void Engine::LockGranted(uint32_t c) {
  const Client& client = clients_[c];
  row_locks_->Granted(client.txn[client.statement].statement, c, sim_.now_ns());
  FinishStatementWork(c);
}

void Engine::StatementDone(uint32_t c) {
  Client& client = clients_[c];
  const StatementEffects& s = client.txn[client.statement];
  statement_latency_[static_cast<int>(s.statement)].Record(sim_.now_ns() -
                                                           client.statement_start_ns);
  if (++client.statement < client.txn.size()) return StartStatement(c);
  const int64_t latency_ns = sim_.now_ns() - client.txn_start_ns;
  txn_latency_.Record(latency_ns);
  ++transactions_;
  ++client.done;
  last_commit_ns_ = sim_.now_ns();
  ++interval_.transactions;
  interval_.latency_sum_ns += static_cast<double>(latency_ns);
  host_->EndTransaction();
  CheckpointIfDue();
  NextTransaction(c);
}

void Engine::NextTransaction(uint32_t c) {
  Client& client = clients_[c];
  if (!Accepting(client)) {
    if (config_.transactions_per_client > 0 && ++clients_finished_ == config_.clients) sim_.Stop();
    return;
  }
  if (config_.rate_tps <= 0) return StartTransaction(c);
  // Open loop: each client runs a Poisson schedule at rate/clients; a late
  // transaction starts at once and its latency counts from its scheduled time.
  const double mean_gap_ns = 1e9 * config_.clients / config_.rate_tps;
  client.next_arrival_ns += static_cast<int64_t>(client.arrivals.Exponential(mean_gap_ns));
  client.txn_start_ns = client.next_arrival_ns;
  sim_.ScheduleAt(client.next_arrival_ns, this, kStartTxn, c);
}

// A checkpoint due while one runs starts when that one ends (kCheckpointDone).
void Engine::CheckpointIfDue() {
  if (writer_->checkpoint_in_progress() || !host_->CheckpointDue(sim_.now_ns())) return;
  writer_->StartCheckpoint(host_->StartCheckpoint(sim_.now_ns()).pages);
}

// One timer for the timed checkpoint, none while a checkpoint runs.
void Engine::ArmCheckpointTimer() {
  if (checkpoint_timer_armed_ || writer_->checkpoint_in_progress()) return;
  checkpoint_timer_armed_ = true;
  sim_.ScheduleAt(host_->next_timed_checkpoint_ns(), this, kCheckpointTimer);
}

void Engine::SeriesTick() {
  IntervalSample s;
  s.t_s = NsToSec(sim_.now_ns());
  s.transactions = interval_.transactions;
  s.tps = interval_.transactions / NsToSec(interval_ns_);
  s.mean_latency_ms =
      interval_.transactions ? interval_.latency_sum_ns / interval_.transactions / kNsPerMs : 0;
  series_.push_back(s);
  interval_ = Interval{};
  sim_.Schedule(interval_ns_, this, kSeriesTick);
}

uint64_t Engine::disk_ops() const {
  uint64_t ops = 0;
  for (int i = 0; i < controller_->members(); ++i) {
    ops += controller_->member(i).stats().reads + controller_->member(i).stats().writes;
  }
  return ops;
}

}  // namespace sim
}  // namespace pgstorsim
