// ClockSweep and Lru: the replacement policies behind BufferCache.
// Both index their pages with PageIndex (dense per-file slot vectors) and keep their
// state in flat arrays: the clock's frames, the LRU's intrusive list nodes.
#include <algorithm>
#include <limits>

#include "cache/buffer_cache.h"
#include "cache/page_index.h"
#include "common/slot_list.h"

namespace pgstorsim {
namespace {

// Slots are int32_t: capacities beyond 2^31 - 1 pages (16 TiB) are clamped.
size_t ClampSlots(int64_t pages) {
  return static_cast<size_t>(std::clamp<int64_t>(pages, 0, std::numeric_limits<int32_t>::max()));
}

// Frames as a structure of arrays: the hit path and the sweep touch only one byte
// per frame (usage count and flags), the page ids are read on eviction.
class ClockSweepImpl : public ClockSweep {
 public:
  ClockSweepImpl(int64_t buffers, int max_usage_count)
      : pages_(ClampSlots(buffers)),
        states_(ClampSlots(buffers), 0),
        max_usage_(static_cast<uint8_t>(max_usage_count)) {}

  bool Access(const PageId& page, bool dirty, bool* evicted_valid, PageId* evicted,
              bool* evicted_dirty) override {
    *evicted_valid = false;
    const int32_t slot = index_.Find(page);
    if (slot >= 0) {
      uint8_t& state = states_[static_cast<size_t>(slot)];
      if ((state & kUsageMask) < max_usage_) ++state;
      MarkDirty(&state, dirty);
      return true;
    }
    const size_t victim = Victim();
    uint8_t& state = states_[victim];
    if ((state & kValid) != 0) {
      *evicted_valid = true;
      *evicted = pages_[victim];
      *evicted_dirty = (state & kDirty) != 0;
      if (*evicted_dirty) --dirty_count_;
      index_.Erase(pages_[victim]);
    }
    pages_[victim] = page;
    state = kValid | 1;
    MarkDirty(&state, dirty);
    index_.Insert(page, static_cast<int32_t>(victim));
    return false;
  }

  bool Contains(const PageId& page) const override { return index_.Find(page) >= 0; }

  int UsageCount(const PageId& page) const override {
    const int32_t slot = index_.Find(page);
    return slot < 0 ? -1 : states_[static_cast<size_t>(slot)] & kUsageMask;
  }

  int64_t size() const override { return index_.size(); }

  std::vector<PageId> TakeDirty() override {
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

  int64_t dirty_pages() const override { return dirty_count_; }

 private:
  // A frame's state byte: usage count (0..5) in the low bits, then two flags.
  static constexpr uint8_t kUsageMask = 0x07;
  static constexpr uint8_t kDirty = 0x08;
  static constexpr uint8_t kValid = 0x10;

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
      if (++hand_ == states_.size()) hand_ = 0;
      if ((state & kUsageMask) == 0) return current;
      --state;
    }
  }

  std::vector<PageId> pages_;
  std::vector<uint8_t> states_;
  PageIndex index_;
  uint8_t max_usage_;
  size_t next_free_ = 0;
  size_t hand_ = 0;
  int64_t dirty_count_ = 0;
};

// Doubly linked list over slots; head = most recent.
class LruImpl : public Lru {
 public:
  explicit LruImpl(int64_t capacity) : capacity_(static_cast<int64_t>(ClampSlots(capacity))) {
    nodes_.reserve(static_cast<size_t>(std::min<int64_t>(capacity_, 1 << 20)));
  }

  bool Access(const PageId& page) override {
    if (Touch(page)) return true;
    Add(page);
    return false;
  }

  void Insert(const PageId& page) override {
    if (!Touch(page)) Add(page);
  }

  bool Contains(const PageId& page) const override { return index_.Find(page) >= 0; }
  int64_t size() const override { return index_.size(); }

 private:
  struct Node {
    PageId page;
    int32_t prev = -1;
    int32_t next = -1;
  };

  bool Touch(const PageId& page) {
    const int32_t slot = index_.Find(page);
    if (slot < 0) return false;
    if (slot != order_.head()) {
      order_.Unlink(&nodes_, slot);
      order_.PushFront(&nodes_, slot);
    }
    return true;
  }

  void Add(const PageId& page) {
    if (capacity_ <= 0) return;
    int32_t slot;
    if (static_cast<int64_t>(nodes_.size()) < capacity_) {
      slot = static_cast<int32_t>(nodes_.size());
      nodes_.push_back({});
    } else {
      slot = order_.tail();
      order_.Unlink(&nodes_, slot);
      index_.Erase(nodes_[slot].page);
    }
    nodes_[slot].page = page;
    order_.PushFront(&nodes_, slot);
    index_.Insert(page, slot);
  }

  int64_t capacity_;
  std::vector<Node> nodes_;
  PageIndex index_;
  SlotList order_;  // Most recently used first.
};

}  // namespace

std::unique_ptr<ClockSweep> ClockSweep::Create(int64_t buffers, int max_usage_count) {
  return std::make_unique<ClockSweepImpl>(buffers, max_usage_count);
}

std::unique_ptr<Lru> Lru::Create(int64_t capacity_pages) {
  return std::make_unique<LruImpl>(capacity_pages);
}

}  // namespace pgstorsim
