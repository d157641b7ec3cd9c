// HeapChurn: the stateful part of UPDATE accounts that TpcbModel (stateless, HOT only)
// leaves out, applied to its per-transaction effects (docs/workload-model.md).
//
// PostgreSQL updates a row in place (HOT) only if the new version fits on the row's
// page. At fillfactor 100 an accounts page has 112 free bytes after `pgbench -i`, less
// than a 128-byte row + line pointer, so the first update of each page is not HOT: the
// old row is locked (a LOCK record), the new version goes to the page being filled at
// the end of the table (the relation grows), a new pkey entry is inserted into the
// leaf (dirtied), and the row lives on the new page from then on. A later transaction
// that reads a page with dead rows and less than 10 % free prunes it (a PRUNE record),
// which makes room for HOT updates. Measured on PostgreSQL 15 (scale 1, 5000
// transactions, one client): 2049 non-HOT of 5000 accounts updates, 2074 LOCK and
// INSERT_LEAF records, 3544 PRUNE records (some from autovacuum).
//
// Deterministic; state grows with the pages and rows touched. Thread safety: none.
#ifndef PGSTORSIM_WORKLOAD_HEAP_CHURN_H_
#define PGSTORSIM_WORKLOAD_HEAP_CHURN_H_

#include <cstdint>
#include <vector>

#include "common/flat_hash_map.h"
#include "workload/database_layout.h"
#include "workload/tpcb.h"

namespace pgstorsim {

struct HeapChurnStats {
  uint64_t hot_updates = 0;
  uint64_t non_hot_updates = 0;
  uint64_t prunes = 0;
  int64_t pages_added = 0;  // Accounts pages appended by non-HOT updates.
};

class HeapChurn {
 public:
  // `layout` must outlive this object.
  explicit HeapChurn(const DatabaseLayout* layout);

  // Rewrites one transaction's effects (from TpcbModel::Transaction for the same keys):
  // the accounts heap block of UPDATE/SELECT accounts becomes the row's current block,
  // and a non-HOT update adds its touches (new page, pkey leaf) and WAL bytes; prunes
  // add WAL bytes. Call once per transaction, in commit order.
  void Apply(const TxnKeys& keys, std::vector<StatementEffects>* effects);
  // Apply's state change alone, for a caller that needs where rows and free space go,
  // not the transaction's touches or WAL: the same state and stats as Apply on the
  // same transaction. `updates_accounts`: its script runs UPDATE accounts. Reads only
  // keys.aid (a skip may leave the other keys unset: KeyGenerator::NextAid).
  void Advance(const TxnKeys& keys, bool updates_accounts);
  // Starts loading the state the transaction of `keys` will read (its row's entries),
  // so a caller can overlap the memory latency with the transaction before it. A
  // hint: state and results do not depend on it. Reads only keys.aid.
  void Prefetch(const TxnKeys& keys) const;

  // Makes room at once for the pages `updates` more UPDATE accounts are expected to
  // change (uniform keys over the heap) and, where a loaded page has no room for a new
  // version (its first update is not HOT), for a moved row per such page, instead of
  // growing the maps by doubling as they come. A capacity hint: results do not depend
  // on it.
  void Reserve(int64_t updates);

  // Current accounts heap size in pages (initial + appended).
  int64_t accounts_pages() const { return accounts_pages_; }
  // The block holding `aid` now.
  int64_t CurrentBlock(int64_t aid) const;
  const HeapChurnStats& stats() const { return stats_; }

 private:
  // Byte counts are within one page (live + dead + free bytes <= kPageBytes): 16 bits
  // hold them, so a page's slot in pages_ takes 8 bytes.
  struct PageState {
    int16_t free_bytes = 0;
    int16_t dead_bytes = 0;
  };
  // Blocks below this are pages_'s 32-bit keys (and moved_'s values), higher ones
  // wide_pages_'s (the layout's limit of 2^37 keys keeps loaded blocks under 2.3 G:
  // only some 2 G pages appended by moved rows would reach it). Aids are moved_'s keys
  // when all are below it (narrow_aids_: scale up to 42949), else wide_moved_'s.
  static constexpr int64_t kNarrow = UINT32_MAX;

  int64_t LoadedFreeBytes(int64_t block) const;  // After `pgbench -i`.
  // The state of `block`, inserted as PageState() if absent; *inserted says which.
  PageState* FindOrAdd(int64_t block, bool* inserted);
  PageState& Page(int64_t block);
  void SetMoved(int64_t aid, int64_t block);           // Row `aid` is on `block` now.
  int64_t MaybePrune(int64_t block, PageState* page);  // Returns WAL bytes.
  // Whether a row of `block` died in the current transaction (not yet prunable).
  bool DiedThisTransaction(int64_t block) const;
  void MarkDiedThisTransaction(int64_t block);
  // What UPDATE accounts of one row did to the table (after the state change).
  struct RowUpdate {
    int64_t block = 0;            // The row's block before the update.
    int64_t prune_wal_bytes = 0;  // Of the prune of that block, or 0.
    int64_t new_block = -1;       // Non-HOT: the block the new version went to.
  };
  RowUpdate UpdateRow(int64_t aid);
  void UpdateAccounts(int64_t aid, StatementEffects* update);
  PageState& InsertTarget(int64_t* block);

  const DatabaseLayout* layout_;
  const bool narrow_aids_;
  int64_t accounts_pages_;
  int64_t insert_block_ = -1;
  uint64_t txn_ = 0;
  // Blocks and aids are >= 0 (-1 or UINT32_MAX marks a free slot). A PageState& from
  // Page() is valid until the next Page() of another block.
  FlatHashMap<uint32_t, PageState, IntegerKeyHash> pages_{UINT32_MAX};  // Block < kNarrow.
  FlatHashMap<int64_t, PageState, IntegerKeyHash> wide_pages_{-1};      // The other blocks.
  // aid -> block after a non-HOT update: in moved_ when narrow_aids_ and the block is
  // below kNarrow, else in wide_moved_ (never in both).
  FlatHashMap<uint32_t, uint32_t, IntegerKeyHash> moved_{UINT32_MAX};
  FlatHashMap<int64_t, int64_t, IntegerKeyHash> wide_moved_{-1};
  // The blocks a row died on in transaction died_txn_ (one per UPDATE accounts), kept
  // here instead of a transaction number in every PageState (which would triple its slot).
  std::vector<int64_t> died_blocks_;
  uint64_t died_txn_ = 0;
  HeapChurnStats stats_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_HEAP_CHURN_H_
