// Internal to the controller's WriteCache: its dirty lines, keyed by line number,
// with O(1) lookup and an ordered "next destageable line" search. Lines in
// [0, kMaxDenseLines) are found through an open-addressing hash table (linear
// probing, 8-byte slots, sized by the lines present, not by the volume, so it stays
// in the CPU caches) pointing into a pool of line data, with a two-level bitmap over line numbers
// of the lines not in flight; other line numbers go to an ordered map. Same order and results as
// one std::map over all lines (nothing iterates the hash table). Thread safety: none.
#ifndef PGSTORSIM_SIM_WRITE_LINE_TABLE_H_
#define PGSTORSIM_SIM_WRITE_LINE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "common/slot_pool.h"

namespace pgstorsim {
namespace sim {

struct WriteLine {
  int64_t lo = 0, hi = 0;        // Dirty range being held (or destaged).
  int64_t re_lo = 0, re_hi = 0;  // Rewritten while in flight.
  bool in_flight = false;
};

class WriteLineTable {
 public:
  static constexpr int64_t kMaxDenseLines = int64_t{1} << 25;

  // The line, or null. Pointers stay valid until the next Insert or Erase.
  WriteLine* Find(int64_t line);
  const WriteLine* Find(int64_t line) const;
  // Adds an empty line (not in flight); returns it and whether it was absent.
  WriteLine* Insert(int64_t line, bool* inserted);
  void Erase(int64_t line);
  // Sets line's in_flight flag (use this, not the field, to keep the bitmap right).
  void SetInFlight(int64_t line, WriteLine* l, bool in_flight);
  // The smallest line >= from that is present and not in flight; false if none.
  bool NextIdle(int64_t from, int64_t* line) const;

 private:
  // A hash slot: a dense line number (< 2^25) and its pool_ index; line -1 = empty.
  struct Slot {
    int32_t line = -1;
    int32_t pool = 0;
  };

  static bool Dense(int64_t line) { return line >= 0 && line < kMaxDenseLines; }
  size_t Home(int64_t line) const {
    return static_cast<size_t>((static_cast<uint64_t>(line) * 0x9E3779B97F4A7C15ULL) >> shift_);
  }
  // The slot holding dense `line`, or the empty slot where it would go.
  size_t Probe(int64_t line) const;
  void Grow();
  void RemoveSlot(size_t i);  // Backward-shift deletion: no tombstones.
  void EnsureBitmap(int64_t line);
  void SetIdleBit(int64_t line, bool idle);
  bool NextIdleDense(int64_t from, int64_t* line) const;

  std::vector<Slot> slots_;           // Power-of-two size, at most half full.
  SlotPool<WriteLine> pool_;          // Line data, addressed by Slot::pool.
  int shift_ = 64;                    // 64 - log2(slots_.size()).
  size_t used_ = 0;                   // Lines in slots_.
  std::vector<uint64_t> idle_;        // Bit per dense line: present and not in flight.
  std::vector<uint64_t> idle_words_;  // Bit per idle_ word: word non-zero.
  int64_t idle_count_ = 0;            // Bits set in idle_.
  std::map<int64_t, WriteLine> sparse_;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_WRITE_LINE_TABLE_H_
