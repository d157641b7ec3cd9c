// FlatHashMap<Key, Value, Hash>: an open-addressing hash map (linear probing in one
// power-of-two array of {key, value} slots, at most three quarters full, backward-shift
// deletion: no tombstones) for the simulator's page and line tables. Its memory follows
// the entries it holds (16-32 bytes a slot, 4/3-8/3 slots an entry), never the key range, and
// a lookup touches one or two cache lines (std::unordered_map: a bucket and a node).
// An array of 128 KiB or more is in transparent huge pages where the kernel allows
// (SlotAllocator), rounded up to a multiple of 2 MiB.
// Contract:
// - `empty_key` (given at construction) marks a free slot: it must never be inserted.
// - Hash returns a 64-bit value; the map mixes it again (Fibonacci hashing), so an
//   identity hash of an integer key is fine.
// - Pointers to values stay valid until the next Get (insertion) or Erase.
// - Nothing iterates the table, so results never depend on its order.
// - Value is default-constructible and copyable. Thread safety: none.
#ifndef PGSTORSIM_COMMON_FLAT_HASH_MAP_H_
#define PGSTORSIM_COMMON_FLAT_HASH_MAP_H_

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace pgstorsim {

// The Hash for integer keys (block numbers, cache lines, aids): the key itself, which
// FlatHashMap mixes.
struct IntegerKeyHash {
  uint64_t operator()(int64_t key) const { return static_cast<uint64_t>(key); }
};

// The allocator of FlatHashMap's slot array (and of other arrays written whole or at
// random): an array of kHugeMinBytes or more is rounded up to a multiple of 2 MiB,
// aligned to 2 MiB and offered to the kernel for transparent huge pages (madvise; where
// the kernel declines, it is ordinary memory), so it takes one page fault and one TLB
// entry per 2 MiB instead of per 4 KiB. On the build machine (a VM) a 4 KiB fault took
// about 12 us and a 2 MiB one 0.1-0.15 ms (bench/sim-speed/README.md), so from 128 KiB
// (32 faults) the huge page is faster, at up to 2 MiB more resident memory per array.
// Smaller arrays: std::allocator.
template <typename T>
struct SlotAllocator {
  using value_type = T;
  static constexpr size_t kHugeBytes = size_t{2} << 20;
  static constexpr size_t kHugeMinBytes = size_t{128} << 10;
  SlotAllocator() = default;
  template <typename U>
  SlotAllocator(const SlotAllocator<U>&) {}  // NOLINT(runtime/explicit): rebinding.
  // The bytes allocate(n) takes: n elements', rounded up to 2 MiB from kHugeMinBytes.
  static size_t AllocatedBytes(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugeMinBytes) return bytes;
    return (bytes + kHugeBytes - 1) / kHugeBytes * kHugeBytes;
  }
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugeMinBytes) return std::allocator<T>().allocate(n);
    const size_t rounded = AllocatedBytes(n);
    void* p = std::aligned_alloc(kHugeBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHugeMinBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      std::free(p);
    }
  }
  template <typename U>
  bool operator==(const SlotAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const SlotAllocator<U>&) const {
    return false;
  }
};

template <typename Key, typename Value, typename Hash>
class FlatHashMap {
 public:
  explicit FlatHashMap(Key empty_key) : empty_key_(std::move(empty_key)) {}

  // The value of `key`, or nullptr if absent.
  const Value* Find(const Key& key) const {
    if (size_ == 0) return nullptr;
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == empty_key_) return nullptr;
    }
  }
  Value* Find(const Key& key) {
    return const_cast<Value*>(static_cast<const FlatHashMap*>(this)->Find(key));
  }

  // Starts loading the slot where a lookup of `key` begins (a hint to the CPU: no
  // effect on the contents), so a caller can overlap the miss with other work.
  void Prefetch(const Key& key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[Home(key)]);
  }

  // The value of `key`, inserted as Value() if absent; *inserted (if given) says which.
  Value* Get(const Key& key, bool* inserted = nullptr) {
    if (Full(size_ + 1, slots_.size())) Rehash(slots_.empty() ? 16 : 2 * slots_.size());
    size_t i = Home(key);
    for (; !(slots_[i].key == empty_key_); i = (i + 1) & mask_) {
      if (slots_[i].key == key) {
        if (inserted != nullptr) *inserted = false;
        return &slots_[i].value;
      }
    }
    slots_[i].key = key;
    slots_[i].value = Value();
    ++size_;
    if (inserted != nullptr) *inserted = true;
    return &slots_[i].value;
  }

  // Removes `key` if present.
  void Erase(const Key& key) {
    if (size_ == 0) return;
    size_t i = Home(key);
    for (; !(slots_[i].key == key); i = (i + 1) & mask_) {
      if (slots_[i].key == empty_key_) return;
    }
    // Backward shift: move later entries of the probe run into the hole when their
    // home is not strictly between the hole and their slot.
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      if (slots_[j].key == empty_key_) break;
      const size_t home = Home(slots_[j].key);
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].key = empty_key_;
    --size_;
  }

  // Removes every entry; keeps the slots (a table refilled to the same size does
  // not reallocate). O(slots).
  void Clear() {
    for (Slot& s : slots_) s.key = empty_key_;
    size_ = 0;
  }

  // Makes room for `entries` entries in all without further rehashing.
  void Reserve(size_t entries) {
    size_t slots = slots_.empty() ? 16 : slots_.size();
    while (Full(entries, slots)) slots *= 2;
    if (slots > slots_.size()) Rehash(slots);
  }

  size_t size() const { return size_; }
  // Slots allocated (a power of two; 0 before the first insertion or Reserve).
  size_t slot_count() const { return slots_.size(); }

 private:
  struct Slot {
    Key key;
    Value value;
  };

  // More than `entries` in `slots` slots: above the load of 3/4 (linear probing's
  // lookups stay within a few slots, and a table just past a power of two is not
  // doubled to a quarter full).
  static bool Full(size_t entries, size_t slots) { return 4 * entries > 3 * slots; }

  size_t Home(const Key& key) const {
    return static_cast<size_t>((static_cast<uint64_t>(Hash()(key)) * 0x9E3779B97F4A7C15ULL) >>
                               shift_);
  }

  // The most slots (a power of two, at least `slot_count`) in the memory an array of
  // `slot_count` slots takes: a table in huge pages uses all of them, so it grows to
  // the next huge page only when that is full.
  static size_t UsableSlots(size_t slot_count) {
    const size_t bytes = SlotAllocator<Slot>::AllocatedBytes(slot_count);
    while (2 * slot_count * sizeof(Slot) <= bytes) slot_count *= 2;
    return slot_count;
  }

  void Rehash(size_t slot_count) {
    slot_count = UsableSlots(slot_count);
    std::vector<Slot, SlotAllocator<Slot>> old(slot_count, Slot{empty_key_, Value()});
    old.swap(slots_);
    mask_ = slot_count - 1;
    shift_ = 64;
    for (size_t n = slot_count; n > 1; n >>= 1) --shift_;
    for (const Slot& s : old) {
      if (s.key == empty_key_) continue;
      size_t i = Home(s.key);
      while (!(slots_[i].key == empty_key_)) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  Key empty_key_;
  std::vector<Slot, SlotAllocator<Slot>> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t size_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_FLAT_HASH_MAP_H_
