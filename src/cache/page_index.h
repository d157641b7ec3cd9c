// PageTable<Entry> and PageIndex: internal maps from PageId for the cache policies.
// Relations are identified by small file numbers and addressed by dense block
// numbers, so the table is a vector of entries per file, grown on demand: O(1) with
// no hashing and no per-entry allocation. Pages outside the dense range
// (file >= kMaxDenseFiles, block < 0 or block >= the dense limit) fall back to an
// open-addressing hash map (FlatHashMap), so any PageId works except kNoPage, the hash
// map's free-slot mark (file 2^32 - 1, block -2^63). The dense limit (kMaxDenseBlocks unless set)
// bounds the vectors, so a cache over a database much larger than itself keeps memory in proportion
// to what it holds (the hash map's live entries), not to the database. A default-constructed Entry
// means "absent". BufferCache keeps one PageTable whose entry holds both the page's shared-buffer
// frame and its OS-cache recency stamp, so a shared-buffer miss finds the page's OS
// cache state in the cache line it already loaded. Thread safety: none.
#ifndef PGSTORSIM_CACHE_PAGE_INDEX_H_
#define PGSTORSIM_CACHE_PAGE_INDEX_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "cache/buffer_cache.h"
#include "common/flat_hash_map.h"

namespace pgstorsim {

struct PageIdHash {
  uint64_t operator()(const PageId& p) const {
    return std::hash<uint64_t>()((static_cast<uint64_t>(p.file) * 0x9E3779B97F4A7C15ULL) ^
                                 static_cast<uint64_t>(p.block));
  }
};

template <typename Entry>
class PageTable {
 public:
  static constexpr PageId kNoPage{std::numeric_limits<uint32_t>::max(),
                                  std::numeric_limits<int64_t>::min()};
  static constexpr uint32_t kMaxDenseFiles = 4096;
  static constexpr int64_t kMaxDenseBlocks = int64_t{1} << 28;  // 2 TiB of 8 KiB pages.

  // Blocks at or above `blocks` (per file) go to the hash map from now on; REQUIRES:
  // the table is empty. Clamped to [0, kMaxDenseBlocks].
  void SetDenseLimit(int64_t blocks) {
    dense_limit_ = std::clamp<int64_t>(blocks, 0, kMaxDenseBlocks);
  }

  // The entry of `page`, or nullptr where none was ever created. The pointer is valid
  // until the next Get() or Forget().
  const Entry* Find(const PageId& page) const {
    if (!Dense(page)) return sparse_.Find(page);
    if (page.file >= files_.size()) return nullptr;
    const std::vector<Entry>& entries = files_[page.file].entries;
    const size_t block = static_cast<size_t>(page.block);
    return block < entries.size() ? &entries[block] : nullptr;
  }
  Entry* Find(const PageId& page) {
    return const_cast<Entry*>(static_cast<const PageTable*>(this)->Find(page));
  }

  // The entry of `page`, created absent if needed. Valid until the next Get() or Forget().
  Entry* Get(const PageId& page) {
    if (!Dense(page)) return sparse_.Get(page);
    if (page.file >= files_.size()) files_.resize(page.file + 1, File{{}, dense_limit_});
    File& f = files_[page.file];
    std::vector<Entry>& entries = f.entries;
    const size_t block = static_cast<size_t>(page.block);
    if (block >= entries.size()) {
      const size_t grown = std::max<size_t>(1024, entries.size() * 2);
      entries.resize(std::max<size_t>(block + 1, std::min<size_t>(grown, f.limit)));
    }
    return &entries[block];
  }

  // Allocates absent entries for blocks [0, blocks) of dense `file` at once (a
  // relation about to be filled: no growth by doubling, no copies). With `cap`, the
  // file's dense range stops there for good: its blocks >= `blocks` go to the hash map
  // (a file much larger than the caches, whose cached pages beyond are few and
  // scattered); entries that already exist beyond stay dense.
  void Presize(uint32_t file, int64_t blocks, bool cap = false) {
    if (file >= kMaxDenseFiles || (blocks <= 0 && !cap)) return;
    if (file >= files_.size()) files_.resize(file + 1, File{{}, dense_limit_});
    File& f = files_[file];
    const int64_t want = std::clamp<int64_t>(blocks, 0, f.limit);
    if (cap) f.limit = std::max<int64_t>(want, static_cast<int64_t>(f.entries.size()));
    if (static_cast<size_t>(want) <= f.entries.size()) return;
    f.entries.reserve(static_cast<size_t>(want));
    f.entries.resize(static_cast<size_t>(want));
  }

  // Starts loading the entry of `page` (a hint to the CPU: no effect on the contents).
  void Prefetch(const PageId& page) const {
    if (!Dense(page)) {
      sparse_.Prefetch(page);
    } else if (page.file < files_.size() &&
               static_cast<size_t>(page.block) < files_[page.file].entries.size()) {
      __builtin_prefetch(&files_[page.file].entries[static_cast<size_t>(page.block)]);
    }
  }

  // Makes room in the hash map for `pages` more entries at once.
  void ReserveSparse(int64_t pages) {
    if (pages > 0) sparse_.Reserve(sparse_.size() + static_cast<size_t>(pages));
  }
  int64_t dense_limit() const { return dense_limit_; }
  // True if `page` has a dense entry (or would have one once created).
  bool Dense(const PageId& page) const {
    if (page.file >= kMaxDenseFiles || page.block < 0) return false;
    return page.block < (page.file < files_.size() ? files_[page.file].limit : dense_limit_);
  }

  // Drops the storage of a sparse page's entry once it is absent again (dense
  // entries stay). REQUIRES: *Find(page) == Entry().
  void Forget(const PageId& page) {
    if (!Dense(page)) sparse_.Erase(page);
  }

 private:
  struct File {
    std::vector<Entry> entries;
    int64_t limit;  // Blocks >= limit go to the hash map.
  };

  int64_t dense_limit_ = kMaxDenseBlocks;
  std::vector<File> files_;
  FlatHashMap<PageId, Entry, PageIdHash> sparse_{kNoPage};
};

// PageId -> slot number (int32_t >= 0), for tests and simple users.
class PageIndex {
 public:
  static constexpr uint32_t kMaxDenseFiles = PageTable<int>::kMaxDenseFiles;
  static constexpr int64_t kMaxDenseBlocks = PageTable<int>::kMaxDenseBlocks;

  // The slot of `page`, or -1 if absent.
  int32_t Find(const PageId& page) const {
    const Slot* s = table_.Find(page);
    return s == nullptr ? -1 : s->slot;
  }
  // Maps `page` (absent) to `slot` (>= 0).
  void Insert(const PageId& page, int32_t slot) {
    ++size_;
    table_.Get(page)->slot = slot;
  }
  // Removes `page` (present).
  void Erase(const PageId& page) {
    --size_;
    table_.Find(page)->slot = -1;
    table_.Forget(page);
  }
  int64_t size() const { return size_; }

 private:
  struct Slot {
    int32_t slot = -1;
    bool operator==(const Slot& o) const { return slot == o.slot; }
  };
  PageTable<Slot> table_;
  int64_t size_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_CACHE_PAGE_INDEX_H_
