#include "sim/engine.h"

#include <algorithm>

#include "common/units.h"

namespace pgstorsim {
namespace sim {
namespace {

enum EngineEvent : int32_t {
  kStartTxn = 1,
  kStatementDone = 2,
  kCommitCpuDone = 3,
  kSeriesTick = 4,
  kCheckpointTimer = 5,
  kWalWriterTick = 6,
  kLockGranted = 7,
};

// Random stream ids (forked from the seed).
constexpr uint64_t kKeyStream = 1 << 20;
constexpr uint64_t kArrivalStream = 2 << 20;

// The OS cache's file number for the WAL (relations use their Relation number).
constexpr uint32_t kWalCacheFile = 1000;

}  // namespace

Engine::Engine(const SimConfig& config) : config_(config), sim_(config.seed) {}
Engine::~Engine() = default;

Status Engine::Init() {
  Status valid = ValidateSimConfig(config_);
  if (!valid.ok()) return valid;
  StatusOr<DatabaseLayout> layout = DatabaseLayout::Create({config_.scale, 100});
  if (!layout.ok()) return layout.status().WithContext("workload");
  layout_.emplace(std::move(layout).value());
  model_ = std::make_unique<TpcbModel>(&*layout_, config_.workload);

  CacheConfig cc;
  cc.shared_buffers_pages = config_.shared_buffers_bytes / kPageBytes;
  cc.os_cache_pages = std::max<int64_t>(
      0,
      (config_.ram_bytes - config_.shared_buffers_bytes - config_.os_reserved_bytes) / kPageBytes);
  cc.readahead_max_pages = config_.os_readahead_bytes / kPageBytes;
  // Linux's active and inactive lists (docs/lab.md, "What a warm run caches").
  cc.os_active_ratio = OsActiveRatio(cc.os_cache_pages, config_.linux_page_cache);
  StatusOr<std::unique_ptr<BufferCache>> cache = BufferCache::Create(cc);
  if (!cache.ok()) return cache.status().WithContext("postgres.shared_buffers");
  cache_ = std::move(cache).value();

  StatusOr<std::unique_ptr<Controller>> controller =
      Controller::Create(config_.controller, config_.array, config_.disk, sim_);
  if (!controller.ok()) return controller.status();
  controller_ = std::move(controller).value();

  // History grows ~1 row per transaction; reserve a generous region.
  const int64_t history_pages = 1 + 2'000'000 / layout_->history_tuples_per_page();
  StatusOr<VolumeMap> map = VolumeMap::Create(*layout_, history_pages, WalRegionBytes(config_),
                                              config_.fs, controller_->capacity_bytes());
  if (!map.ok()) return map.status();
  map_.emplace(std::move(map).value());
  for (int r = 0; r < kRelationCount; ++r) {
    const int64_t pages = std::max<int64_t>(1, r == static_cast<int>(Relation::kHistory)
                                                   ? history_pages
                                                   : layout_->pages(static_cast<Relation>(r)));
    changed_since_checkpoint_[r].assign(static_cast<size_t>((pages + 63) / 64), 0);
  }

  wal_ = std::make_unique<WalLog>(sim_, config_.wal_on_data_volume ? controller_.get() : nullptr,
                                  &*map_, this);
  writer_ = std::make_unique<BackgroundWriter>(sim_, controller_.get(), &*map_,
                                               config_.background_writes_outstanding,
                                               config_.os_dirty_expire_ns);
  if (config_.row_locks) row_locks_ = std::make_unique<RowLocks>(config_.clients);
  core_free_ns_.assign(config_.cpu_cores, 0);
  for (int i = 0; i < config_.clients; ++i) {
    clients_.emplace_back(KeyGenerator(config_.scale, sim_.ForkRandom(kKeyStream + i).Next()),
                          sim_.ForkRandom(kArrivalStream + i));
  }
  if (config_.warm) Prewarm();
  return Status::Ok();
}

// The whole database, hottest first: the cache fills shared buffers and the OS cache
// from the front and sizes its page index for every relation at once.
void Engine::Prewarm() {
  std::vector<PageSpan> spans;
  for (const PageRange& range : WarmOrder(*layout_)) {
    spans.push_back({static_cast<uint32_t>(range.relation), range.first_block, range.pages});
  }
  cache_->Prewarm(spans);
}

void Engine::Run() {
  end_ns_ = config_.transactions_per_client > 0 ? INT64_MAX : config_.duration_ns;
  interval_ns_ = config_.series_interval_ns > 0
                     ? config_.series_interval_ns
                     : std::max<int64_t>(kNsPerSec, config_.duration_ns / 60);
  cache_at_start_ = cache_->stats();
  sim_.Schedule(interval_ns_, this, kSeriesTick);
  sim_.Schedule(config_.checkpoint_timeout_ns, this, kCheckpointTimer);
  if (!config_.synchronous_commit) sim_.Schedule(config_.wal_writer_delay_ns, this, kWalWriterTick);
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
      Checkpoint();
      sim_.Schedule(config_.checkpoint_timeout_ns, this, kCheckpointTimer);
      return;
    case kWalWriterTick:
      wal_->FlushAll();
      sim_.Schedule(config_.wal_writer_delay_ns, this, kWalWriterTick);
      return;
  }
}

void Engine::StartTransaction(uint32_t c) {
  Client& client = clients_[c];
  if (config_.rate_tps <= 0) client.txn_start_ns = sim_.now_ns();
  client.txn_keys = client.keys.Next();
  model_->Transaction(client.txn_keys, history_rows_, &client.txn);
  client.transaction = transactions_started_++;
  ++history_rows_;
  client.statement = 0;
  StartStatement(c);
}

void Engine::StartStatement(uint32_t c) {
  Client& client = clients_[c];
  client.statement_start_ns = sim_.now_ns();
  client.touch = 0;
  client.pending_fpi_bytes = 0;
  ContinueTouches(c);
}

void Engine::ContinueTouches(uint32_t c) {
  Client& client = clients_[c];
  const StatementEffects& s = client.txn[client.statement];
  while (client.touch < s.touches.size()) {
    const PageTouch& t = s.touches[client.touch++];
    if (t.dirty) client.pending_fpi_bytes += FullPageImageBytes(t);
    ios_.clear();
    cache_->Touch({static_cast<uint32_t>(t.relation), t.block}, t.dirty, &ios_);
    // Extending pgbench_history creates its page: nothing to read.
    const bool extension = t.relation == Relation::kHistory && t.block > last_history_block_;
    if (extension) last_history_block_ = t.block;
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
    for (const CacheIo& io : ios_) {
      if (io.kind == CacheIo::kWrite) {
        if (config_.direct_data_writes) {
          client.pending_ios.push_back(record(io, IoOp::kWrite));
        } else {
          writer_->Enqueue(io.first, io.pages);
        }
      } else if (!extension) {
        read = &io;
      }
    }
    // The victim is written before the page is read into its buffer.
    if (read != nullptr) client.pending_ios.push_back(record(*read, IoOp::kRead));
    if (SubmitPending(c)) return;  // Resumes in OnIoDone.
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

int64_t Engine::FullPageImageBytes(const PageTouch& t) {
  if (!config_.full_page_writes || !MarkChangedSinceCheckpoint(t)) return 0;
  const int64_t per_page = layout_->history_tuples_per_page();
  const int64_t rows_on_page = t.relation == Relation::kHistory ? history_rows_ % per_page + 1 : 0;
  ++fpi_count_;
  const int64_t bytes = model_->FullPageImageBytes(t.relation, rows_on_page);
  fpi_bytes_ += bytes;
  return bytes;
}

// The WAL pages written from `start_lsn` to `end_lsn` enter the OS cache: PostgreSQL
// writes them with write() and, with wal_level replica, never drops them from it (it
// calls posix_fadvise(DONTNEED) only when no WAL is needed beyond crash recovery), so
// they compete with data pages (measured: docs/lab.md, "What a warm run caches").
// Segments are recycled, so page numbers wrap at the WAL region's size. A page written
// again is touched again (the kernel marks a written page accessed: the second write
// moves it to the active list); after that, further appends to the page being filled
// change nothing but its recency among the newest pages and are skipped (they were a
// tenth of the simulator's time).
void Engine::CacheWalPages(int64_t start_lsn, int64_t end_lsn) {
  const int64_t region_pages = WalRegionBytes(config_) / kPageBytes;
  if (end_lsn <= start_lsn || region_pages <= 0) return;
  for (int64_t p = start_lsn / kPageBytes; p <= (end_lsn - 1) / kPageBytes; ++p) {
    if (p == wal_cache_page_ && wal_cache_touches_ >= 2) continue;
    wal_cache_touches_ = p == wal_cache_page_ ? wal_cache_touches_ + 1 : 1;
    wal_cache_page_ = p;
    cache_->WriteOsPage({kWalCacheFile, p % region_pages});
  }
}

// True the first time a page is changed after the last checkpoint began.
bool Engine::MarkChangedSinceCheckpoint(const PageTouch& t) {
  std::vector<uint64_t>& bits = changed_since_checkpoint_[static_cast<int>(t.relation)];
  const uint64_t pages = bits.size() * 64;
  const uint64_t page = static_cast<uint64_t>(t.block) % pages;
  const uint64_t mask = 1ULL << (page % 64);
  if (bits[page / 64] & mask) return false;
  bits[page / 64] |= mask;
  return true;
}

void Engine::FinishStatementWork(uint32_t c) {
  Client& client = clients_[c];
  const StatementEffects& s = client.txn[client.statement];
  const int64_t wal_bytes = s.wal_bytes + client.pending_fpi_bytes;
  client.commit_lsn = wal_->Append(wal_bytes);
  CacheWalPages(client.commit_lsn - wal_bytes, client.commit_lsn);
  const int64_t cpu_done_ns = RunOnCpu(config_.cpu_ns[static_cast<int>(s.statement)]);
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
  if (!row_locks_) return;
  granted_.clear();
  row_locks_->ReleaseAll(c, &granted_);
  for (uint32_t waiter : granted_) sim_.Schedule(0, this, kLockGranted, waiter);
}

// FCFS over identical cores: the job takes the core that frees first. Any idle core
// will do (time only moves forward, so every idle core starts the next job now, as
// the one freed first would), and usually the first is idle: no scan of all cores.
int64_t Engine::RunOnCpu(int64_t cost_ns) {
  const int64_t now = sim_.now_ns();
  auto core = std::find_if(core_free_ns_.begin(), core_free_ns_.end(),
                           [now](int64_t free_ns) { return free_ns <= now; });
  if (core == core_free_ns_.end()) {
    core = std::min_element(core_free_ns_.begin(), core_free_ns_.end());
  }
  const int64_t start = std::max(*core, now);
  *core = start + cost_ns;
  cpu_busy_ns_ += cost_ns;
  return *core;
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
  // max_wal_size (or checkpoint_segments before 9.5).
  if (wal_->insert_lsn() - wal_at_checkpoint_ > CheckpointWalBytes(config_)) Checkpoint();
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

// Like PostgreSQL's checkpointer, the writes are paced to finish within
// completion_target of the expected distance to the next checkpoint: the timeout,
// or, when WAL volume triggers checkpoints sooner, the last cycle's length.
void Engine::Checkpoint() {
  ++checkpoints_;
  wal_at_checkpoint_ = wal_->insert_lsn();
  for (std::vector<uint64_t>& bits : changed_since_checkpoint_)
    std::fill(bits.begin(), bits.end(), 0);
  const int64_t cycle_ns = checkpoints_ > 1 ? sim_.now_ns() - last_checkpoint_ns_ : 0;
  last_checkpoint_ns_ = sim_.now_ns();
  const int64_t distance_ns = cycle_ns > 0 ? std::min(cycle_ns, config_.checkpoint_timeout_ns)
                                           : config_.checkpoint_timeout_ns;
  const int64_t spread_ns =
      static_cast<int64_t>(distance_ns * config_.checkpoint_completion_target);
  writer_->StartCheckpoint(cache_->Checkpoint(), spread_ns);
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
