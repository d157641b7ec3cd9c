// The io workload's OS cache of the file's blocks and its file lock (io_file_state.h).
#include "sim/io_file_state.h"

namespace pgstorsim {
namespace sim {

void BlockLru::Touch(int64_t b) {
  if (capacity_ <= 0) return;
  uint32_t& s = stamps_[static_cast<size_t>(b)];
  if (s == 0) {
    while (size_ >= capacity_) Evict();
    ++size_;
  }
  s = ++clock_;
  queue_.emplace_back(s, b);
  if (queue_.size() > 4 * static_cast<size_t>(size_) + 1024) Compact();
}

// Drops the least recently used block, skipping queue entries a later touch replaced.
void BlockLru::Evict() {
  while (true) {
    const auto [s, b] = queue_.front();
    queue_.pop_front();
    if (stamps_[static_cast<size_t>(b)] == s) {
      stamps_[static_cast<size_t>(b)] = 0;
      --size_;
      return;
    }
  }
}

// Keeps only the queue entries that are still each block's latest touch.
void BlockLru::Compact() {
  std::deque<std::pair<uint32_t, int64_t>> live;
  for (const auto& e : queue_) {
    if (stamps_[static_cast<size_t>(e.second)] == e.first) live.push_back(e);
  }
  queue_.swap(live);
}

bool FileLock::Acquire(uint32_t slot, bool exclusive, int64_t now_ns) {
  const bool free_for = exclusive ? readers_ == 0 && !writer_ && waiting_exclusive_ == 0
                                  : !writer_ && waiting_exclusive_ == 0;
  if (free_for) {
    Take(exclusive, now_ns);
    return true;
  }
  waiters_.push_back({slot, exclusive});
  if (exclusive) ++waiting_exclusive_;
  return false;
}

void FileLock::Release(bool exclusive, int64_t now_ns, std::vector<uint32_t>* granted) {
  if (exclusive) {
    writer_ = false;
  } else {
    --readers_;
  }
  if (readers_ > 0 || writer_) return;
  busy_ns_ += now_ns - held_since_ns_;
  if (waiting_exclusive_ > 0) {
    for (auto it = waiters_.begin(); it != waiters_.end(); ++it) {
      if (!it->exclusive) continue;
      granted->push_back(it->slot);
      waiters_.erase(it);
      --waiting_exclusive_;
      Take(true, now_ns);
      return;
    }
  }
  for (const Waiter& w : waiters_) {
    granted->push_back(w.slot);
    Take(false, now_ns);
  }
  waiters_.clear();
}

// Holds the lock for one more reader, or the writer; a free lock starts its busy span.
void FileLock::Take(bool exclusive, int64_t now_ns) {
  if (readers_ == 0 && !writer_) held_since_ns_ = now_ns;
  if (exclusive) {
    writer_ = true;
  } else {
    ++readers_;
  }
}

}  // namespace sim
}  // namespace pgstorsim
