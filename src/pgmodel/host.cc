#include "pgmodel/host.h"

#include <algorithm>

#include "common/units.h"

namespace pgstorsim::pgmodel {
namespace {

// The OS cache's file number for the WAL (relations use their Relation number).
constexpr uint32_t kWalCacheFile = 1000;

bool IsUpdate(Statement s) {
  return s == Statement::kUpdateAccounts || s == Statement::kUpdateTellers ||
         s == Statement::kUpdateBranches;
}

bool InsertsHistory(WorkloadKind kind) { return kind != WorkloadKind::kSelectOnly; }

// Calls run(k) for the next `n` keys k = next() in order, each drawn kAhead calls ahead
// of its run and passed to prefetch(k) then; next() is called exactly n times.
template <typename Next, typename Prefetch, typename Run>
void WithKeysAhead(Next next, int64_t n, Prefetch prefetch, Run run) {
  constexpr int64_t kAhead = 4;
  std::array<TxnKeys, kAhead> ahead;
  int64_t drawn = 0;
  auto draw = [&] {
    TxnKeys& k = ahead[drawn++ % kAhead];
    k = next();
    prefetch(k);
  };
  while (drawn < std::min(n, kAhead)) draw();
  for (int64_t i = 0; i < n; ++i) {
    const TxnKeys current = ahead[i % kAhead];
    if (drawn < n) draw();
    run(current);
  }
}

}  // namespace

const char* CacheStartName(CacheStart start) {
  switch (start) {
    case CacheStart::kCold:
      return "cold";
    case CacheStart::kWarm:
      return "warm";
    case CacheStart::kPgPrewarm:
      break;
  }
  return "pg-prewarm";
}

Status ValidateHostConfig(const HostConfig& c) {
  if (c.scale < 1) return Status::Error("workload.scale: must be >= 1");
  if (c.checkpoint_timeout_ns <= 0)
    return Status::Error("postgres.checkpoint_timeout: must be positive");
  if (c.checkpoint_wal_bytes <= 0) return Status::Error("checkpoint WAL volume: must be positive");
  if (!(c.checkpoint_completion_target >= 0 && c.checkpoint_completion_target <= 1))
    return Status::Error("postgres.checkpoint_completion_target: must be in [0, 1]");
  if (c.wal_cache_region_bytes < 0) return Status::Error("WAL cache region: must be >= 0");
  return Status::Ok();
}

nlohmann::json HostCounts::ToJson() const {
  const double n = transactions > 0 ? static_cast<double>(transactions) : 1.0;
  auto per = [n](double x) { return x / n; };
  return {{"transactions", transactions},
          {"read_ios", read_ios},
          {"pages_read", pages_read},
          {"eviction_writes", eviction_writes},
          {"extend_writes", extend_writes},
          {"checkpoint_writes", checkpoint_writes},
          {"bgwriter_writes", bgwriter_writes},
          {"buffers_dirtied", buffers_dirtied},
          {"wal_record_bytes", wal_record_bytes},
          {"wal_lsn_bytes", wal_lsn_bytes},
          {"full_page_images", full_page_images},
          {"full_page_image_bytes", full_page_image_bytes},
          {"checkpoints", checkpoints},
          {"non_hot_updates", non_hot_updates},
          {"prunes", prunes},
          {"per_transaction",
           {{"page_reads", per(static_cast<double>(read_ios))},
            {"page_writes", per(static_cast<double>(page_writes()))},
            {"checkpoint_writes", per(static_cast<double>(checkpoint_writes))},
            {"wal_bytes", per(static_cast<double>(wal_record_bytes))},
            {"full_page_images", per(static_cast<double>(full_page_images))}}}};
}

StatusOr<std::unique_ptr<Host>> Host::Create(const HostConfig& config) {
  Status valid = ValidateHostConfig(config);
  if (!valid.ok()) return valid;
  std::unique_ptr<Host> host(new Host(config));
  Status s = host->Init();
  if (!s.ok()) return s;
  return host;
}

Status Host::Init() {
  StatusOr<DatabaseLayout> layout = DatabaseLayout::Create({config_.scale, config_.fillfactor});
  if (!layout.ok()) return layout.status().WithContext("workload");
  layout_ = std::make_unique<DatabaseLayout>(std::move(layout).value());
  if (!config_.measured_relations.is_null()) {
    Status s = layout_->ApplyMeasured(config_.measured_relations);
    if (!s.ok()) return s.WithContext("measured relations");
  }
  model_ = std::make_unique<TpcbModel>(layout_.get(), config_.workload);
  churn_ = std::make_unique<HeapChurn>(layout_.get());
  StatusOr<std::unique_ptr<BufferCache>> cache = BufferCache::Create(config_.cache);
  if (!cache.ok()) return cache.status().WithContext("postgres.shared_buffers");
  cache_ = std::move(cache).value();
  for (int r = 0; r < kRelationCount; ++r) {
    relation_pages_[r] = layout_->pages(static_cast<Relation>(r));
  }
  history_rows_ = layout_->pages(Relation::kHistory) * layout_->history_tuples_per_page();
  const std::vector<Statement>& script = model_->statements();
  auto runs = [&](Statement s) {
    return std::find(script.begin(), script.end(), s) != script.end();
  };
  inserts_history_row_ = runs(Statement::kInsertHistory);
  updates_accounts_ = runs(Statement::kUpdateAccounts);
  skip_growth_known_ = true;
  for (int r = 0; r < kRelationCount; ++r) {
    if (static_cast<Relation>(r) != Relation::kHistory && relation_pages_[r] <= 0) {
      skip_growth_known_ = false;
    }
  }
  if (config_.start == CacheStart::kPgPrewarm) {
    PgPrewarm();
  } else if (config_.start == CacheStart::kWarm) {
    std::vector<PageSpan> spans;
    for (const PageRange& r : WarmOrder(*layout_)) {
      spans.push_back({static_cast<uint32_t>(r.relation), r.first_block, r.pages});
    }
    cache_->Prewarm(spans);
  }
  cache_->ResetStats();
  return Status::Ok();
}

// What `pgstorsim run --cache warm` does (driver/cache_control.cc).
void Host::PgPrewarm() {
  constexpr Relation kOrder[] = {
      Relation::kAccounts,     Relation::kBranches,     Relation::kTellers,    Relation::kHistory,
      Relation::kAccountsPkey, Relation::kBranchesPkey, Relation::kTellersPkey};
  std::vector<CacheIo> ios;
  for (Relation r : kOrder) {
    for (int64_t b = 0; b < layout_->pages(r); ++b) {
      ios.clear();
      cache_->Touch({static_cast<uint32_t>(r), b}, false, &ios);
    }
  }
}

void Host::StartTransaction(const TxnKeys& keys, std::vector<StatementEffects>* effects) {
  model_->Transaction(keys, history_rows_, effects);
  if (InsertsHistory(config_.workload)) ++history_rows_;
  if (config_.heap_churn) {
    const HeapChurnStats before = churn_->stats();
    churn_->Apply(keys, effects);
    CountChurn(before);
  }
}

void Host::CountChurn(const HeapChurnStats& before) {
  counts_.non_hot_updates += churn_->stats().non_hot_updates - before.non_hot_updates;
  counts_.prunes += churn_->stats().prunes - before.prunes;
}

void Host::RunTransaction(const TxnKeys& keys, std::vector<CacheIo>* ios) {
  StartTransaction(keys, &scratch_);
  for (const StatementEffects& e : scratch_) {
    StatementProgress progress;
    for (const PageTouch& t : e.touches) Touch(e.statement, t, &progress, ios);
    InsertWal(e, progress);
  }
  EndTransaction();
}

// What StartTransaction does to the state, and the relations' growth from its
// touches: where those can only be the history page and the heap churn's new accounts
// pages (skip_growth_known_), without building the touches.
void Host::SkipTransaction(const TxnKeys& keys) {
  if (skip_growth_known_) {
    const HeapChurnStats before = churn_->stats();
    if (config_.heap_churn) churn_->Advance(keys, updates_accounts_);
    EndSkips(1, before);
    return;
  }
  StartTransaction(keys, &scratch_);
  for (const StatementEffects& e : scratch_) {
    for (const PageTouch& t : e.touches) {
      int64_t& pages = relation_pages_[static_cast<int>(t.relation)];
      pages = std::max(pages, t.block + 1);
    }
  }
}

// After `n` skipped transactions (skip_growth_known_) whose heap churn ran from
// `before`: the history rows they inserted and the pages those and the churn's
// appended rows need. Both grow monotonically, so their largest value over the n
// transactions is the last one's: the history page of the last row inserted
// before it, and the churn's current accounts size.
void Host::EndSkips(int64_t n, const HeapChurnStats& before) {
  if (n <= 0) return;
  if (inserts_history_row_) {
    int64_t& pages = relation_pages_[static_cast<int>(Relation::kHistory)];
    const int64_t last_row_before = history_rows_ + n - 1;
    pages = std::max(pages, last_row_before / layout_->history_tuples_per_page() + 1);
  }
  if (InsertsHistory(config_.workload)) history_rows_ += n;
  if (config_.heap_churn) {
    CountChurn(before);
    int64_t& pages = relation_pages_[static_cast<int>(Relation::kAccounts)];
    pages = std::max(pages, churn_->accounts_pages());
  }
}

void Host::SkipTransactions(KeyGenerator* keys, int64_t n) {
  if (!skip_growth_known_) {
    for (int64_t i = 0; i < n; ++i) SkipTransaction(keys->Next());
    return;
  }
  const HeapChurnStats before = churn_->stats();
  if (!config_.heap_churn) {
    for (int64_t i = 0; i < n; ++i) keys->NextAid();
    EndSkips(n, before);
    return;
  }
  // The heap churn reads only the aid: the other keys are drawn, not computed.
  auto next_aid = [keys] {
    TxnKeys k;
    k.aid = keys->NextAid();
    return k;
  };
  WithKeysAhead(
      next_aid, n, [this](const TxnKeys& k) { churn_->Prefetch(k); },
      [this](const TxnKeys& k) { churn_->Advance(k, updates_accounts_); });
  EndSkips(n, before);
}

void Host::RunTransactions(KeyGenerator* keys, int64_t n) {
  std::vector<CacheIo> ios;
  auto next = [keys] { return keys->Next(); };
  WithKeysAhead(
      next, n, [this](const TxnKeys& k) { Prefetch(k); },
      [&](const TxnKeys& k) {
        ios.clear();
        RunTransaction(k, &ios);
      });
}

void Host::Prefetch(const TxnKeys& keys) const {
  if (config_.heap_churn) churn_->Prefetch(keys);
  const int64_t block = layout_->HeapBlock(Relation::kAccounts, keys.aid);
  cache_->Prefetch({static_cast<uint32_t>(Relation::kAccounts), block});
  changed_.Prefetch(ChangedKey(Relation::kAccounts, block));
}

void Host::Reserve(int64_t transactions) {
  if (!config_.heap_churn) return;
  const double updates = model_->ExpectedTouches(Statement::kUpdateAccounts, Relation::kAccounts);
  churn_->Reserve(static_cast<int64_t>(updates * static_cast<double>(transactions)));
}

void Host::CountIos(const std::vector<CacheIo>& ios, size_t from) {
  for (size_t i = from; i < ios.size(); ++i) {
    if (ios[i].kind == CacheIo::kRead) {
      ++counts_.read_ios;
      counts_.pages_read += static_cast<uint64_t>(ios[i].pages);
    } else {
      ++counts_.eviction_writes;
    }
  }
}

void Host::CountFetch(Relation relation, CacheOutcome outcome) {
  RelationFetches& f = counts_.relations[static_cast<int>(relation)];
  switch (outcome) {
    case CacheOutcome::kSharedHit:
      ++f.shared_hits;
      break;
    case CacheOutcome::kOsHit:
      ++f.os_hits;
      break;
    case CacheOutcome::kMiss:
      ++f.misses;
      break;
  }
}

// True the first time a page is changed after the last redo point.
bool Host::ChangedFirstSinceCheckpoint(Relation relation, int64_t block) {
  bool inserted = false;
  changed_.Get(ChangedKey(relation, block), &inserted);
  return inserted;
}

// Every page from the relation's end up to the touched block: a zero page written,
// no read, and the record that fills it initialises it (no full-page image).
void Host::Extend(const PageTouch& t, std::vector<CacheIo>* ios) {
  const int r = static_cast<int>(t.relation);
  const uint32_t file = static_cast<uint32_t>(t.relation);
  for (int64_t b = relation_pages_[r]; b <= t.block; ++b) {
    ChangedFirstSinceCheckpoint(t.relation, b);
    const size_t before = ios->size();
    cache_->Extend({file, b}, b == t.block && t.dirty, ios);
    CountIos(*ios, before);
    ios->push_back({CacheIo::kWrite, {file, b}, 1});
    ++counts_.extend_writes;
    ++counts_.relations[r].extends;
  }
  relation_pages_[r] = t.block + 1;
}

// A full-page image of the page: the block minus its hole (for the history page
// being filled, the rows on it so far, the one being inserted included).
int64_t Host::ImageBytes(const PageTouch& t) const {
  const int64_t per_page = layout_->history_tuples_per_page();
  const int64_t rows_on_page =
      t.relation == Relation::kHistory ? (history_rows_ - 1) % per_page + 1 : 0;
  return model_->FullPageImageBytes(t.relation, rows_on_page);
}

TouchResult Host::Touch(Statement statement, const PageTouch& t, StatementProgress* progress,
                        std::vector<CacheIo>* ios) {
  TouchResult result;
  if (t.block >= relation_pages_[static_cast<int>(t.relation)]) {
    result.extended = true;
    Extend(t, ios);
    return result;
  }
  const PageId page{static_cast<uint32_t>(t.relation), t.block};
  size_t before = ios->size();
  result.outcome = cache_->Touch(page, t.dirty, ios);
  CountIos(*ios, before);
  CountFetch(t.relation, result.outcome);
  if (t.dirty && config_.full_page_writes && ChangedFirstSinceCheckpoint(t.relation, t.block)) {
    const int64_t bytes = ImageBytes(t);
    progress->image_bytes += bytes;
    ++counts_.full_page_images;
    counts_.full_page_image_bytes += bytes;
  }
  // heap_update() fetches the row's page again (ReadBuffer while still pinned): a
  // hit that raises the usage count and counts in pg_statio.
  if (!progress->refetched && IsUpdate(statement) && t.dirty && !IsIndex(t.relation) &&
      t.relation != Relation::kHistory) {
    progress->refetched = true;
    before = ios->size();
    CountFetch(t.relation, cache_->Touch(page, t.dirty, ios));
    CountIos(*ios, before);
  }
  return result;
}

int64_t Host::InsertWal(const StatementEffects& e, const StatementProgress& progress) {
  const int64_t start = wal_.insert_lsn();
  const int64_t end = wal_.Insert(e.wal_bytes + progress.image_bytes);
  CacheWalPages(start, end);
  return end;
}

// The WAL pages written from `start_lsn` to `end_lsn` enter the OS cache: PostgreSQL
// writes them with write() and, with wal_level replica, never drops them from it (it
// calls posix_fadvise(DONTNEED) only when no WAL is needed beyond crash recovery), so
// they compete with data pages (measured: docs/lab.md, "What a warm run caches").
// Segments are recycled, so page numbers wrap at the WAL region's size. A page written
// again is touched again (the kernel marks a written page accessed: the second write
// moves it to the active list); after that, further appends to the page being filled
// change nothing but its recency among the newest pages and are skipped.
void Host::CacheWalPages(int64_t start_lsn, int64_t end_lsn) {
  const int64_t region_pages = config_.wal_cache_region_bytes / kPageBytes;
  if (end_lsn <= start_lsn || region_pages <= 0) return;
  for (int64_t p = start_lsn / kPageBytes; p <= (end_lsn - 1) / kPageBytes; ++p) {
    if (p == wal_cache_page_ && wal_cache_touches_ >= 2) continue;
    wal_cache_touches_ = p == wal_cache_page_ ? wal_cache_touches_ + 1 : 1;
    wal_cache_page_ = p;
    cache_->WriteOsPage({kWalCacheFile, p % region_pages});
  }
}

bool Host::CheckpointDue(int64_t now_ns) const {
  return now_ns >= next_timed_checkpoint_ns() ||
         wal_.insert_lsn() - redo_lsn_ >= config_.checkpoint_wal_bytes;
}

int64_t Host::next_timed_checkpoint_ns() const {
  return last_checkpoint_ns_ + config_.checkpoint_timeout_ns;
}

CheckpointWork Host::StartCheckpoint(int64_t now_ns) {
  CheckpointWork work;
  work.spread_ns = BeginCheckpoint(now_ns);
  work.pages = cache_->Checkpoint();
  counts_.checkpoint_writes += work.pages.size();
  return work;
}

void Host::StartUnwrittenCheckpoint(int64_t now_ns) {
  BeginCheckpoint(now_ns);
  counts_.checkpoint_writes += static_cast<uint64_t>(cache_->CheckpointCount());
}

int64_t Host::BeginCheckpoint(int64_t now_ns) {
  ++counts_.checkpoints;
  const int64_t cycle_ns = checkpoints_started_++ > 0 ? now_ns - last_checkpoint_ns_ : 0;
  last_checkpoint_ns_ = now_ns;
  redo_lsn_ = wal_.insert_lsn();
  changed_.Clear();
  const int64_t distance_ns = cycle_ns > 0 ? std::min(cycle_ns, config_.checkpoint_timeout_ns)
                                           : config_.checkpoint_timeout_ns;
  return static_cast<int64_t>(static_cast<double>(distance_ns) *
                              config_.checkpoint_completion_target);
}

void Host::BackgroundWriterRound(std::vector<CacheIo>* ios) {
  const size_t before = ios->size();
  cache_->BackgroundWriterRound(ios);
  counts_.bgwriter_writes += ios->size() - before;
}

const HostCounts& Host::counts() const {
  counts_.buffers_dirtied = cache_->stats().buffers_dirtied;
  counts_.wal_record_bytes = wal_.record_bytes() - record_bytes_at_reset_;
  counts_.wal_lsn_bytes = wal_.insert_lsn() - lsn_at_reset_;
  return counts_;
}

void Host::ResetCounts() {
  counts_ = HostCounts();
  cache_->ResetStats();
  lsn_at_reset_ = wal_.insert_lsn();
  record_bytes_at_reset_ = wal_.record_bytes();
}

}  // namespace pgstorsim::pgmodel
