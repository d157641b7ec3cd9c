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
  const size_t i = static_cast<size_t>(line);
  if (i >= index_.size() || index_[i] < 0) return nullptr;
  return &pool_[static_cast<size_t>(index_[i])];
}

WriteLine* WriteLineTable::Insert(int64_t line, bool* inserted) {
  if (!Dense(line)) {
    auto [it, added] = sparse_.try_emplace(line);
    *inserted = added;
    return &it->second;
  }
  const size_t i = static_cast<size_t>(line);
  if (i >= index_.size()) {
    // Whole 64 x 64 blocks so the bitmaps line up.
    size_t size = std::max<size_t>(i + 1, std::max<size_t>(4096, index_.size() * 2));
    size = (size + 4095) / 4096 * 4096;
    index_.resize(size, -1);
    idle_.resize(size / 64, 0);
    idle_words_.resize(size / 4096, 0);
  }
  *inserted = index_[i] < 0;
  if (*inserted) {
    int32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<int32_t>(pool_.size());
      pool_.emplace_back();
    }
    pool_[static_cast<size_t>(slot)] = WriteLine{};
    index_[i] = slot;
    SetIdleBit(line, true);
  }
  return &pool_[static_cast<size_t>(index_[i])];
}

void WriteLineTable::Erase(int64_t line) {
  if (!Dense(line)) {
    sparse_.erase(line);
    return;
  }
  const size_t i = static_cast<size_t>(line);
  if (i >= index_.size() || index_[i] < 0) return;
  free_.push_back(index_[i]);
  index_[i] = -1;
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
