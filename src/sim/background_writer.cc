#include "sim/background_writer.h"

#include <algorithm>

#include "common/units.h"
#include "sim/results_writer.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace sim {
namespace {

enum WriterEvent : int32_t { kPaceTick = 1, kSyncerTick = 2 };
constexpr int64_t kSyncerPeriodNs = 1'000'000'000;
enum WriterToken : uint64_t { kDataWrite = 0, kFsync = 1 };

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
                                   int outstanding, int64_t dirty_expire_ns)
    : sim_(sim),
      controller_(controller),
      map_(map),
      outstanding_limit_(outstanding),
      dirty_expire_ns_(dirty_expire_ns) {}

void BackgroundWriter::AddDirty(const VolumeOp& op) {
  if (dirty_expire_ns_ <= 0) {
    queue_.push_back(op);
    return;
  }
  os_dirty_.push_back({sim_.now_ns(), op});
  if (!syncer_pending_) {
    syncer_pending_ = true;
    sim_.Schedule(kSyncerPeriodNs, this, kSyncerTick);
  }
}

// Moves dirty OS pages that became dirty before `older_than_ns` to the write queue.
void BackgroundWriter::Sync(int64_t older_than_ns) {
  while (!os_dirty_.empty() && os_dirty_.front().since_ns < older_than_ns) {
    queue_.push_back(os_dirty_.front().op);
    os_dirty_.pop_front();
  }
}

void BackgroundWriter::Enqueue(const PageId& page, int64_t pages) {
  ++eviction_writes_;
  AddDirty(map_->Map(DataWrite(page, pages, sim_.now_ns())));
  Pump();
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
  if (e.kind == kSyncerTick) {
    syncer_pending_ = false;
    Sync(sim_.now_ns() - dirty_expire_ns_ + 1);
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
  AddDirty(map_->Map(DataWrite(page, 1, sim_.now_ns())));
  if (next_ == paced_.size()) {
    // The checkpoint's fsync of the data files: every dirty OS page, then a flush.
    Sync(INT64_MAX);
    queue_.push_back({IoOp::kFsync, 0, 0});
    paced_.clear();
    next_ = 0;
  } else {
    tick_pending_ = true;
    sim_.Schedule(pace_ns_, this, kPaceTick);
  }
  Pump();
}

void BackgroundWriter::Pump() {
  max_queue_ = std::max<uint64_t>(max_queue_, queue_.size());
  while (outstanding_ < outstanding_limit_ && !queue_.empty()) {
    const VolumeOp op = queue_.front();
    queue_.pop_front();
    ++outstanding_;
    controller_->Submit(op, this, op.op == IoOp::kFsync ? kFsync : kDataWrite);
  }
}

void BackgroundWriter::OnIoDone(uint64_t token) {
  --outstanding_;
  Pump();
}

void BackgroundWriter::Report(ResultsWriter& out) const {
  nlohmann::json& writes = out.Section("background_writes");
  writes["checkpoints"] = checkpoints_;
  writes["checkpoint_pages_written"] = checkpoint_pages_;
  writes["eviction_writes"] = eviction_writes_;
  writes["max_queued_writes"] = max_queue_;
  writes["queued_at_end"] = queue_.size() + (paced_.size() - next_);
  writes["os_dirty_at_end"] = os_dirty_.size();
}

}  // namespace sim
}  // namespace pgstorsim
