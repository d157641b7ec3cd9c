#include "replay/os_writeback.h"

#include <chrono>

namespace pgstorsim {

OsWriteback::OsWriteback(const OsWritebackConfig& config)
    : limits_(pgmodel::OsDirtyLimitsFor(config.cache_bytes, config.background_bytes,
                                        config.limit_bytes)) {}

void OsWriteback::MarkDirty(const DirtyRange& range) {
  bool kick = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const Key key{range.volume, range.volume_offset_bytes};
    auto it = by_offset_.find(key);
    if (it != by_offset_.end()) {
      if (it->second->length_bytes >= range.length_bytes) return;  // Already dirty.
      EraseLocked(it->second);  // A longer write: keep the longer range, first time.
    }
    age_order_.push_back(range);
    by_offset_[key] = std::prev(age_order_.end());
    dirty_bytes_ += range.length_bytes;
    kick = dirty_bytes_ > limits_.background_bytes;
  }
  if (kick) cv_.notify_one();
}

void OsWriteback::EraseLocked(std::list<DirtyRange>::iterator it) {
  dirty_bytes_ -= it->length_bytes;
  by_offset_.erase({it->volume, it->volume_offset_bytes});
  age_order_.erase(it);
}

bool OsWriteback::TakeOldestLocked(DirtyRange* out) {
  if (age_order_.empty()) return false;
  *out = age_order_.front();
  EraseLocked(age_order_.begin());
  return true;
}

bool OsWriteback::TakeThrottled(DirtyRange* out) {
  std::lock_guard<std::mutex> lock(mu_);
  return dirty_bytes_ > limits_.limit_bytes && TakeOldestLocked(out);
}

bool OsWriteback::TakeForFlusher(int64_t now_ns, DirtyRange* out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (age_order_.empty()) return false;
  const bool expired = now_ns - age_order_.front().dirtied_ns >= limits_.expire_ns;
  return (dirty_bytes_ > limits_.background_bytes || expired) && TakeOldestLocked(out);
}

bool OsWriteback::TakeOfFile(uint32_t file, DirtyRange* out) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = age_order_.begin(); it != age_order_.end(); ++it) {
    if (it->file != file) continue;
    *out = *it;
    EraseLocked(it);
    return true;
  }
  return false;
}

void OsWriteback::WaitForWork(int64_t timeout_ns) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, std::chrono::nanoseconds(timeout_ns),
               [&] { return stop_ || dirty_bytes_ > limits_.background_bytes; });
}

void OsWriteback::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
}

bool OsWriteback::stopped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_;
}

int64_t OsWriteback::dirty_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dirty_bytes_;
}

}  // namespace pgstorsim
