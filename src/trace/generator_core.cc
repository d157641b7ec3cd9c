// The trace generator's event loop: transactions through the PostgreSQL host model
// (pgmodel/host.h) -> I/O records, WAL flushes with group commit, spread checkpoints
// and background-writer rounds, all in time order.
#include "trace/generator_core.h"

#include <algorithm>
#include <deque>
#include <memory>

#include "common/units.h"
#include "pgmodel/host.h"

namespace pgstorsim {
namespace {

constexpr uint8_t kNoStatement = 255;

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
  Core(const GeneratorOptions& o, const TraceHeader& header, const TraceSink& sink,
       GeneratorSummary* summary)
      : o_(o), header_(header), sink_(sink), summary_(summary),
        slot_ns_(static_cast<int64_t>(1e9 / o.rate_tps)) {}

  Status Run(const std::vector<GeneratorTxn>& txns) {
    ResetCounts();
    StatusOr<std::unique_ptr<pgmodel::Host>> host = pgmodel::Host::Create(o_.host);
    if (!host.ok()) return host.status();
    host_ = std::move(host).value();
    next_bgwriter_ns_ = BgwriterDelayNs();
    std::vector<StatementEffects> effects;
    const size_t warmup = static_cast<size_t>(std::max<int64_t>(0, o_.warmup_transactions));
    recording_ = warmup == 0;
    Status s;
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
      host_->StartTransaction(txns[i].keys, &effects);
      for (size_t k = 0; k < effects.size() && s.ok(); ++k) {
        Stamp stamp{
            start_ns + static_cast<int64_t>(k) * span_ns / static_cast<int64_t>(effects.size()),
            txns[i].client, i - first_recorded_, static_cast<uint8_t>(effects[k].statement)};
        s = Statement(effects[k], stamp);
      }
      host_->EndTransaction();
      ++summary_->transactions;
    }
    if (s.ok()) s = AdvanceTo(INT64_MAX);
    FillSummary();
    return s;
  }

 private:
  int64_t BgwriterDelayNs() const { return o_.host.cache.bgwriter_delay_ms * 1000000; }

  struct Stamp {
    int64_t time_ns;
    uint32_t client;
    uint64_t transaction;
    uint8_t statement;
  };

  // The host's counts in pg_statio / pg_stat_bgwriter terms.
  void FillSummary() {
    const pgmodel::HostCounts& h = host_->counts();
    const CacheStats& cs = host_->cache().stats();
    summary_->shared_hits = cs.shared_hits;
    summary_->os_hits = cs.os_hits;
    summary_->misses = cs.misses;
    summary_->full_page_images = h.full_page_images;
    summary_->wal_bytes = h.wal_record_bytes;
    summary_->non_hot_updates = h.non_hot_updates;
    summary_->prunes = h.prunes;
    summary_->buffers_checkpoint = cs.buffers_checkpoint;
    summary_->buffers_clean = cs.buffers_clean;
    summary_->maxwritten_clean = cs.maxwritten_clean;
    summary_->buffers_backend = cs.dirty_evictions + cs.extends;
    summary_->buffers_alloc = cs.buffers_alloc;
    summary_->relations.assign(h.relations.begin(), h.relations.end());
    summary_->host = h;
  }

  // The end of the warm-up: what is due before the first recorded transaction (its
  // start `start_ns`, index `index`) happens unrecorded, including an open commit
  // group's flush; then the counts start from zero and times from `start_ns`.
  Status StartRecording(int64_t start_ns, size_t index) {
    Status s = AdvanceTo(start_ns);
    if (s.ok() && group_.open) s = FlushGroup(std::max(start_ns, last_time_ns_));
    if (!s.ok()) return s;
    ResetCounts();
    host_->ResetCounts();
    time_offset_ns_ = std::max(start_ns, last_time_ns_);
    first_recorded_ = index;
    recording_ = true;
    return Status::Ok();
  }

  // Zeroes the summary's counts (keeping the keys log's skipped transactions, counted
  // before generation).
  void ResetCounts() {
    const uint64_t skipped = summary_->skipped_transactions;
    *summary_ = GeneratorSummary();
    summary_->skipped_transactions = skipped;
  }

  Status Statement(const StatementEffects& e, const Stamp& stamp) {
    bgwriter_until_ns_ = std::max(bgwriter_until_ns_, stamp.time_ns);
    Status s = AdvanceTo(stamp.time_ns);
    pgmodel::StatementProgress progress;
    for (const PageTouch& t : e.touches) {
      if (!s.ok()) return s;
      ios_.clear();
      host_->Touch(e.statement, t, &progress, &ios_);
      for (const CacheIo& io : ios_) {
        const IoOp op = io.kind == CacheIo::kRead ? IoOp::kRead : IoOp::kWrite;
        s = EmitData(op, io.first.file, io.first.block, io.pages, stamp);
        if (!s.ok()) return s;
      }
    }
    if (!s.ok()) return s;
    host_->InsertWal(e, progress);
    return e.commit ? Commit(stamp) : Status::Ok();
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
    const int64_t insert_lsn = host_->insert_lsn();
    const int64_t end = (insert_lsn + kPageBytes - 1) / kPageBytes * kPageBytes;
    flushed_lsn_ = insert_lsn;
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

  // Starts a checkpoint when the host says one is due; an unfinished one completes
  // first. Its writes are queued, spread evenly over the host's spread.
  Status MaybeCheckpoint(int64_t now_ns) {
    if (!host_->CheckpointDue(now_ns)) return Status::Ok();
    Status s = AdvanceTo(now_ns);
    for (const PendingWrite& w : pending_) {
      if (!s.ok()) return s;
      s = EmitBackgroundWrite({now_ns, w.page});
    }
    pending_.clear();
    if (!s.ok()) return s;
    ++summary_->checkpoints;
    const pgmodel::CheckpointWork work = host_->StartCheckpoint(now_ns);
    const double spread_ns = static_cast<double>(work.spread_ns);
    for (size_t i = 0; i < work.pages.size(); ++i) {
      const int64_t t = now_ns + static_cast<int64_t>(spread_ns * i / work.pages.size());
      pending_.push_back({t, work.pages[i]});
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
      const bool bgwriter_on = o_.host.cache.bgwriter_lru_maxpages > 0;
      const int64_t round_t =
          bgwriter_on && next_bgwriter_ns_ <= std::min(time_ns, bgwriter_until_ns_)
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
    next_bgwriter_ns_ += BgwriterDelayNs();
    ios_.clear();
    host_->BackgroundWriterRound(&ios_);
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
  const TraceHeader& header_;
  const TraceSink& sink_;
  GeneratorSummary* summary_;
  std::unique_ptr<pgmodel::Host> host_;
  std::vector<CacheIo> ios_;
  std::deque<PendingWrite> pending_;
  CommitGroup group_;
  int64_t slot_ns_;
  int64_t flushed_lsn_ = 0;
  int64_t last_time_ns_ = 0;
  int64_t next_bgwriter_ns_ = 0;   // Time of the next background-writer round.
  int64_t bgwriter_until_ns_ = 0;  // Rounds run up to the last statement's time.
  // Warm-up (GeneratorOptions::warmup_transactions): nothing reaches the sink until the
  // first recorded transaction; its index and start become transaction 0 and time 0.
  bool recording_ = true;
  size_t first_recorded_ = 0;
  int64_t time_offset_ns_ = 0;
};

}  // namespace

Status RunGeneratorCore(const GeneratorOptions& options, const TraceHeader& header,
                        const std::vector<GeneratorTxn>& txns, const TraceSink& sink,
                        GeneratorSummary* summary) {
  return Core(options, header, sink, summary).Run(txns);
}

}  // namespace pgstorsim
