#include "sim/write_line_table.h"

#include <algorithm>

namespace pgstorsim {
namespace sim {

WriteLine* WriteLineTable::Find(int64_t line) {
  return const_cast<WriteLine*>(static_cast<const WriteLineTable*>(this)->Find(line));
}

const WriteLine* WriteLineTable::Find(int64_t line) const {
  if (!Dense(line)) {
    auto it = sparse_.find(line);
    return it == sparse_.end() ? nullptr : &it->second;
  }
  if (used_ == 0) return nullptr;
  const Slot& s = slots_[Probe(line)];
  return s.line == line ? &pool_[static_cast<size_t>(s.pool)] : nullptr;
}

size_t WriteLineTable::Probe(int64_t line) const {
  const size_t mask = slots_.size() - 1;
  size_t i = Home(line);
  while (slots_[i].line != line && slots_[i].line >= 0) i = (i + 1) & mask;
  return i;
}

void WriteLineTable::Grow() {
  std::vector<Slot> old = std::move(slots_);
  const size_t size = std::max<size_t>(1024, old.size() * 2);
  slots_.assign(size, Slot{});
  shift_ = 64 - __builtin_ctzll(size);
  for (const Slot& s : old) {
    if (s.line >= 0) slots_[Probe(s.line)] = s;
  }
}

void WriteLineTable::RemoveSlot(size_t i) {
  const size_t mask = slots_.size() - 1;
  size_t hole = i;
  for (size_t j = (i + 1) & mask; slots_[j].line >= 0; j = (j + 1) & mask) {
    // Move j into the hole unless its home lies cyclically in (hole, j].
    const size_t home = Home(slots_[j].line);
    const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    slots_[hole] = slots_[j];
    hole = j;
  }
  slots_[hole] = Slot{};
  --used_;
}

void WriteLineTable::EnsureBitmap(int64_t line) {
  const size_t word = static_cast<size_t>(line) / 64;
  if (word < idle_.size()) return;
  // Whole 64 x 64 blocks so the bitmaps line up.
  size_t words = std::max<size_t>(word + 1, std::max<size_t>(64, idle_.size() * 2));
  words = (words + 63) / 64 * 64;
  idle_.resize(words, 0);
  idle_words_.resize(words / 64, 0);
}

WriteLine* WriteLineTable::Insert(int64_t line, bool* inserted) {
  if (!Dense(line)) {
    auto [it, added] = sparse_.try_emplace(line);
    *inserted = added;
    return &it->second;
  }
  if (2 * (used_ + 1) > slots_.size()) Grow();
  const size_t i = Probe(line);
  *inserted = slots_[i].line < 0;
  if (*inserted) {
    slots_[i].line = static_cast<int32_t>(line);
    slots_[i].pool = static_cast<int32_t>(pool_.Acquire());
    pool_[static_cast<size_t>(slots_[i].pool)] = WriteLine{};
    ++used_;
    EnsureBitmap(line);
    SetIdleBit(line, true);
  }
  return &pool_[static_cast<size_t>(slots_[i].pool)];
}

void WriteLineTable::Erase(int64_t line) {
  if (!Dense(line)) {
    sparse_.erase(line);
    return;
  }
  if (used_ == 0) return;
  const size_t i = Probe(line);
  if (slots_[i].line != line) return;
  pool_.Release(static_cast<uint32_t>(slots_[i].pool));
  RemoveSlot(i);
  SetIdleBit(line, false);
}

void WriteLineTable::SetInFlight(int64_t line, WriteLine* l, bool in_flight) {
  l->in_flight = in_flight;
  if (Dense(line)) SetIdleBit(line, !in_flight);
}

void WriteLineTable::SetIdleBit(int64_t line, bool idle) {
  const size_t word = static_cast<size_t>(line) / 64;
  const uint64_t bit = uint64_t{1} << (static_cast<size_t>(line) % 64);
  if (((idle_[word] & bit) != 0) == idle) return;
  if (idle) {
    idle_[word] |= bit;
    ++idle_count_;
  } else {
    idle_[word] &= ~bit;
    --idle_count_;
  }
  const uint64_t summary_bit = uint64_t{1} << (word % 64);
  if (idle_[word] != 0) {
    idle_words_[word / 64] |= summary_bit;
  } else {
    idle_words_[word / 64] &= ~summary_bit;
  }
}

bool WriteLineTable::NextIdleDense(int64_t from, int64_t* line) const {
  if (idle_count_ == 0) return false;
  const size_t start = static_cast<size_t>(std::max<int64_t>(from, 0));
  size_t word = start / 64;
  if (word >= idle_.size()) return false;
  const uint64_t first = idle_[word] & (~uint64_t{0} << (start % 64));
  if (first != 0) {
    *line = static_cast<int64_t>(word * 64 + static_cast<size_t>(__builtin_ctzll(first)));
    return true;
  }
  ++word;  // The next non-zero word at or after `word`, via the summary.
  for (size_t s = word / 64; s < idle_words_.size(); ++s) {
    uint64_t bits = idle_words_[s];
    if (s == word / 64) bits &= (word % 64 == 0) ? ~uint64_t{0} : (~uint64_t{0} << (word % 64));
    if (bits == 0) continue;
    const size_t w = s * 64 + static_cast<size_t>(__builtin_ctzll(bits));
    *line = static_cast<int64_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(idle_[w])));
    return true;
  }
  return false;
}

bool WriteLineTable::NextIdle(int64_t from, int64_t* line) const {
  bool found = NextIdleDense(from, line);
  for (auto it = sparse_.lower_bound(from); it != sparse_.end(); ++it) {
    if (it->second.in_flight) continue;
    if (!found || it->first < *line) {
      *line = it->first;
      found = true;
    }
    break;
  }
  return found;
}

}  // namespace sim
}  // namespace pgstorsim
