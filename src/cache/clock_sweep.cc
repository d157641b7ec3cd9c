// ClockSweep: the out-of-line parts of the shared-buffer replacement policy
// (cache/policies.h) and its factory.
#include <algorithm>

#include "cache/buffer_cache.h"
#include "cache/policies.h"

namespace pgstorsim {

ClockSweepImpl::ClockSweepImpl(int64_t buffers, int max_usage_count, CacheTable* table)
    : own_table_(table == nullptr ? std::make_unique<CacheTable>() : nullptr),
      table_(table == nullptr ? own_table_.get() : table),
      frames_(ClampSlots(buffers)),
      max_usage_(static_cast<uint8_t>(max_usage_count)) {
  pages_.reserve(frames_);
  states_.reserve(frames_);
}

std::vector<PageId> ClockSweepImpl::TakeDirty() {
  std::vector<PageId> out;
  out.reserve(static_cast<size_t>(dirty_count_));
  CleanEach([&out](const PageId& page) { out.push_back(page); });
  std::sort(out.begin(), out.end());
  return out;
}

int64_t ClockSweepImpl::CleanAll() {
  const int64_t dirty = dirty_count_;
  CleanEach([](const PageId&) {});
  return dirty;
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
  if (static_cast<size_t>(frame) >= states_.size()) return kReusable;  // Never used.
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
