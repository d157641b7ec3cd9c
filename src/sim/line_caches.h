// Internal to the controller: the bookkeeping of its caches, with no timing.
//
// WriteCache tracks dirty cache lines (a dirty byte range per line) against a finite
// capacity and hands out lines to destage in elevator (ascending offset, wrapping) or
// FIFO order. A line being destaged can be rewritten; the new range stays dirty after
// the destage completes. ReadCache is an LRU of clean data (4 KiB blocks in 256 KiB
// lines). Units: bytes; line
// numbers are offset / line_bytes. Deterministic (dense indices and ordered
// containers; the hash map is only used for lookups). Thread safety: none.
#ifndef PGSTORSIM_SIM_LINE_CACHES_H_
#define PGSTORSIM_SIM_LINE_CACHES_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <list>
#include <map>
#include <vector>

#include "common/flat_hash_map.h"
#include "common/slot_list.h"
#include "common/slot_pool.h"
#include "common/units.h"
#include "sim/controller.h"
#include "sim/write_line_table.h"

namespace pgstorsim {
namespace sim {

class WriteCache {
 public:
  WriteCache(int64_t capacity_bytes, int64_t line_bytes, DestageOrder order);

  // True if the range's new dirty bytes fit in the remaining capacity.
  bool Fits(int64_t offset_bytes, int64_t length_bytes) const;
  // Marks the range dirty; returns true if it only rewrote bytes already dirty.
  bool Add(int64_t offset_bytes, int64_t length_bytes);
  // True if the range is entirely dirty data (a read hit). REQUIRES: within one line.
  bool Covers(int64_t offset_bytes, int64_t length_bytes) const;
  // The next line to destage (marked in flight) as a byte range; false if none.
  bool NextDestage(int64_t* line, int64_t* offset_bytes, int64_t* length_bytes);
  void DestageDone(int64_t line);
  // True if `line` holds dirty bytes and is not being destaged; *lo_bytes, *hi_bytes
  // = its dirty range inside the line.
  bool IdleDirtyRange(int64_t line, int64_t* lo_bytes, int64_t* hi_bytes) const;
  // Marks such a line in flight (destaged with others of its RAID 5/6 stripe);
  // DestageDone(line) ends it. REQUIRES: IdleDirtyRange(line, ...).
  void TakeLine(int64_t line);
  int64_t dirty_bytes() const { return dirty_bytes_; }
  int64_t capacity_bytes() const { return capacity_bytes_; }

 private:
  using Line = WriteLine;
  int64_t Growth(const Line* line, int64_t lo, int64_t hi) const;
  int64_t LineGrowth(int64_t offset_bytes, int64_t length_bytes) const;
  bool AddToLine(int64_t offset_bytes, int64_t length_bytes);
  // Calls fn(offset, length) for the piece of the range inside each line.
  template <typename Fn>
  void ForEachLinePiece(int64_t offset_bytes, int64_t length_bytes, Fn fn) const {
    ForEachAlignedPiece(offset_bytes, length_bytes, line_bytes_, fn);
  }

  const int64_t capacity_bytes_;
  const int64_t line_bytes_;
  const DestageOrder order_;
  int64_t dirty_bytes_ = 0;
  int64_t cursor_line_ = 0;
  WriteLineTable lines_;
  std::deque<int64_t> fifo_;
};

class ReadCache {
 public:
  // Valid data is tracked per 4 KiB block inside 256 KiB lines (a 64-bit mask per
  // line), so a line holds only what was read or written; capacity counts blocks.
  static constexpr int64_t kBlockBytes = 4096;
  static constexpr int64_t kLineBytes = 64 * kBlockBytes;

  explicit ReadCache(int64_t capacity_bytes);
  // True if every block of the range is cached (then refreshes its lines).
  bool Lookup(int64_t offset_bytes, int64_t length_bytes);
  void Insert(int64_t offset_bytes, int64_t length_bytes);

 private:
  struct Node {
    int64_t line = 0;
    uint64_t mask = 0;
    int32_t prev = -1, next = -1;  // LRU list; head = most recent.
  };
  // Calls fn(line, mask) for each line the range touches.
  template <typename Fn>
  bool ForEachLine(int64_t offset_bytes, int64_t length_bytes, Fn fn) const {
    const int64_t first = offset_bytes / kBlockBytes;
    const int64_t last = (offset_bytes + length_bytes - 1) / kBlockBytes;
    for (int64_t b = first; b <= last;) {
      const int64_t line = b / 64;
      const int64_t line_last = std::min(last, line * 64 + 63);
      const int lo = static_cast<int>(b - line * 64), hi = static_cast<int>(line_last - line * 64);
      const uint64_t mask = (hi == 63 ? ~0ULL : ((1ULL << (hi + 1)) - 1)) & ~((1ULL << lo) - 1);
      if (!fn(line, mask)) return false;
      b = line_last + 1;
    }
    return true;
  }
  void EvictIfFull();
  // The node of `line`, or -1. Lines are found through an open-addressing hash map
  // holding only the cached lines (its memory follows the capacity, not the volume).
  int32_t FindNode(int64_t line) const;
  void SetNode(int64_t line, int32_t node);  // node -1 removes.

  const int64_t capacity_blocks_;
  int64_t used_blocks_ = 0;
  SlotPool<Node> nodes_;  // Cached lines; free ones are in neither order_ nor index_.
  SlotList order_;        // LRU: most recent first.
  FlatHashMap<int64_t, int32_t, IntegerKeyHash> index_{std::numeric_limits<int64_t>::min()};
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_LINE_CACHES_H_
