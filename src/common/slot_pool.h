// SlotPool<T>: a growable pool of T addressed by dense uint32_t slot indices, with a
// free list, for objects that live for a while and are named by their index (requests
// in flight, cache lines, event payloads). Acquire() hands out the most recently
// released slot (LIFO) or, when none is free, appends a new default-constructed entry;
// this order is part of the contract, since simulation results depend on which slot a
// request gets. An acquired slot keeps its previous contents: the caller overwrites
// them. Release() only records the slot as free (it neither destroys nor resets the
// entry). Indices stay valid until released; references and pointers to entries are
// invalidated by an Acquire() that appends (like std::vector::push_back).
// Ownership: the pool owns its entries. Units: none (indices). Thread safety: none.
#ifndef PGSTORSIM_COMMON_SLOT_POOL_H_
#define PGSTORSIM_COMMON_SLOT_POOL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgstorsim {

template <typename T>
class SlotPool {
 public:
  // A free slot: the last one released, else a new entry at index size().
  uint32_t Acquire() {
    if (!free_.empty()) {
      const uint32_t slot = free_.back();
      free_.pop_back();
      return slot;
    }
    entries_.emplace_back();
    return static_cast<uint32_t>(entries_.size() - 1);
  }

  // Returns `slot` to the free list. REQUIRES: `slot` was acquired and is not free.
  void Release(uint32_t slot) { free_.push_back(slot); }

  T& operator[](size_t slot) { return entries_[slot]; }
  const T& operator[](size_t slot) const { return entries_[slot]; }

  // Entries ever created, free ones included (slot indices are < size()).
  size_t size() const { return entries_.size(); }
  // Slots currently on the free list.
  size_t free_count() const { return free_.size(); }

 private:
  std::vector<T> entries_;
  std::vector<uint32_t> free_;  // Released slots; the back is reused first.
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_SLOT_POOL_H_
