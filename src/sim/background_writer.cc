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
// A completion's token: the write's dirty bytes (kFsync for the flush).
constexpr uint64_t kFsync = UINT64_MAX;

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
                                   int outstanding, const pgmodel::OsDirtyLimits& limits)
    : sim_(sim),
      controller_(controller),
      map_(map),
      outstanding_limit_(outstanding),
      limits_(limits) {}

void BackgroundWriter::ToWriteback(const VolumeOp& op, int64_t dirty_bytes) {
  writeback_bytes_ += dirty_bytes;
  queue_.push_back({op, dirty_bytes});
}

void BackgroundWriter::WriteOldest() {
  const Dirty oldest = os_dirty_.front();
  os_dirty_pages_.Erase(oldest.page);
  os_dirty_.pop_front();
  os_dirty_bytes_ -= oldest.dirty_bytes;
  ToWriteback(oldest.op, oldest.dirty_bytes);
}

bool BackgroundWriter::OverLimit() const {
  return os_dirty_bytes_ + writeback_bytes_ > limits_.limit_bytes;
}

void BackgroundWriter::AddDirty(const PageId& page, int64_t pages, const VolumeOp& op) {
  const int64_t dirty_bytes = pages * kPageBytes;
  if (limits_.expire_ns <= 0) return ToWriteback(op, dirty_bytes);
  bool inserted = false;
  os_dirty_pages_.Get(page, &inserted);
  if (!inserted) {
    ++absorbed_writes_;
    return;
  }
  os_dirty_.push_back({sim_.now_ns(), page, dirty_bytes, op});
  os_dirty_bytes_ += dirty_bytes;
  if (!syncer_pending_) {
    syncer_pending_ = true;
    sim_.Schedule(kSyncerPeriodNs, this, kSyncerTick);
  }
}

// Moves dirty OS pages that became dirty before `older_than_ns` to the write queue.
void BackgroundWriter::Sync(int64_t older_than_ns) {
  while (!os_dirty_.empty() && os_dirty_.front().since_ns < older_than_ns) WriteOldest();
}

void BackgroundWriter::Enqueue(const PageId& page, int64_t pages) {
  ++eviction_writes_;
  AddDirty(page, pages, map_->Map(DataWrite(page, pages, sim_.now_ns())));
  Pump();
}

bool BackgroundWriter::Throttle(IoListener* waiter, uint64_t token) {
  if (!OverLimit()) return false;
  ++throttled_writes_;
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

void BackgroundWriter::StartCheckpoint(std::vector<PageId> pages, int64_t spread_ns) {
  ++checkpoints_;
  // Drop what was already written, keep the unfinished rest, then the new pages.
  paced_.erase(paced_.begin(), paced_.begin() + static_cast<std::ptrdiff_t>(next_));
  next_ = 0;
  paced_.insert(paced_.end(), pages.begin(), pages.end());
  if (paced_.empty()) return;
  pace_ns_ = std::max<int64_t>(1, spread_ns / static_cast<int64_t>(paced_.size()));
  if (!tick_pending_) {
    tick_pending_ = true;
    sim_.Schedule(0, this, kPaceTick);
  }
}

void BackgroundWriter::HandleEvent(const Event& e) {
  if (e.kind == kWakeWaiters) {
    wake_pending_ = false;
    return WakeWaiters();
  }
  if (e.kind == kSyncerTick) {
    syncer_pending_ = false;
    Sync(sim_.now_ns() - limits_.expire_ns + 1);
    if (!os_dirty_.empty()) {
      syncer_pending_ = true;
      sim_.Schedule(kSyncerPeriodNs, this, kSyncerTick);
    }
    return Pump();
  }
  tick_pending_ = false;
  if (next_ >= paced_.size()) return;
  const PageId page = paced_[next_++];
  ++checkpoint_pages_;
  AddDirty(page, 1, map_->Map(DataWrite(page, 1, sim_.now_ns())));
  if (next_ == paced_.size()) {
    // The checkpoint's fsync of the data files: every dirty OS page, then a flush.
    Sync(INT64_MAX);
    queue_.push_back({{IoOp::kFsync, 0, 0}, 0});  // Zero bytes: not counted as writeback.
    paced_.clear();
    next_ = 0;
  } else {
    tick_pending_ = true;
    sim_.Schedule(pace_ns_, this, kPaceTick);
  }
  Pump();
}

// The flusher: the oldest dirty pages while they exceed the background threshold.
void BackgroundWriter::Pump() {
  while (os_dirty_bytes_ > limits_.background_bytes) WriteOldest();
  max_queue_ = std::max<uint64_t>(max_queue_, queue_.size());
  while (outstanding_ < outstanding_limit_ && !queue_.empty()) {
    const VolumeOp op = queue_.front().op;
    const int64_t dirty_bytes = queue_.front().dirty_bytes;
    queue_.pop_front();
    ++outstanding_;
    controller_->Submit(op, this,
                        op.op == IoOp::kFsync ? kFsync : static_cast<uint64_t>(dirty_bytes));
  }
}

void BackgroundWriter::OnIoDone(uint64_t token) {
  --outstanding_;
  if (token != kFsync) writeback_bytes_ -= static_cast<int64_t>(token);
  Pump();
  if (!waiters_.empty() && !OverLimit() && !wake_pending_) {
    wake_pending_ = true;
    sim_.Schedule(0, this, kWakeWaiters);
  }
}

void BackgroundWriter::Report(ResultsWriter& out) const {
  nlohmann::json& writes = out.Section("background_writes");
  writes["checkpoints"] = checkpoints_;
  writes["checkpoint_pages_written"] = checkpoint_pages_;
  writes["eviction_writes"] = eviction_writes_;
  writes["max_queued_writes"] = max_queue_;
  writes["queued_at_end"] = queue_.size() + (paced_.size() - next_);
  writes["os_dirty_at_end"] = os_dirty_.size();
  writes["throttled_backend_writes"] = throttled_writes_;
  writes["os_absorbed_writes"] = absorbed_writes_;
  writes["os_dirty_limit_bytes"] = limits_.limit_bytes;
}

}  // namespace sim
}  // namespace pgstorsim
