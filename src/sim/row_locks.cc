#include "sim/row_locks.h"

namespace pgstorsim {
namespace sim {

RowLocks::RowLocks(int clients)
    : held_(static_cast<size_t>(clients)), next_waiter_(static_cast<size_t>(clients), kNone) {
  rows_.reserve(static_cast<size_t>(clients) * 4);
}

uint64_t RowLocks::RowId(Relation relation, int64_t key) {
  return (static_cast<uint64_t>(relation) << 56) |
         (static_cast<uint64_t>(key) & ((1ULL << 56) - 1));
}

bool RowLocks::Acquire(Relation relation, int64_t key, uint32_t client) {
  const uint64_t id = RowId(relation, key);
  auto [it, inserted] = rows_.try_emplace(id);
  if (inserted) {
    it->second.holder = client;
    held_[client].push_back(id);
    return true;
  }
  Row& row = it->second;
  if (row.holder == client) return true;
  const int32_t waiter = static_cast<int32_t>(client);
  next_waiter_[client] = kNone;
  if (row.last_waiter == kNone) {
    row.first_waiter = waiter;
  } else {
    next_waiter_[static_cast<size_t>(row.last_waiter)] = waiter;
  }
  row.last_waiter = waiter;
  return false;
}

void RowLocks::ReleaseAll(uint32_t client, std::vector<uint32_t>* granted) {
  // A waiter is never the releasing client, so held_[client] stays put (and keeps its
  // capacity for the client's next transaction).
  for (uint64_t id : held_[client]) {
    auto it = rows_.find(id);
    Row& row = it->second;
    if (row.first_waiter == kNone) {
      rows_.erase(it);
      continue;
    }
    const uint32_t next = static_cast<uint32_t>(row.first_waiter);
    row.first_waiter = next_waiter_[next];
    if (row.first_waiter == kNone) row.last_waiter = kNone;
    row.holder = next;
    held_[next].push_back(id);
    granted->push_back(next);
  }
  held_[client].clear();
}

}  // namespace sim
}  // namespace pgstorsim
