// Host's page touches, full-page images, WAL insertion, checkpoints and bgwriter rounds.
#include <algorithm>

#include "common/units.h"
#include "pgmodel/host.h"

namespace pgstorsim::pgmodel {
namespace {

// The OS cache's file number for the WAL (relations use their Relation number).
constexpr uint32_t kWalCacheFile = 1000;

bool IsUpdate(Statement s) {
  return s == Statement::kUpdateAccounts || s == Statement::kUpdateTellers ||
         s == Statement::kUpdateBranches;
}

}  // namespace

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

}  // namespace pgstorsim::pgmodel
