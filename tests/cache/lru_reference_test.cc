// The OS cache LRU (stamps in the page table + a queue of accesses) against a plain
// linked-list LRU: the same hits and the same contents after every operation,
// through queue compaction and on dense and sparse page ids.
#include <gtest/gtest.h>

#include <algorithm>
#include <list>

#include "cache/buffer_cache.h"
#include "common/random.h"

namespace pgstorsim {
namespace {

class ReferenceLru {
 public:
  explicit ReferenceLru(size_t capacity) : capacity_(capacity) {}
  bool Access(const PageId& p) {
    auto it = std::find(order_.begin(), order_.end(), p);
    const bool hit = it != order_.end();
    if (hit) order_.erase(it);
    if (capacity_ == 0) return hit;
    order_.push_front(p);
    if (order_.size() > capacity_) order_.pop_back();
    return hit;
  }
  bool Contains(const PageId& p) const {
    return std::find(order_.begin(), order_.end(), p) != order_.end();
  }
  size_t size() const { return order_.size(); }

 private:
  size_t capacity_;
  std::list<PageId> order_;
};

PageId RandomPage(Random* random) {
  const int64_t block = random->UniformInt(0, 149);
  switch (random->UniformInt(0, 3)) {
    case 0:
      return {5000, block};  // Beyond the dense files: the hash-map path.
    case 1:
      return {1, -block - 1};  // Negative blocks: the hash-map path.
    default:
      return {static_cast<uint32_t>(block % 3), block};
  }
}

TEST(LruReferenceTest, SameHitsAndContentsAsALinkedList) {
  for (int64_t capacity : {0, 1, 7, 100}) {
    auto lru = Lru::Create(capacity);
    ReferenceLru reference(static_cast<size_t>(capacity));
    Random random(static_cast<uint64_t>(capacity) + 1);
    // 60000 operations over ~450 ids: hits dominate, so stale queue entries pile up
    // and the queue is compacted several times.
    for (int i = 0; i < 60000; ++i) {
      const PageId p = RandomPage(&random);
      if (random.UniformInt(0, 4) == 0) {
        lru->Insert(p);
        reference.Access(p);
      } else {
        ASSERT_EQ(lru->Access(p), reference.Access(p)) << "capacity " << capacity << " op " << i;
      }
      ASSERT_EQ(lru->size(), static_cast<int64_t>(reference.size()));
      if (i % 997 == 0) {
        for (int b = 0; b < 150; ++b) {
          for (const PageId& q : {PageId{5000, b}, PageId{1, -b - 1}, PageId{uint32_t(b % 3), b}})
            ASSERT_EQ(lru->Contains(q), reference.Contains(q)) << "op " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace pgstorsim
