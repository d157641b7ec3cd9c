// SlotList: a most-recent-first order threaded through caller-owned nodes indexable by
// slot (a std::vector, or a SlotPool of common/slot_pool.h), each with `int32_t prev,
// next` fields (-1 = none), so an LRU cache can unlink and re-insert an entry by its
// slot index in O(1) without allocating. The caller owns the nodes and decides which
// slots are in the list; SlotList keeps only head and tail.
// Thread safety: none (it serves single-threaded caches).
#ifndef PGSTORSIM_COMMON_SLOT_LIST_H_
#define PGSTORSIM_COMMON_SLOT_LIST_H_

#include <cstdint>

namespace pgstorsim {

class SlotList {
 public:
  int32_t head() const { return head_; }  // Most recent slot; -1 when empty.
  int32_t tail() const { return tail_; }  // Least recent slot; -1 when empty.

  // REQUIRES: `slot` is in the list.
  template <typename Nodes>
  void Unlink(Nodes* nodes, int32_t slot) {
    auto& n = (*nodes)[slot];
    if (n.prev >= 0) {
      (*nodes)[n.prev].next = n.next;
    } else {
      head_ = n.next;
    }
    if (n.next >= 0) {
      (*nodes)[n.next].prev = n.prev;
    } else {
      tail_ = n.prev;
    }
    n.prev = n.next = -1;
  }

  // REQUIRES: `slot` is not in the list.
  template <typename Nodes>
  void PushFront(Nodes* nodes, int32_t slot) {
    auto& n = (*nodes)[slot];
    n.prev = -1;
    n.next = head_;
    if (head_ >= 0) (*nodes)[head_].prev = slot;
    head_ = slot;
    if (tail_ < 0) tail_ = slot;
  }

 private:
  int32_t head_ = -1;
  int32_t tail_ = -1;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_SLOT_LIST_H_
