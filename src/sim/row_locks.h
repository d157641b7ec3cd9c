// RowLocks: the row-level locks of pgbench's UPDATEs, as far as they make one client
// wait for another. An UPDATE of a row that another open transaction has updated
// waits for that transaction to end (PostgreSQL: heap_update -> XactLockTableWait on
// the updater's xid); later arrivals queue behind it (the tuple lock), so waiters
// are granted in FIFO order, one at a time. A transaction's rows are released only
// when it ends: with synchronous commit after its commit record is flushed
// (CommitTransaction: RecordTransactionCommit -> XLogFlush, then
// ProcArrayEndTransaction, then ResourceOwnerRelease releases the locks).
// Rows are named by relation and key (aid, tid or bid). Holders and waiters are
// client numbers. Deterministic: no iteration over hashed containers.
// Thread safety: none.
#ifndef PGSTORSIM_SIM_ROW_LOCKS_H_
#define PGSTORSIM_SIM_ROW_LOCKS_H_

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "workload/database_layout.h"

namespace pgstorsim {
namespace sim {

class RowLocks {
 public:
  // `clients` = number of distinct client numbers (0 .. clients-1).
  explicit RowLocks(int clients);

  // True if `client` now holds the row (it was free or already its own); false if
  // it was queued behind the holder and earlier waiters: a later ReleaseAll of the
  // holder grants it. REQUIRES: `client` is not already waiting.
  bool Acquire(Relation relation, int64_t key, uint32_t client);

  // Ends `client`'s transaction: frees every row it holds. Each row with waiters
  // passes to its first waiter; those clients are appended to *granted, in the
  // order the rows were acquired by `client`.
  void ReleaseAll(uint32_t client, std::vector<uint32_t>* granted);

  // Rows held right now (for tests).
  size_t held_rows() const { return rows_.size(); }

 private:
  static constexpr int32_t kNone = -1;
  // Waiters form a FIFO list threaded through next_waiter_ (a client waits for at
  // most one row at a time), so a row costs no allocation beyond its map node.
  struct Row {
    uint32_t holder = 0;
    int32_t first_waiter = kNone;
    int32_t last_waiter = kNone;
  };
  static uint64_t RowId(Relation relation, int64_t key);

  std::unordered_map<uint64_t, Row> rows_;
  // Rows each client holds, in acquisition order.
  std::vector<std::vector<uint64_t>> held_;
  std::vector<int32_t> next_waiter_;  // Per client: the next in its row's queue.
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_ROW_LOCKS_H_
