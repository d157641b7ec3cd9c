// Lru: the out-of-line parts of the OS page cache's lists (cache/policies.h) and its
// factory.
#include <algorithm>
#include <cmath>

#include "cache/policies.h"
#include "common/units.h"

namespace pgstorsim {

int LinuxActiveRatio(int64_t pages) {
  const int64_t gib = pages * kPageBytes / (int64_t{1} << 30);
  return gib == 0 ? 1 : static_cast<int>(std::sqrt(10.0 * static_cast<double>(gib)));
}

int OsActiveRatio(int64_t os_cache_pages, bool linux_page_cache) {
  return linux_page_cache ? LinuxActiveRatio(os_cache_pages) : 0;
}

int64_t ReusableCachePages(int64_t cache_pages, int64_t shared_buffers_pages,
                           int64_t database_pages, int active_ratio) {
  if (active_ratio <= 0 || database_pages <= cache_pages) return cache_pages;
  const int64_t os_pages = std::max<int64_t>(0, cache_pages - shared_buffers_pages);
  return cache_pages - os_pages + os_pages * active_ratio / (1 + active_ratio);
}

LruImpl::LruImpl(int64_t capacity, CacheTable* table, int active_ratio)
    : capacity_(static_cast<int64_t>(ClampSlots(capacity))),
      active_ratio_(std::max(active_ratio, 0)),
      own_table_(table == nullptr ? std::make_unique<CacheTable>() : nullptr),
      table_(table == nullptr ? own_table_.get() : table) {
  inactive_.uses.reserve(static_cast<size_t>(std::min<int64_t>(capacity_, 1 << 20)));
}

bool LruImpl::PopLeastRecent(Queue* q, Use* out) {
  bool found = false;
  while (q->head < q->uses.size()) {
    const Use use = q->uses[q->head++];
    if (Live(use)) {
      *out = use;
      found = true;
      break;
    }
  }
  if (q->head > 4096 && q->head * 2 > q->uses.size()) {
    q->uses.erase(q->uses.begin(), q->uses.begin() + static_cast<std::ptrdiff_t>(q->head));
    q->head = 0;
  }
  return found;
}

void LruImpl::Balance() {
  Use use;
  while (active_ratio_ > 0 && active_size_ > active_ratio_ * (size_ - active_size_) &&
         PopLeastRecent(&active_, &use)) {
    --active_size_;
    Stamp(use.page(), table_->Find(use.page()), false);
  }
}

void LruImpl::EvictLeastRecent() {
  Use use;
  const bool active = size_ == active_size_;
  if (!PopLeastRecent(&QueueOf(active), &use)) return;
  CacheEntry* e = table_->Find(use.page());
  e->stamp = 0;
  ForgetIfUnused(table_, use.page(), *e);
  --size_;
  if (active) --active_size_;
}

void LruImpl::Reserve(int64_t active_pages, int64_t inactive_pages) {
  if (active_ratio_ == 0) {  // One list.
    inactive_pages += active_pages;
    active_pages = 0;
  }
  for (Queue* q : {&inactive_, &active_}) {
    const int64_t pages = std::max<int64_t>(q == &active_ ? active_pages : inactive_pages, 0);
    if (pages == 0) continue;
    // Compact() runs once the stale entries exceed the live ones by 4096.
    q->uses.reserve(q->uses.size() + static_cast<size_t>(2 * pages + 4097));
  }
}

void LruImpl::Compact(Queue* q) {
  size_t out = 0;
  for (size_t i = q->head; i < q->uses.size(); ++i) {
    if (Live(q->uses[i])) q->uses[out++] = q->uses[i];
  }
  q->uses.resize(out);
  q->head = 0;
}

void LruImpl::Renumber() {
  Compact(&inactive_);
  Compact(&active_);
  uint32_t stamp = 2;
  for (Queue* q : {&inactive_, &active_}) {
    const uint32_t bit = q == &active_ ? 1 : 0;
    for (Use& use : q->uses) {
      use.stamp = stamp | bit;
      table_->Find(use.page())->stamp = use.stamp;
      stamp += 2;
    }
  }
  next_stamp_ = stamp;
}

std::unique_ptr<Lru> Lru::Create(int64_t capacity_pages) {
  return std::make_unique<LruImpl>(capacity_pages, nullptr);
}

}  // namespace pgstorsim
