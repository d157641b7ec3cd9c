// ClockSweep: the out-of-line parts of the shared-buffer replacement policy
// (cache/policies.h) and its factory.
#include <algorithm>

#include "cache/buffer_cache.h"
#include "cache/policies.h"

namespace pgstorsim {

ClockSweepImpl::ClockSweepImpl(int64_t buffers, int max_usage_count, CacheTable* table)
    : own_table_(table == nullptr ? std::make_unique<CacheTable>() : nullptr),
      table_(table == nullptr ? own_table_.get() : table),
      states_(ClampSlots(buffers), 0),
      max_usage_(static_cast<uint8_t>(max_usage_count)) {
  pages_.reserve(states_.size());  // Memory is touched as frames are first used.
}

std::vector<PageId> ClockSweepImpl::TakeDirty() {
  std::vector<PageId> out;
  out.reserve(static_cast<size_t>(dirty_count_));
  // Frames never used (from next_free_ on) hold no page.
  for (size_t i = 0; i < next_free_; ++i) {
    if ((states_[i] & (kValid | kDirty)) == (kValid | kDirty)) {
      out.push_back(pages_[i]);
      states_[i] &= static_cast<uint8_t>(~kDirty);
    }
  }
  dirty_count_ = 0;
  std::sort(out.begin(), out.end());
  return out;
}

ClockSweep::SyncPoint ClockSweepImpl::SyncStart() {
  SyncPoint point;
  point.frame = static_cast<int64_t>(hand_);
  point.passes = passes_;
  point.recent_allocs = recent_allocs_;
  recent_allocs_ = 0;
  return point;
}

int ClockSweepImpl::CleanIfReusable(int64_t frame, PageId* written) {
  uint8_t& state = states_[static_cast<size_t>(frame)];
  if ((state & kUsageMask) != 0) return 0;
  if ((state & (kValid | kDirty)) != (kValid | kDirty)) return kReusable;
  state &= static_cast<uint8_t>(~kDirty);
  --dirty_count_;
  *written = pages_[static_cast<size_t>(frame)];
  return kReusable | kWritten;
}

std::unique_ptr<ClockSweep> ClockSweep::Create(int64_t buffers, int max_usage_count) {
  return std::make_unique<ClockSweepImpl>(buffers, max_usage_count, nullptr);
}

}  // namespace pgstorsim
