// Internal to src/cache: the concrete replacement policies behind ClockSweep and Lru,
// in a header so BufferCache can hold them by value (direct, inlinable calls) and
// give both one PageTable: a page's entry holds its shared-buffer frame and its OS
// cache recency stamp side by side (docs/simulator.md, "Speed").
//
// ClockSweepImpl keeps its frames as a structure of arrays: the hit path and the
// sweep touch one state byte per frame (usage count, dirty, valid); page ids are read
// on eviction. LruImpl is an exact LRU without a linked list: each access gives the
// page a new stamp (a counter) in its table entry and appends (stamp, page) to a
// queue; the least recent page is the first queue entry whose stamp is still the
// page's current one (older entries of re-used pages are skipped). The queue is
// compacted when stale entries outnumber live ones. Thread safety: none.
#ifndef PGSTORSIM_CACHE_POLICIES_H_
#define PGSTORSIM_CACHE_POLICIES_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "cache/buffer_cache.h"
#include "cache/page_index.h"

namespace pgstorsim {

struct CacheEntry {
  int32_t frame = -1;  // Shared-buffer frame; -1 = not in shared buffers.
  uint32_t stamp = 0;  // OS cache recency; 0 = not in the OS cache.
};
using CacheTable = PageTable<CacheEntry>;

// Slots are int32_t: capacities beyond 2^31 - 1 pages (16 TiB) are clamped.
inline size_t ClampSlots(int64_t pages) {
  return static_cast<size_t>(std::clamp<int64_t>(pages, 0, std::numeric_limits<int32_t>::max()));
}

// Drops a sparse entry that no policy uses any more.
inline void ForgetIfUnused(CacheTable* table, const PageId& page, const CacheEntry& e) {
  if (e.frame < 0 && e.stamp == 0) table->Forget(page);
}

class ClockSweepImpl final : public ClockSweep {
 public:
  // `table` is shared with other policies (not owned); nullptr = a private one.
  ClockSweepImpl(int64_t buffers, int max_usage_count, CacheTable* table);

  bool Access(const PageId& page, bool dirty, bool* evicted_valid, PageId* evicted,
              bool* evicted_dirty) override {
    *evicted_valid = false;
    const CacheEntry* e = table_->Find(page);
    if (e != nullptr && e->frame >= 0) {
      uint8_t& state = states_[static_cast<size_t>(e->frame)];
      if ((state & kUsageMask) < max_usage_) ++state;
      MarkDirty(&state, dirty);
      return true;
    }
    const size_t victim = Victim();
    ++recent_allocs_;
    uint8_t& state = states_[victim];
    if ((state & kValid) != 0) {
      *evicted_valid = true;
      *evicted = pages_[victim];
      *evicted_dirty = (state & kDirty) != 0;
      if (*evicted_dirty) --dirty_count_;
      CacheEntry* old = table_->Find(pages_[victim]);
      old->frame = -1;
      ForgetIfUnused(table_, pages_[victim], *old);
      --size_;
    }
    pages_[victim] = page;
    state = kValid | 1;
    MarkDirty(&state, dirty);
    table_->Get(page)->frame = static_cast<int32_t>(victim);
    ++size_;
    return false;
  }

  bool Contains(const PageId& page) const override { return Frame(page) >= 0; }
  int UsageCount(const PageId& page) const override {
    const int32_t frame = Frame(page);
    return frame < 0 ? -1 : states_[static_cast<size_t>(frame)] & kUsageMask;
  }
  int64_t size() const override { return size_; }
  std::vector<PageId> TakeDirty() override;
  int64_t dirty_pages() const override { return dirty_count_; }
  SyncPoint SyncStart() override;
  int CleanIfReusable(int64_t frame, PageId* written) override;
  int64_t frames() const override { return static_cast<int64_t>(states_.size()); }

 private:
  // A frame's state byte: usage count (0..5) in the low bits, then two flags.
  static constexpr uint8_t kUsageMask = 0x07;
  static constexpr uint8_t kDirty = 0x08;
  static constexpr uint8_t kValid = 0x10;

  int32_t Frame(const PageId& page) const {
    const CacheEntry* e = table_->Find(page);
    return e == nullptr ? -1 : e->frame;
  }
  void MarkDirty(uint8_t* state, bool dirty) {
    if (dirty && (*state & kDirty) == 0) {
      *state |= kDirty;
      ++dirty_count_;
    }
  }
  // A never-used frame first (the free list), else the clock hand's first frame
  // with usage count 0, decrementing the counts it passes.
  size_t Victim() {
    if (next_free_ < states_.size()) return next_free_++;
    while (true) {
      uint8_t& state = states_[hand_];
      const size_t current = hand_;
      if (++hand_ == states_.size()) {
        hand_ = 0;
        ++passes_;
      }
      if ((state & kUsageMask) == 0) return current;
      --state;
    }
  }

  std::unique_ptr<CacheTable> own_table_;
  CacheTable* table_;
  std::vector<PageId> pages_;
  std::vector<uint8_t> states_;
  uint8_t max_usage_;
  size_t next_free_ = 0;
  size_t hand_ = 0;
  uint64_t passes_ = 0;         // Complete passes of the hand.
  uint64_t recent_allocs_ = 0;  // Frames allocated since SyncStart().
  int64_t dirty_count_ = 0;
  int64_t size_ = 0;
};

class LruImpl final : public Lru {
 public:
  // `table` is shared with other policies (not owned); nullptr = a private one.
  LruImpl(int64_t capacity, CacheTable* table);

  bool Access(const PageId& page) override {
    CacheEntry* e = table_->Find(page);
    if (e != nullptr && e->stamp != 0) {
      Stamp(page, e);
      return true;
    }
    Add(page);
    return false;
  }
  void Insert(const PageId& page) override { Access(page); }
  bool Contains(const PageId& page) const override {
    const CacheEntry* e = table_->Find(page);
    return e != nullptr && e->stamp != 0;
  }
  int64_t size() const override { return size_; }

 private:
  struct Use {  // One access in the queue: stale once the page has a newer stamp.
    int64_t block;
    uint32_t file;
    uint32_t stamp;
    PageId page() const { return {file, block}; }
  };

  void Stamp(const PageId& page, CacheEntry* e) {
    if (next_stamp_ == std::numeric_limits<uint32_t>::max()) {
      Renumber();
      e = table_->Find(page);
    }
    e->stamp = next_stamp_++;
    queue_.push_back({page.block, page.file, e->stamp});
    if (queue_.size() - head_ > 2 * static_cast<size_t>(size_) + 4096) Compact();
  }
  void Add(const PageId& page) {
    if (capacity_ <= 0) return;
    if (size_ >= capacity_) EvictLeastRecent();
    ++size_;
    Stamp(page, table_->Get(page));
  }
  bool Live(const Use& use) const {
    const CacheEntry* e = table_->Find(use.page());
    return e != nullptr && e->stamp == use.stamp;
  }
  void EvictLeastRecent();
  void Compact();   // Drops stale queue entries.
  void Renumber();  // Compacts and restamps 1..n (stamp counter overflow).

  const int64_t capacity_;
  std::unique_ptr<CacheTable> own_table_;
  CacheTable* table_;
  std::vector<Use> queue_;  // Accesses in stamp order from head_.
  size_t head_ = 0;
  uint32_t next_stamp_ = 1;
  int64_t size_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_CACHE_POLICIES_H_
