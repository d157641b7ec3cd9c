// Internal to src/cache: the concrete replacement policies behind ClockSweep and Lru,
// in a header so BufferCache can hold them by value (direct, inlinable calls) and
// give both one PageTable: a page's entry holds its shared-buffer frame and its OS
// cache recency stamp side by side (docs/simulator.md, "Speed").
//
// ClockSweepImpl keeps its frames as a structure of arrays: the hit path and the
// sweep touch one state byte per frame (usage count, dirty, valid); page ids are read
// on eviction. LruImpl keeps LRU lists without a linked list: each access gives the
// page a new stamp (a counter) in its table entry and appends (stamp, page) to its
// list's queue; the least recent page is the first queue entry whose stamp is still
// the page's current one (older entries of re-used pages are skipped). A queue is
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
#include "common/flat_hash_map.h"

namespace pgstorsim {

struct CacheEntry {
  int32_t frame = -1;  // Shared-buffer frame; -1 = not in shared buffers.
  uint32_t stamp = 0;  // OS cache recency, low bit set on the active list; 0 = absent.
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
    if (victim == pages_.size()) {
      pages_.push_back(page);
    } else {
      pages_[victim] = page;
    }
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
  int64_t CleanAll() override;
  int64_t dirty_pages() const override { return dirty_count_; }
  SyncPoint SyncStart() override;
  int CleanIfReusable(int64_t frame, PageId* written) override;
  int64_t frames() const override { return static_cast<int64_t>(frames_); }

 private:
  // A frame's state byte: usage count (0..5) in the low bits, then two flags.
  static constexpr uint8_t kUsageMask = 0x07;
  static constexpr uint8_t kDirty = 0x08;
  static constexpr uint8_t kValid = 0x10;

  int32_t Frame(const PageId& page) const {
    const CacheEntry* e = table_->Find(page);
    return e == nullptr ? -1 : e->frame;
  }
  // Marks every dirty frame clean, calling fn(page) for each in frame order.
  template <typename Fn>
  void CleanEach(Fn fn) {
    // Frames never used (from next_free_ on) hold no page.
    for (size_t i = 0; i < next_free_; ++i) {
      if ((states_[i] & (kValid | kDirty)) == (kValid | kDirty)) {
        fn(pages_[i]);
        states_[i] &= static_cast<uint8_t>(~kDirty);
      }
    }
    dirty_count_ = 0;
  }
  void MarkDirty(uint8_t* state, bool dirty) {
    if (dirty && (*state & kDirty) == 0) {
      *state |= kDirty;
      ++dirty_count_;
    }
  }
  // A never-used frame first (the free list; its state byte is added then), else the
  // clock hand's first frame with usage count 0, decrementing the counts it passes.
  size_t Victim() {
    if (next_free_ < frames_) {
      states_.push_back(0);
      return next_free_++;
    }
    while (true) {
      uint8_t& state = states_[hand_];
      const size_t current = hand_;
      if (++hand_ == frames_) {
        hand_ = 0;
        ++passes_;
      }
      if ((state & kUsageMask) == 0) return current;
      --state;
    }
  }

  std::unique_ptr<CacheTable> own_table_;
  CacheTable* table_;
  // Of the frames used so far (the free list's order): memory is reserved for every
  // frame (in huge pages from 128 KiB: SlotAllocator) and touched as frames are first
  // used.
  std::vector<PageId, SlotAllocator<PageId>> pages_;
  std::vector<uint8_t, SlotAllocator<uint8_t>> states_;
  size_t frames_;
  uint8_t max_usage_;
  size_t next_free_ = 0;
  size_t hand_ = 0;
  uint64_t passes_ = 0;         // Complete passes of the hand.
  uint64_t recent_allocs_ = 0;  // Frames allocated since SyncStart().
  int64_t dirty_count_ = 0;
  int64_t size_ = 0;
};

// LruImpl: the OS page cache. With active_ratio 0 one exact LRU list. With
// active_ratio r > 0 Linux's two lists (mm/vmscan.c, mm/swap.c): a page enters the
// inactive list; a second access while it is there moves it to the active list; under
// pressure (the cache full) the kernel keeps active <= r x inactive by moving the
// least recent active pages to the head of the inactive list, and evicts from the
// inactive list's tail. So pages touched once (a miss nobody reads again, a written
// WAL page, the OS copy of a page that shared buffers keep hot) go before pages read
// twice. Each list is a stamp queue (above); a stamp's low bit says which list.
class LruImpl final : public Lru {
 public:
  // `table` is shared with other policies (not owned); nullptr = a private one.
  LruImpl(int64_t capacity, CacheTable* table, int active_ratio = 0);

  bool Access(const PageId& page) override {
    CacheEntry* e = table_->Find(page);
    if (e != nullptr && e->stamp != 0) {
      if (active_ratio_ > 0 && (e->stamp & 1) == 0) {
        Promote(page, e);
      } else {
        Stamp(page, e, (e->stamp & 1) != 0);
      }
      return true;
    }
    Add(page, false);
    return false;
  }
  void Insert(const PageId& page) override { Access(page); }
  // Prewarm: puts an absent page at the head of one list (active only with two lists).
  void Place(const PageId& page, bool active) {
    CacheEntry* e = table_->Find(page);
    if (e == nullptr || e->stamp == 0) Add(page, active && active_ratio_ > 0);
  }
  bool Contains(const PageId& page) const override {
    const CacheEntry* e = table_->Find(page);
    return e != nullptr && e->stamp != 0;
  }
  // Before placing up to `active_pages` and `inactive_pages` (Place's `active`): makes
  // room at once for them and for the stale entries a queue holds before it is
  // compacted, so the queues do not grow by reallocating and copying.
  void Reserve(int64_t active_pages, int64_t inactive_pages);
  int64_t size() const override { return size_; }
  int64_t active_size() const { return active_size_; }

 private:
  struct Use {  // One access in a queue: stale once the page has a newer stamp.
    int64_t block;
    uint32_t file;
    uint32_t stamp;
    PageId page() const { return {file, block}; }
  };
  struct Queue {  // Accesses in stamp order from head.
    std::vector<Use> uses;
    size_t head = 0;
  };

  Queue& QueueOf(bool active) { return active ? active_ : inactive_; }
  void Stamp(const PageId& page, CacheEntry* e, bool active) {
    if (next_stamp_ >= std::numeric_limits<uint32_t>::max() - 2) {
      Renumber();
      e = table_->Find(page);
    }
    e->stamp = next_stamp_ | (active ? 1u : 0u);
    next_stamp_ += 2;
    Queue& q = QueueOf(active);
    q.uses.push_back({page.block, page.file, e->stamp});
    const int64_t live = active ? active_size_ : size_ - active_size_;
    if (q.uses.size() - q.head > 2 * static_cast<size_t>(live) + 4096) Compact(&q);
  }
  void Add(const PageId& page, bool active) {
    if (capacity_ <= 0) return;
    if (size_ >= capacity_) {
      Balance();
      EvictLeastRecent();
    }
    ++size_;
    if (active) ++active_size_;
    Stamp(page, table_->Get(page), active);
  }
  void Promote(const PageId& page, CacheEntry* e) {
    ++active_size_;
    Stamp(page, e, true);
    if (size_ >= capacity_) Balance();
  }
  bool Live(const Use& use) const {
    const CacheEntry* e = table_->Find(use.page());
    return e != nullptr && e->stamp == use.stamp;
  }
  // The least recent live entry of `q` (removed from the queue), or false.
  bool PopLeastRecent(Queue* q, Use* out);
  void Balance();  // Active pages over the ratio go to the inactive head.
  void EvictLeastRecent();
  void Compact(Queue* q);  // Drops stale queue entries.
  void Renumber();         // Compacts and restamps (stamp counter overflow).

  const int64_t capacity_;
  const int active_ratio_;
  std::unique_ptr<CacheTable> own_table_;
  CacheTable* table_;
  Queue inactive_;  // The only list when active_ratio_ is 0.
  Queue active_;
  uint32_t next_stamp_ = 2;
  int64_t size_ = 0;
  int64_t active_size_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_CACHE_POLICIES_H_
