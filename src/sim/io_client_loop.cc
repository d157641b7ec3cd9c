// The io clients' request loop (io_client_loop.h): each slot picks a request, takes
// what it needs of the file lock, is served by the OS cache or the devices, and
// starts its next request when it finishes.
#include "sim/io_client_loop.h"

#include <algorithm>

namespace pgstorsim {
namespace sim {
namespace {

// Consecutive requests completed without simulated time passing before the run is
// refused as not storage-bound.
constexpr int64_t kMaxInstantRequests = 1'000'000;

}  // namespace

void IoClients::Run() {
  for (uint32_t i = 0; i < slots_.size(); ++i) sim_.Schedule(0, this, kStartEvent, i);
  sim_.RunUntil(static_cast<int64_t>(spec_.duration_s * 1e9));
}

void IoClients::HandleEvent(const Event& e) {
  const auto slot = static_cast<uint32_t>(e.payload);
  if (e.kind == kStartEvent) return StartRequest(slot);
  Continue(slot);  // kLockEvent: the lock was granted.
}

void IoClients::OnIoDone(uint64_t token) {
  const auto slot = static_cast<uint32_t>(token >> 8);
  const auto stage = static_cast<Stage>(token & 0xff);
  if (stage == kBackground) {  // OS write-back done: a throttled writer may go on.
    --background_in_flight_;
    if (!throttled_.empty()) {
      const uint32_t next = throttled_.front();
      throttled_.pop_front();
      Finish(next);
    }
    return;
  }
  Slot& s = slots_[slot];
  if (stage == kReadDone || stage == kRmwDone) {
    for (int64_t b = s.first_block; b < s.end_block; ++b) cache_->Touch(b);
  }
  if (stage == kRmwDone) return WriteBlocks(slot);
  Finish(slot);
}

// Picks the request (read or write, its offset) and asks for the lock it needs.
void IoClients::StartRequest(uint32_t i) {
  Slot& s = slots_[i];
  s.read = s.rng.UniformDouble() < spec_.read_fraction;
  if (!s.read && spec_.rewrite && s.last_read >= 0) {
    s.offset = s.last_read;
  } else if (spec_.sequential) {
    if (s.cursor + spec_.io_bytes > s.region_start + s.region_bytes) s.cursor = s.region_start;
    s.offset = s.cursor;
    s.cursor += spec_.io_bytes;
  } else {
    s.offset = s.rng.UniformInt(0, spec_.file_bytes / spec_.io_bytes - 1) * spec_.io_bytes;
  }
  if (s.read) s.last_read = s.offset;
  s.start_ns = sim_.now_ns();
  const bool lock = s.read ? spec_.lock.reads_wait : spec_.lock.writes;
  s.locked = lock;
  s.exclusive = !s.read;
  if (lock && !lock_.Acquire(i, s.exclusive, sim_.now_ns())) return;  // Granted later.
  Continue(i);
}

// Holding what it needs of the lock: the request's I/O.
void IoClients::Continue(uint32_t i) {
  Slot& s = slots_[i];
  s.first_block = s.offset / spec_.fs_block_bytes;
  s.end_block = (s.offset + spec_.io_bytes + spec_.fs_block_bytes - 1) / spec_.fs_block_bytes;
  bool cached = !spec_.direct;
  for (int64_t b = s.first_block; cached && b < s.end_block; ++b) cached = cache_->Contains(b);
  if (s.read) {
    ++(cached ? read_hits_ : read_misses_);
    if (cached) {
      for (int64_t b = s.first_block; b < s.end_block; ++b) cache_->Touch(b);
      return Finish(i);
    }
    if (spec_.sequential && !spec_.direct) {  // The read-ahead window.
      const int64_t window = spec_.readahead_bytes / spec_.fs_block_bytes;
      s.end_block = std::min(blocks_, std::max(s.end_block, s.first_block + window));
    }
    return Submit(i, IoOp::kRead, kReadDone);
  }
  if (!spec_.direct && spec_.partial_block_writes && !cached) {
    return Submit(i, IoOp::kRead, kRmwDone);
  }
  WriteBlocks(i);
}

// A write's blocks: dirtied in the OS cache, then written back in the background, or
// written and waited for (O_DIRECT or fsync).
void IoClients::WriteBlocks(uint32_t i) {
  Slot& s = slots_[i];
  if (!spec_.direct) {
    for (int64_t b = s.first_block; b < s.end_block; ++b) cache_->Touch(b);
  }
  if (!spec_.direct && !spec_.fsync_writes) {
    // OS write-back, not waited for unless the OS has too many writes in flight
    // (its dirty throttling): then the writer waits for one to complete.
    Submit(i, IoOp::kWrite, kBackground);
    if (++background_in_flight_ > config_.background_writes_outstanding) {
      throttled_.push_back(i);
      return;
    }
    return Finish(i);
  }
  if (s.locked && !spec_.direct && !spec_.lock.fsync) ReleaseLock(i);  // fsync outside it.
  Submit(i, IoOp::kWrite, kWriteDone);
}

// Sends the slot's device I/O to the controller: the request itself with O_DIRECT,
// else its whole blocks through the filesystem's mapping.
void IoClients::Submit(uint32_t i, IoOp op, Stage stage) {
  const Slot& s = slots_[i];
  const int64_t offset = s.first_block * spec_.fs_block_bytes;
  const int64_t length = std::min(spec_.file_bytes, s.end_block * spec_.fs_block_bytes) - offset;
  DeviceRequest d;
  if (spec_.direct) {
    d = {config_.fs.partition_offset_bytes + spread_.Offset(s.offset), spec_.io_bytes};
  } else {
    const int64_t placed = spread_.Offset(offset);
    d = op == IoOp::kRead ? fs_->MapRead(placed, length) : fs_->MapWrite(placed, length);
  }
  controller_->Submit({op, d.offset_bytes, d.length_bytes}, this,
                      (static_cast<uint64_t>(i) << 8) | stage);
}

// Releases the slot's hold on the file lock, if any; the slots it grants go on.
void IoClients::ReleaseLock(uint32_t i) {
  Slot& s = slots_[i];
  if (!s.locked) return;
  s.locked = false;
  granted_.clear();
  lock_.Release(s.exclusive, sim_.now_ns(), &granted_);
  for (uint32_t g : granted_) sim_.Schedule(0, this, kLockEvent, g);
}

// Records the request's latency and starts the slot's next request.
void IoClients::Finish(uint32_t i) {
  Slot& s = slots_[i];
  ReleaseLock(i);
  const int64_t latency = sim_.now_ns() - s.start_ns;
  (s.read ? read_latency_ : write_latency_).Record(latency);
  all_latency_.Record(latency);
  // Requests that never wait for the storage would run forever at one instant: the
  // CPU sets their rate, which this simulation has no model of.
  zero_streak_ = latency == 0 ? zero_streak_ + 1 : 0;
  if (zero_streak_ > kMaxInstantRequests) {
    cpu_bound_ = true;
    sim_.Stop();
    return;
  }
  sim_.Schedule(0, this, kStartEvent, i);
}

}  // namespace sim
}  // namespace pgstorsim
