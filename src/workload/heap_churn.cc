#include "workload/heap_churn.h"

#include <algorithm>
#include <cmath>

#include "common/units.h"

namespace pgstorsim {
namespace {

constexpr int64_t kLinePointerBytes = 4;
constexpr int64_t kTupleHeaderBytes = 23;
constexpr int64_t kPageHeaderBytes = 24;
static_assert(kPageBytes <= INT16_MAX, "PageState's byte counts are 16-bit");
// Free bytes of a page the table is extended with (one line pointer counted ahead).
constexpr int64_t kFreshPageFreeBytes = kPageBytes - kPageHeaderBytes - kLinePointerBytes;
// WAL records (bytes before MAXALIGN): XLogRecord 24 + block reference 20 + main-data
// header 2, then main data / block data.
constexpr int64_t kRecordBase = 24 + 20 + 2;
constexpr int64_t kLockRecordBytes = kRecordBase + 8;        // xl_heap_lock.
constexpr int64_t kPruneRecordBytes = kRecordBase + 8 + 10;  // xl_heap_prune + offsets.
constexpr int64_t kLeafInsertBytes = kRecordBase + 2 + 16;   // xl_btree_insert + tuple.

int64_t MaxAlign(int64_t n) { return (n + 7) & ~int64_t{7}; }

}  // namespace

HeapChurn::HeapChurn(const DatabaseLayout* layout)
    : layout_(layout),
      narrow_aids_(layout->relation(Relation::kAccounts).rows < kNarrow),
      accounts_pages_(layout->pages(Relation::kAccounts)) {}

void HeapChurn::Reserve(int64_t updates) {
  if (updates <= 0 || accounts_pages_ <= 0) return;
  const double pages = static_cast<double>(accounts_pages_);
  const double distinct = -pages * std::expm1(-static_cast<double>(updates) / pages);
  const RelationLayout& r = layout_->relation(Relation::kAccounts);
  const int64_t needed = r.tuple_bytes + kLinePointerBytes;
  double appended = 0;  // Pages the moved rows fill at the end of the table.
  if (LoadedFreeBytes(0) < needed) {
    appended = std::ceil(distinct * static_cast<double>(needed) /
                         static_cast<double>(kFreshPageFreeBytes));
    const size_t rows = static_cast<size_t>(distinct);
    if (narrow_aids_ && accounts_pages_ + static_cast<int64_t>(appended) < kNarrow) {
      moved_.Reserve(moved_.size() + rows);
    } else {
      wide_moved_.Reserve(wide_moved_.size() + rows);
    }
  }
  const size_t entries = static_cast<size_t>(distinct + appended);
  if (accounts_pages_ + static_cast<int64_t>(appended) < kNarrow) {
    pages_.Reserve(pages_.size() + entries);
  } else {
    wide_pages_.Reserve(wide_pages_.size() + entries);
  }
}

// Loaded pages hold rows_per_page rows; the last loaded page may hold fewer.
int64_t HeapChurn::LoadedFreeBytes(int64_t block) const {
  const RelationLayout& r = layout_->relation(Relation::kAccounts);
  const int64_t rows = std::min(r.tuples_per_page, r.rows - block * r.tuples_per_page);
  return kPageBytes - kPageHeaderBytes -
         std::max<int64_t>(rows, 0) * (r.tuple_bytes + kLinePointerBytes) - kLinePointerBytes;
}

HeapChurn::PageState* HeapChurn::FindOrAdd(int64_t block, bool* inserted) {
  if (block < kNarrow) return pages_.Get(static_cast<uint32_t>(block), inserted);
  return wide_pages_.Get(block, inserted);
}

HeapChurn::PageState& HeapChurn::Page(int64_t block) {
  bool inserted = false;
  PageState* page = FindOrAdd(block, &inserted);
  if (inserted) page->free_bytes = static_cast<int16_t>(LoadedFreeBytes(block));
  return *page;
}

int64_t HeapChurn::CurrentBlock(int64_t aid) const {
  if (narrow_aids_) {
    if (const uint32_t* moved = moved_.Find(static_cast<uint32_t>(aid))) return *moved;
  }
  const int64_t* moved = wide_moved_.Find(aid);
  return moved != nullptr ? *moved : layout_->HeapBlock(Relation::kAccounts, aid);
}

void HeapChurn::SetMoved(int64_t aid, int64_t block) {
  if (narrow_aids_ && block < kNarrow) {
    *moved_.Get(static_cast<uint32_t>(aid)) = static_cast<uint32_t>(block);
    wide_moved_.Erase(aid);
    return;
  }
  if (narrow_aids_) moved_.Erase(static_cast<uint32_t>(aid));
  *wide_moved_.Get(aid) = block;
}

bool HeapChurn::DiedThisTransaction(int64_t block) const {
  return died_txn_ == txn_ &&
         std::find(died_blocks_.begin(), died_blocks_.end(), block) != died_blocks_.end();
}

void HeapChurn::MarkDiedThisTransaction(int64_t block) {
  if (died_txn_ != txn_) {
    died_blocks_.clear();
    died_txn_ = txn_;
  }
  died_blocks_.push_back(block);
}

// heap_page_prune_opt: a reader prunes a page with rows dead before its transaction
// when less than max(10 %, fillfactor reserve) of the page is free.
int64_t HeapChurn::MaybePrune(int64_t block, PageState* page) {
  const int64_t reserve = kPageBytes * (100 - layout_->fillfactor()) / 100;
  const int64_t min_free = std::max<int64_t>(kPageBytes / 10, reserve);
  if (page->dead_bytes == 0 || page->free_bytes >= min_free || DiedThisTransaction(block)) {
    return 0;
  }
  page->free_bytes += page->dead_bytes;
  page->dead_bytes = 0;
  ++stats_.prunes;
  return MaxAlign(kPruneRecordBytes);
}

// The page being filled at the end of the table; a new one when full. Sets *block.
HeapChurn::PageState& HeapChurn::InsertTarget(int64_t* block) {
  const RelationLayout& r = layout_->relation(Relation::kAccounts);
  const int64_t need = r.tuple_bytes + kPageBytes * (100 - layout_->fillfactor()) / 100;
  if (insert_block_ >= 0) {
    PageState& current = Page(insert_block_);
    if (current.free_bytes >= need) {
      *block = insert_block_;
      return current;
    }
  }
  insert_block_ = accounts_pages_++;
  ++stats_.pages_added;
  bool inserted = false;
  PageState& fresh = *FindOrAdd(insert_block_, &inserted);
  fresh = PageState();
  fresh.free_bytes = static_cast<int16_t>(kFreshPageFreeBytes);
  *block = insert_block_;
  return fresh;
}

// The state change of UPDATE accounts: prune the row's page if due, then HOT (the
// new version stays on the page) or not (it goes to the page being filled).
HeapChurn::RowUpdate HeapChurn::UpdateRow(int64_t aid) {
  const RelationLayout& r = layout_->relation(Relation::kAccounts);
  RowUpdate out;
  out.block = CurrentBlock(aid);
  PageState& page = Page(out.block);  // Valid until the next Page() of another block.
  out.prune_wal_bytes = MaybePrune(out.block, &page);
  const int64_t needed = r.tuple_bytes + kLinePointerBytes;
  page.dead_bytes += r.tuple_bytes;
  MarkDiedThisTransaction(out.block);
  if (page.free_bytes >= needed) {
    page.free_bytes -= needed;
    ++stats_.hot_updates;
    return out;
  }
  ++stats_.non_hot_updates;
  InsertTarget(&out.new_block).free_bytes -= needed;
  SetMoved(aid, out.new_block);
  return out;
}

void HeapChurn::UpdateAccounts(int64_t aid, StatementEffects* update) {
  const RowUpdate row = UpdateRow(aid);
  update->touches.back().block = row.block;
  update->wal_bytes += row.prune_wal_bytes;
  if (row.new_block < 0) return;
  int64_t path[DatabaseLayout::kMaxIndexLevels];
  const int levels = layout_->IndexPathInto(Relation::kAccountsPkey, aid, path);
  const int64_t leaf = path[levels - 1];
  update->touches.push_back({Relation::kAccounts, row.new_block, true});
  update->touches.push_back({Relation::kAccountsPkey, leaf, true});
  // The HOT record TpcbModel counted becomes LOCK + UPDATE (new block, whole row data
  // from t_bits: t_len - 23) + INSERT_LEAF.
  const int64_t row_data = 121 - kTupleHeaderBytes;  // t_len 121 for accounts rows.
  update->wal_bytes = update->wal_bytes - MaxAlign(kRecordBase + 14 + 4 + 5 + 4) +
                      MaxAlign(kLockRecordBytes) + MaxAlign(kRecordBase + 8 + 14 + 5 + row_data) +
                      MaxAlign(kLeafInsertBytes);
}

void HeapChurn::Advance(const TxnKeys& keys, bool updates_accounts) {
  ++txn_;
  if (updates_accounts) UpdateRow(keys.aid);
}

void HeapChurn::Prefetch(const TxnKeys& keys) const {
  if (narrow_aids_) {
    moved_.Prefetch(static_cast<uint32_t>(keys.aid));
  } else {
    wide_moved_.Prefetch(keys.aid);
  }
  const int64_t block = layout_->HeapBlock(Relation::kAccounts, keys.aid);
  if (block < kNarrow) {
    pages_.Prefetch(static_cast<uint32_t>(block));
  } else {
    wide_pages_.Prefetch(block);
  }
}

void HeapChurn::Apply(const TxnKeys& keys, std::vector<StatementEffects>* effects) {
  ++txn_;
  for (StatementEffects& e : *effects) {
    if (e.statement == Statement::kUpdateAccounts) {
      UpdateAccounts(keys.aid, &e);
    } else if (e.statement == Statement::kSelectAccounts) {
      const int64_t block = CurrentBlock(keys.aid);
      for (PageTouch& t : e.touches) {
        if (t.relation == Relation::kAccounts) t.block = block;
      }
    }
  }
}

}  // namespace pgstorsim
