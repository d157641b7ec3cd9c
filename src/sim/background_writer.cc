#include "sim/background_writer.h"

#include <algorithm>

#include "common/units.h"
#include "sim/results_writer.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace sim {
namespace {

enum WriterEvent : int32_t { kPaceTick = 1, kSyncerTick = 2, kWakeWaiters = 3 };
constexpr int64_t kSyncerPeriodNs = 1'000'000'000;
constexpr int64_t kCheckpointerNapNs = 100'000'000;  // CheckpointWriteDelay's nap.
// A completion's token: the write's dirty bytes, with kFsyncWrite set when the
// checkpoint's fsync waits for it; kFsync for the flush.
constexpr uint64_t kFsync = UINT64_MAX;
constexpr uint64_t kFsyncWrite = uint64_t{1} << 62;
constexpr uint64_t kCheckpointerResumes = UINT64_MAX - 1;  // The throttled checkpointer.

TraceRecord DataWrite(const PageId& page, int64_t pages, int64_t now_ns) {
  TraceRecord r;
  r.time_ns = now_ns;
  r.op = IoOp::kWrite;
  r.file = page.file;
  r.offset_bytes = page.block * kPageBytes;
  r.length_bytes = pages * kPageBytes;
  return r;
}

}  // namespace

BackgroundWriter::BackgroundWriter(Simulator& sim, Controller* controller, const VolumeMap* map,
                                   int outstanding, const pgmodel::OsDirtyLimits& limits,
                                   CheckpointSchedule schedule)
    : sim_(sim),
      controller_(controller),
      map_(map),
      outstanding_limit_(outstanding),
      limits_(limits),
      schedule_(std::move(schedule)) {}

// True when the oldest dirty page must be written now.
bool BackgroundWriter::OldestDue() const {
  const Dirty& oldest = os_dirty_.front();
  return limits_.expire_ns <= 0 || os_dirty_bytes_ > limits_.background_bytes ||
         oldest.since_ns < expire_before_ns_ || (fsync_waiting_ && oldest.seq <= fsync_seq_);
}

void BackgroundWriter::WriteOldest() {
  const Dirty oldest = os_dirty_.front();
  if (limits_.expire_ns > 0) os_dirty_pages_.Erase(oldest.page);
  os_dirty_.pop_front();
  os_dirty_bytes_ -= oldest.dirty_bytes;
  writeback_bytes_ += oldest.dirty_bytes;
  ++outstanding_;
  uint64_t token = static_cast<uint64_t>(oldest.dirty_bytes);
  if (fsync_waiting_ && oldest.seq <= fsync_seq_) {
    ++fsync_in_flight_;
    token |= kFsyncWrite;
  }
  controller_->Submit(oldest.op, this, token);
}

bool BackgroundWriter::OverLimit() const {
  return os_dirty_bytes_ + writeback_bytes_ > limits_.limit_bytes;
}

void BackgroundWriter::AddDirty(const PageId& page, int64_t pages, const VolumeOp& op) {
  const int64_t dirty_bytes = pages * kPageBytes;
  if (limits_.expire_ns > 0) {
    bool inserted = false;
    os_dirty_pages_.Get(page, &inserted);
    if (!inserted) {
      ++absorbed_writes_;
      return;
    }
  }
  os_dirty_.push_back({sim_.now_ns(), next_seq_++, page, dirty_bytes, op});
  os_dirty_bytes_ += dirty_bytes;
  max_os_dirty_ = std::max<uint64_t>(max_os_dirty_, os_dirty_.size());
  if (limits_.expire_ns > 0 && !syncer_pending_) {
    syncer_pending_ = true;
    sim_.Schedule(kSyncerPeriodNs, this, kSyncerTick);
  }
}

void BackgroundWriter::Enqueue(const PageId& page, int64_t pages) {
  ++eviction_writes_;
  AddDirty(page, pages, map_->Map(DataWrite(page, pages, sim_.now_ns())));
  Pump();
}

bool BackgroundWriter::Throttle(IoListener* waiter, uint64_t token) {
  return WaitBelowLimit(waiter, token, &throttled_writes_);
}

// Over the dirty limit: `waiter` joins the queue woken by WakeWaiters, counted in
// *throttled.
bool BackgroundWriter::WaitBelowLimit(IoListener* waiter, uint64_t token, uint64_t* throttled) {
  if (!OverLimit()) return false;
  ++*throttled;
  waiters_.emplace_back(waiter, token);
  return true;
}

void BackgroundWriter::WakeWaiters() {
  while (!waiters_.empty() && !OverLimit()) {
    const auto [waiter, token] = waiters_.front();
    waiters_.pop_front();
    waiter->OnIoDone(token);
  }
}

void BackgroundWriter::StartCheckpoint(std::vector<PageId> pages) {
  ++checkpoints_;
  checkpoint_running_ = true;
  paced_ = std::move(pages);
  next_ = 0;
  start_ns_ = sim_.now_ns();
  start_lsn_ = schedule_.insert_lsn();
  tick_pending_ = true;
  sim_.Schedule(0, this, kPaceTick);
}

// The checkpoint's fsync of the data files: every page dirty now is due, then a flush.
void BackgroundWriter::FinishCheckpoint() {
  paced_.clear();
  next_ = 0;
  fsync_waiting_ = true;
  fsync_seq_ = next_seq_ - 1;
}

// Issues the fsync's flush once the pages it waits for are written.
void BackgroundWriter::FlushIfSynced() {
  if (!fsync_waiting_ || fsync_in_flight_ > 0) return;
  if (!os_dirty_.empty() && os_dirty_.front().seq <= fsync_seq_) return;
  fsync_waiting_ = false;
  controller_->Submit({IoOp::kFsync, 0, 0}, this, kFsync);
}

void BackgroundWriter::HandleEvent(const Event& e) {
  if (e.kind == kWakeWaiters) {
    wake_pending_ = false;
    return WakeWaiters();
  }
  if (e.kind == kSyncerTick) {
    syncer_pending_ = false;
    expire_before_ns_ = sim_.now_ns() - limits_.expire_ns + 1;
    if (!os_dirty_.empty()) {
      syncer_pending_ = true;
      sim_.Schedule(kSyncerPeriodNs, this, kSyncerTick);
    }
    return Pump();
  }
  CheckpointerTick();
}

// The checkpointer writes while it is behind schedule (each write() throttled like a
// backend's), then naps; after its last page it syncs.
void BackgroundWriter::CheckpointerTick() {
  tick_pending_ = false;
  while (next_ < paced_.size() && !OnSchedule()) {
    if (WaitBelowLimit(this, kCheckpointerResumes, &throttled_checkpointer_writes_)) {
      return Pump();
    }
    const PageId page = paced_[next_++];
    ++checkpoint_pages_;
    AddDirty(page, 1, map_->Map(DataWrite(page, 1, sim_.now_ns())));
    Pump();
  }
  if (next_ == paced_.size()) {
    FinishCheckpoint();
  } else {
    tick_pending_ = true;
    sim_.Schedule(kCheckpointerNapNs, this, kPaceTick);
  }
  Pump();
}

bool BackgroundWriter::OnSchedule() const {
  const double progress =
      schedule_.completion_target * static_cast<double>(next_) / static_cast<double>(paced_.size());
  const double wal = static_cast<double>(schedule_.insert_lsn() - start_lsn_) /
                     static_cast<double>(schedule_.wal_bytes);
  const double time =
      static_cast<double>(sim_.now_ns() - start_ns_) / static_cast<double>(schedule_.timeout_ns);
  return progress >= wal && progress >= time;
}

// The flusher: the oldest due pages while the block layer's queue has room.
void BackgroundWriter::Pump() {
  while (outstanding_ < outstanding_limit_ && !os_dirty_.empty() && OldestDue()) WriteOldest();
  FlushIfSynced();
}

void BackgroundWriter::OnIoDone(uint64_t token) {
  if (token == kCheckpointerResumes) {
    tick_pending_ = true;
    return sim_.Schedule(0, this, kPaceTick);
  }
  if (token == kFsync) {
    checkpoint_running_ = false;
    ++checkpoints_completed_;
    checkpoint_ns_total_ += sim_.now_ns() - start_ns_;
    if (checkpoint_done_ != nullptr) sim_.Schedule(0, checkpoint_done_, checkpoint_done_kind_);
    return;
  }
  --outstanding_;
  if (token & kFsyncWrite) --fsync_in_flight_;
  writeback_bytes_ -= static_cast<int64_t>(token & ~kFsyncWrite);
  Pump();
  if (!waiters_.empty() && !OverLimit() && !wake_pending_) {
    wake_pending_ = true;
    sim_.Schedule(0, this, kWakeWaiters);
  }
}

void BackgroundWriter::Report(ResultsWriter& out) const {
  nlohmann::json& writes = out.Section("background_writes");
  writes["checkpoints"] = checkpoints_;
  writes["checkpoints_completed"] = checkpoints_completed_;
  writes["mean_checkpoint_s"] =
      checkpoints_completed_ ? NsToSec(checkpoint_ns_total_) / checkpoints_completed_ : 0.0;
  writes["in_flight_at_end"] = outstanding_;
  writes["checkpoint_pages_written"] = checkpoint_pages_;
  writes["eviction_writes"] = eviction_writes_;
  writes["max_os_dirty_pages"] = max_os_dirty_;
  writes["queued_at_end"] = paced_.size() - next_;  // Checkpoint writes not yet handed over.
  writes["os_dirty_at_end"] = os_dirty_.size();
  writes["throttled_backend_writes"] = throttled_writes_;
  writes["throttled_checkpointer_writes"] = throttled_checkpointer_writes_;
  writes["os_absorbed_writes"] = absorbed_writes_;
  writes["os_dirty_limit_bytes"] = limits_.limit_bytes;
}

}  // namespace sim
}  // namespace pgstorsim
