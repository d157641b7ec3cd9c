// The trace generator's event loop: transactions -> cache -> I/O records, WAL with
// full-page images and group commit, spread checkpoints, all in time order.
#include "trace/generator_core.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <unordered_set>

#include "cache/buffer_cache.h"
#include "common/units.h"
#include "workload/heap_churn.h"

namespace pgstorsim {
namespace {

constexpr int64_t kWalPageHeaderBytes = 24;  // MAXALIGN(SizeOfXLogShortPHD).
constexpr uint8_t kNoStatement = 255;
constexpr double kCheckpointCompletionTarget = 0.9;

uint64_t PageKey(uint32_t file, int64_t block) {
  return (static_cast<uint64_t>(file) << 48) ^ static_cast<uint64_t>(block);
}

bool IsUpdate(Statement s) {
  return s == Statement::kUpdateAccounts || s == Statement::kUpdateTellers ||
         s == Statement::kUpdateBranches;
}

// A commit group waiting for its WAL flush.
struct CommitGroup {
  bool open = false;
  int64_t deadline_ns = 0;
  uint32_t leader = 0;
  uint64_t transaction = 0;
  std::vector<uint32_t> members;
};

struct PendingWrite {
  int64_t time_ns;
  PageId page;
};

class Core {
 public:
  Core(const GeneratorOptions& o, const DatabaseLayout& layout, const TraceHeader& header,
       const TraceSink& sink, GeneratorSummary* summary)
      : o_(o),
        layout_(layout),
        header_(header),
        sink_(sink),
        summary_(summary),
        model_(&layout, ParseWorkloadKind(o.workload).value()),
        slot_ns_(static_cast<int64_t>(1e9 / o.rate_tps)),
        next_checkpoint_ns_(o.checkpoint_interval_ns),
        history_rows_(layout.pages(Relation::kHistory) * layout.history_tuples_per_page()),
        churn_(&layout) {
    for (int r = 0; r < kRelationCount; ++r) {
      relation_pages_[r] = layout.pages(static_cast<Relation>(r));
    }
  }

  Status Run(const std::vector<GeneratorTxn>& txns) {
    ResetCounts();
    Status s = InitCache();
    if (!s.ok()) return s;
    std::vector<StatementEffects> effects;
    const size_t warmup = static_cast<size_t>(std::max<int64_t>(0, o_.warmup_transactions));
    recording_ = warmup == 0;
    for (size_t i = 0; i < txns.size() && s.ok(); ++i) {
      int64_t start_ns = static_cast<int64_t>(i) * slot_ns_;
      int64_t span_ns = slot_ns_;
      if (txns[i].start_ns >= 0) {  // Recorded times: inside [start, end], never decreasing.
        start_ns = std::max(txns[i].start_ns, last_time_ns_);
        span_ns = std::max<int64_t>(txns[i].end_ns - start_ns, 0);
      }
      if (i == warmup && !recording_) s = StartRecording(start_ns, i);
      if (s.ok()) s = MaybeCheckpoint(start_ns);
      if (!s.ok()) break;
      model_.Transaction(txns[i].keys, history_rows_, &effects);
      if (o_.heap_churn) churn_.Apply(txns[i].keys, &effects);
      for (size_t k = 0; k < effects.size() && s.ok(); ++k) {
        Stamp stamp{
            start_ns + static_cast<int64_t>(k) * span_ns / static_cast<int64_t>(effects.size()),
            txns[i].client, i - first_recorded_, static_cast<uint8_t>(effects[k].statement)};
        s = Statement(effects[k], stamp);
      }
      ++summary_->transactions;
    }
    if (s.ok()) s = AdvanceTo(INT64_MAX);
    const CacheStats& cs = cache_->stats();
    summary_->shared_hits = cs.shared_hits;
    summary_->os_hits = cs.os_hits;
    summary_->misses = cs.misses;
    summary_->non_hot_updates = churn_.stats().non_hot_updates - warmup_churn_.non_hot_updates;
    summary_->prunes = churn_.stats().prunes - warmup_churn_.prunes;
    summary_->buffers_checkpoint = cs.buffers_checkpoint;
    summary_->buffers_clean = cs.buffers_clean;
    summary_->maxwritten_clean = cs.maxwritten_clean;
    summary_->buffers_backend = cs.dirty_evictions + cs.extends;
    summary_->buffers_alloc = cs.buffers_alloc;
    return s;
  }

 private:
  struct Stamp {
    int64_t time_ns;
    uint32_t client;
    uint64_t transaction;
    uint8_t statement;
  };

  // The end of the warm-up: what is due before the first recorded transaction (its
  // start `start_ns`, index `index`) happens unrecorded, including an open commit
  // group's flush; then the counts start from zero and times from `start_ns`.
  Status StartRecording(int64_t start_ns, size_t index) {
    Status s = AdvanceTo(start_ns);
    if (s.ok() && group_.open) s = FlushGroup(std::max(start_ns, last_time_ns_));
    if (!s.ok()) return s;
    ResetCounts();
    cache_->ResetStats();
    warmup_churn_ = churn_.stats();
    time_offset_ns_ = std::max(start_ns, last_time_ns_);
    first_recorded_ = index;
    recording_ = true;
    return Status::Ok();
  }

  // Zeroes the summary's counts (keeping the keys log's skipped transactions, counted
  // before generation) and sizes its per-relation table.
  void ResetCounts() {
    const uint64_t skipped = summary_->skipped_transactions;
    *summary_ = GeneratorSummary();
    summary_->skipped_transactions = skipped;
    summary_->relations.assign(kRelationCount, RelationCacheCounts());
  }

  Status InitCache() {
    CacheConfig config;
    config.shared_buffers_pages = o_.shared_buffers_bytes / kPageBytes;
    config.os_cache_pages = o_.os_cache_bytes / kPageBytes;
    config.readahead_max_pages = o_.readahead_max_bytes / kPageBytes;
    config.bgwriter_lru_maxpages = o_.bgwriter_lru_maxpages;
    config.bgwriter_lru_multiplier = o_.bgwriter_lru_multiplier;
    config.bgwriter_delay_ms = std::max<int64_t>(1, o_.bgwriter_delay_ns / 1000000);
    next_bgwriter_ns_ = o_.bgwriter_delay_ns;
    StatusOr<std::unique_ptr<BufferCache>> cache = BufferCache::Create(config);
    if (!cache.ok()) return cache.status().WithContext("--shared-buffers/--os-cache");
    cache_ = std::move(cache).value();
    if (o_.pg_prewarm) {
      PgPrewarm();
    } else if (o_.warm) {
      const int64_t limit = config.shared_buffers_pages + config.os_cache_pages;
      std::vector<PageId> pages;
      for (const PageRange& r : WarmOrder(layout_)) {
        for (int64_t b = 0; b < r.pages && static_cast<int64_t>(pages.size()) < limit; ++b) {
          pages.push_back({static_cast<uint32_t>(r.relation), r.first_block + b});
        }
      }
      cache_->Prewarm(pages);
    }
    return Status::Ok();
  }

  // What `pgstorsim run --cache warm` does (driver/cache_control.cc): pg_prewarm of
  // each relation in this order, every block read once with the default strategy.
  void PgPrewarm() {
    constexpr Relation kOrder[] = {
        Relation::kAccounts,     Relation::kBranches,     Relation::kTellers,    Relation::kHistory,
        Relation::kAccountsPkey, Relation::kBranchesPkey, Relation::kTellersPkey};
    for (Relation r : kOrder) {
      for (int64_t b = 0; b < layout_.pages(r); ++b) {
        ios_.clear();
        cache_->Touch({static_cast<uint32_t>(r), b}, false, &ios_);
      }
    }
    cache_->ResetStats();
  }

  Status Statement(const StatementEffects& e, const Stamp& stamp) {
    bgwriter_until_ns_ = std::max(bgwriter_until_ns_, stamp.time_ns);
    Status s = AdvanceTo(stamp.time_ns);
    bool refetched = false;
    for (const PageTouch& t : e.touches) {
      if (!s.ok()) return s;
      s = Touch(t, stamp);
      // An UPDATE finds its row through a scan, then heap_update() reads the row's page
      // again (ReadBuffer while still pinned): a second buffer fetch, always a hit,
      // that raises the usage count and counts in pg_statio like any other.
      if (s.ok() && !refetched && IsUpdate(e.statement) && t.dirty && !IsIndex(t.relation) &&
          t.relation != Relation::kHistory) {
        refetched = true;
        s = Touch(t, stamp);
      }
    }
    if (!s.ok()) return s;
    AppendWal(e.wal_bytes);
    return e.commit ? Commit(stamp) : Status::Ok();
  }

  Status Touch(const PageTouch& t, const Stamp& stamp) {
    const uint32_t file = static_cast<uint32_t>(t.relation);
    ios_.clear();
    int64_t& relation_pages = relation_pages_[static_cast<int>(t.relation)];
    if (t.block >= relation_pages) {
      // A new page: PostgreSQL extends the file with a zero page (a write), no read.
      // Its first WAL record initializes the page (INIT_PAGE): no full-page image.
      relation_pages = t.block + 1;
      fpi_done_.insert(PageKey(file, t.block));
      cache_->Extend({file, t.block}, t.dirty, &ios_);
      ios_.push_back({CacheIo::kWrite, {file, t.block}, 1});
      ++summary_->relations[file].extends;
    } else {
      CountTouch(file, cache_->Touch({file, t.block}, t.dirty, &ios_));
    }
    for (const CacheIo& io : ios_) {
      const IoOp op = io.kind == CacheIo::kRead ? IoOp::kRead : IoOp::kWrite;
      Status s = EmitData(op, io.first.file, io.first.block, io.pages, stamp);
      if (!s.ok()) return s;
    }
    if (t.dirty && fpi_done_.insert(PageKey(file, t.block)).second) {
      const int64_t rows_on_page = history_rows_ % layout_.history_tuples_per_page() + 1;
      AppendWal(model_.FullPageImageBytes(t.relation, rows_on_page));
      ++summary_->full_page_images;
    }
    if (t.relation == Relation::kHistory && t.dirty) ++history_rows_;
    return Status::Ok();
  }

  void CountTouch(uint32_t file, CacheOutcome outcome) {
    RelationCacheCounts& c = summary_->relations[file];
    switch (outcome) {
      case CacheOutcome::kSharedHit:
        ++c.shared_hits;
        break;
      case CacheOutcome::kOsHit:
        ++c.os_hits;
        break;
      case CacheOutcome::kMiss:
        ++c.misses;
        break;
    }
  }

  // Inserts WAL bytes at the insert position, skipping WAL page headers.
  void AppendWal(int64_t bytes) {
    summary_->wal_bytes += bytes;
    wal_since_checkpoint_ += bytes;
    while (bytes > 0) {
      if (insert_lsn_ % kPageBytes == 0) insert_lsn_ += kWalPageHeaderBytes;
      const int64_t room = kPageBytes - insert_lsn_ % kPageBytes;
      const int64_t n = std::min(room, bytes);
      insert_lsn_ += n;
      bytes -= n;
    }
  }

  Status Commit(const Stamp& stamp) {
    if (group_.open) {
      const bool member = std::find(group_.members.begin(), group_.members.end(), stamp.client) !=
                          group_.members.end();
      if (!member && stamp.time_ns <= group_.deadline_ns) {
        group_.members.push_back(stamp.client);
        return Status::Ok();
      }
      Status s = FlushGroup(std::max(stamp.time_ns, last_time_ns_));
      if (!s.ok()) return s;
    }
    group_ = CommitGroup{true,
                         stamp.time_ns + o_.group_commit_window_ns,
                         stamp.client,
                         stamp.transaction,
                         {stamp.client}};
    return o_.group_commit_window_ns == 0 ? FlushGroup(stamp.time_ns) : Status::Ok();
  }

  // Writes the WAL pages from the flushed position to the insert position (whole
  // 8 KiB pages, the partial last one included) and fsyncs the WAL file.
  Status FlushGroup(int64_t time_ns) {
    group_.open = false;
    Stamp stamp{time_ns, group_.leader, group_.transaction, static_cast<uint8_t>(Statement::kEnd)};
    const int64_t first = flushed_lsn_ / kPageBytes * kPageBytes;
    const int64_t end = (insert_lsn_ + kPageBytes - 1) / kPageBytes * kPageBytes;
    flushed_lsn_ = insert_lsn_;
    const int64_t wal_size = header_.files[kWalFileId].size_bytes;
    for (int64_t pos = first; pos < end;) {
      const int64_t offset = pos % wal_size;
      const int64_t length = std::min(end - pos, wal_size - offset);
      Status s = Emit({stamp.time_ns, stamp.client, stamp.transaction, stamp.statement,
                       IoStream::kWal, IoOp::kWrite, kWalFileId, offset, length});
      if (!s.ok()) return s;
      ++summary_->wal_writes;
      pos += length;
    }
    ++summary_->fsyncs;
    return Emit({stamp.time_ns, stamp.client, stamp.transaction, stamp.statement, IoStream::kWal,
                 IoOp::kFsync, kWalFileId, 0, 0});
  }

  // Starts a checkpoint when its time or WAL volume is due: the redo point resets
  // full-page-image tracking and the dirty buffers are queued, spread over the interval.
  Status MaybeCheckpoint(int64_t now_ns) {
    if (now_ns < next_checkpoint_ns_ && wal_since_checkpoint_ < o_.checkpoint_wal_bytes) {
      return Status::Ok();
    }
    Status s = AdvanceTo(now_ns);
    for (const PendingWrite& w : pending_) {  // An unfinished checkpoint completes now.
      if (!s.ok()) return s;
      s = EmitBackgroundWrite({now_ns, w.page});
    }
    pending_.clear();
    if (!s.ok()) return s;
    ++summary_->checkpoints;
    next_checkpoint_ns_ = now_ns + o_.checkpoint_interval_ns;
    wal_since_checkpoint_ = 0;
    fpi_done_.clear();
    const std::vector<PageId> dirty = cache_->Checkpoint();
    const double spread_ns = kCheckpointCompletionTarget * o_.checkpoint_interval_ns;
    for (size_t i = 0; i < dirty.size(); ++i) {
      const int64_t t = now_ns + static_cast<int64_t>(spread_ns * i / dirty.size());
      pending_.push_back({t, dirty[i]});
    }
    return Status::Ok();
  }

  // Emits queued checkpoint writes, closes a commit group whose window ended and runs
  // background-writer rounds (up to the last statement's time), in time order, up to
  // `time_ns`.
  Status AdvanceTo(int64_t time_ns) {
    while (true) {
      const int64_t write_t = pending_.empty() ? INT64_MAX : pending_.front().time_ns;
      const int64_t group_t = group_.open ? group_.deadline_ns : INT64_MAX;
      const int64_t round_t =
          o_.bgwriter_lru_maxpages > 0 && next_bgwriter_ns_ <= std::min(time_ns, bgwriter_until_ns_)
              ? next_bgwriter_ns_
              : INT64_MAX;
      const int64_t next_t = std::min({write_t, group_t, round_t});
      if (next_t > time_ns || next_t == INT64_MAX) return Status::Ok();
      Status s;
      if (round_t < std::min(write_t, group_t)) {
        s = BackgroundWriterRound(round_t);
      } else if (group_t <= write_t) {
        s = FlushGroup(std::max(group_t, last_time_ns_));
      } else {
        s = EmitBackgroundWrite(pending_.front());
        pending_.pop_front();
      }
      if (!s.ok()) return s;
    }
  }

  Status BackgroundWriterRound(int64_t time_ns) {
    next_bgwriter_ns_ += o_.bgwriter_delay_ns;
    ios_.clear();
    cache_->BackgroundWriterRound(&ios_);
    for (const CacheIo& io : ios_) {
      Status s = EmitBackgroundWrite({time_ns, io.first});
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  Status EmitBackgroundWrite(const PendingWrite& w) {
    Stamp stamp{std::max(w.time_ns, last_time_ns_), static_cast<uint32_t>(o_.clients),
                summary_->transactions, kNoStatement};
    return EmitData(IoOp::kWrite, w.page.file, w.page.block, 1, stamp);
  }

  Status EmitData(IoOp op, uint32_t file, int64_t block, int64_t pages, const Stamp& stamp) {
    const int64_t size = header_.files[file].size_bytes;
    const int64_t offset = block * kPageBytes;
    const int64_t length = std::min(pages * kPageBytes, size - offset);
    if (length <= 0) return Status::Ok();  // Readahead wholly past the end.
    if (op == IoOp::kRead) {
      ++summary_->data_reads;
    } else {
      ++summary_->data_writes;
    }
    return Emit({stamp.time_ns, stamp.client, stamp.transaction, stamp.statement, IoStream::kData,
                 op, file, offset, length});
  }

  // `r` in the generator's clock; recorded shifted to the first recorded transaction.
  Status Emit(const TraceRecord& r) {
    last_time_ns_ = std::max(last_time_ns_, r.time_ns);
    if (!recording_) return Status::Ok();
    ++summary_->records;
    if (r.op == IoOp::kRead) summary_->bytes_read += r.length_bytes;
    if (r.op == IoOp::kWrite) summary_->bytes_written += r.length_bytes;
    TraceRecord shifted = r;
    shifted.time_ns = std::max<int64_t>(0, r.time_ns - time_offset_ns_);
    return sink_(shifted);
  }

  const GeneratorOptions& o_;
  const DatabaseLayout& layout_;
  const TraceHeader& header_;
  const TraceSink& sink_;
  GeneratorSummary* summary_;
  TpcbModel model_;
  std::unique_ptr<BufferCache> cache_;
  std::vector<CacheIo> ios_;
  std::unordered_set<uint64_t> fpi_done_;
  std::deque<PendingWrite> pending_;
  CommitGroup group_;
  int64_t slot_ns_;
  int64_t next_checkpoint_ns_;
  int64_t wal_since_checkpoint_ = 0;
  int64_t insert_lsn_ = 0;
  int64_t flushed_lsn_ = 0;
  int64_t history_rows_;
  HeapChurn churn_;
  int64_t relation_pages_[kRelationCount];
  int64_t last_time_ns_ = 0;
  int64_t next_bgwriter_ns_ = 0;   // Time of the next background-writer round.
  int64_t bgwriter_until_ns_ = 0;  // Rounds run up to the last statement's time.
  // Warm-up (GeneratorOptions::warmup_transactions): nothing reaches the sink until the
  // first recorded transaction; its index and start become transaction 0 and time 0.
  bool recording_ = true;
  size_t first_recorded_ = 0;
  int64_t time_offset_ns_ = 0;
  HeapChurnStats warmup_churn_;
};

}  // namespace

Status RunGeneratorCore(const GeneratorOptions& options, const DatabaseLayout& layout,
                        const TraceHeader& header, const std::vector<GeneratorTxn>& txns,
                        const TraceSink& sink, GeneratorSummary* summary) {
  return Core(options, layout, header, sink, summary).Run(txns);
}

}  // namespace pgstorsim
