// PageIndex: an internal map from PageId to a slot number (int32_t) for the cache
// policies. Relations are identified by small file numbers and addressed by dense
// block numbers, so the index is a vector of slots per file, grown on demand (-1 =
// absent): O(1) with no hashing and no per-entry allocation. Pages outside the dense
// range (file >= kMaxDenseFiles, block < 0 or block >= kMaxDenseBlocks) fall back to a
// hash map, so any PageId works. Thread safety: none.
#ifndef PGSTORSIM_CACHE_PAGE_INDEX_H_
#define PGSTORSIM_CACHE_PAGE_INDEX_H_

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "cache/buffer_cache.h"

namespace pgstorsim {

class PageIndex {
 public:
  static constexpr uint32_t kMaxDenseFiles = 4096;
  static constexpr int64_t kMaxDenseBlocks = int64_t{1} << 28;  // 2 TiB of 8 KiB pages.

  // The slot of `page`, or -1 if absent.
  int32_t Find(const PageId& page) const {
    if (!Dense(page)) {
      auto it = sparse_.find(Key(page));
      return it == sparse_.end() ? -1 : it->second;
    }
    if (page.file >= files_.size()) return -1;
    const std::vector<int32_t>& slots = files_[page.file];
    const size_t block = static_cast<size_t>(page.block);
    return block < slots.size() ? slots[block] : -1;
  }

  // Maps `page` (absent) to `slot` (>= 0).
  void Insert(const PageId& page, int32_t slot) {
    ++size_;
    if (!Dense(page)) {
      sparse_[Key(page)] = slot;
      return;
    }
    if (page.file >= files_.size()) files_.resize(page.file + 1);
    std::vector<int32_t>& slots = files_[page.file];
    const size_t block = static_cast<size_t>(page.block);
    if (block >= slots.size()) {
      slots.resize(std::max<size_t>(block + 1, std::max<size_t>(1024, slots.size() * 2)), -1);
    }
    slots[block] = slot;
  }

  // Removes `page` (present).
  void Erase(const PageId& page) {
    --size_;
    if (!Dense(page)) {
      sparse_.erase(Key(page));
      return;
    }
    files_[page.file][static_cast<size_t>(page.block)] = -1;
  }

  int64_t size() const { return size_; }

 private:
  static bool Dense(const PageId& page) {
    return page.file < kMaxDenseFiles && page.block >= 0 && page.block < kMaxDenseBlocks;
  }
  static uint64_t Key(const PageId& page) {
    return (static_cast<uint64_t>(page.file) << 48) ^ static_cast<uint64_t>(page.block);
  }

  std::vector<std::vector<int32_t>> files_;
  std::unordered_map<uint64_t, int32_t> sparse_;
  int64_t size_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_CACHE_PAGE_INDEX_H_
