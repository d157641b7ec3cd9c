// ClockSweep and Lru: the out-of-line parts of the replacement policies
// (cache/policies.h) and their factories.
#include <algorithm>

#include "cache/buffer_cache.h"
#include "cache/policies.h"

namespace pgstorsim {

ClockSweepImpl::ClockSweepImpl(int64_t buffers, int max_usage_count, CacheTable* table)
    : own_table_(table == nullptr ? std::make_unique<CacheTable>() : nullptr),
      table_(table == nullptr ? own_table_.get() : table),
      pages_(ClampSlots(buffers)),
      states_(ClampSlots(buffers), 0),
      max_usage_(static_cast<uint8_t>(max_usage_count)) {}

std::vector<PageId> ClockSweepImpl::TakeDirty() {
  std::vector<PageId> out;
  out.reserve(static_cast<size_t>(dirty_count_));
  for (size_t i = 0; i < states_.size(); ++i) {
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

LruImpl::LruImpl(int64_t capacity, CacheTable* table)
    : capacity_(static_cast<int64_t>(ClampSlots(capacity))),
      own_table_(table == nullptr ? std::make_unique<CacheTable>() : nullptr),
      table_(table == nullptr ? own_table_.get() : table) {
  queue_.reserve(static_cast<size_t>(std::min<int64_t>(capacity_, 1 << 20)));
}

void LruImpl::EvictLeastRecent() {
  while (head_ < queue_.size()) {
    const Use use = queue_[head_++];
    CacheEntry* e = table_->Find(use.page());
    if (e == nullptr || e->stamp != use.stamp) continue;  // Re-used since: stale.
    e->stamp = 0;
    ForgetIfUnused(table_, use.page(), *e);
    --size_;
    break;
  }
  if (head_ > 4096 && head_ * 2 > queue_.size()) {
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void LruImpl::Compact() {
  size_t out = 0;
  for (size_t i = head_; i < queue_.size(); ++i) {
    if (Live(queue_[i])) queue_[out++] = queue_[i];
  }
  queue_.resize(out);
  head_ = 0;
}

void LruImpl::Renumber() {
  Compact();
  for (size_t i = 0; i < queue_.size(); ++i) {
    queue_[i].stamp = static_cast<uint32_t>(i + 1);
    table_->Find(queue_[i].page())->stamp = queue_[i].stamp;
  }
  next_stamp_ = static_cast<uint32_t>(queue_.size() + 1);
}

std::unique_ptr<ClockSweep> ClockSweep::Create(int64_t buffers, int max_usage_count) {
  return std::make_unique<ClockSweepImpl>(buffers, max_usage_count, nullptr);
}

std::unique_ptr<Lru> Lru::Create(int64_t capacity_pages) {
  return std::make_unique<LruImpl>(capacity_pages, nullptr);
}

}  // namespace pgstorsim
