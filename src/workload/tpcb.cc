// TpcbModel of tpcb.h: the page touches and WAL bytes of each statement of a
// transaction, full-page image sizes, and the per-statement expected values.
#include "workload/tpcb.h"

#include <algorithm>
#include <vector>

#include "common/units.h"

namespace pgstorsim {
namespace {

// PostgreSQL 15 WAL record sizes in bytes (before MAXALIGN), see
// docs/workload-model.md: XLogRecord 24 + block reference 20 + short main-data
// header 2 + main data + block data.
constexpr int64_t kRecordHeaderBytes = 24 + 20 + 2;
constexpr int64_t kHeapUpdateMainBytes = 14;        // xl_heap_update.
constexpr int64_t kHeapInsertMainBytes = 3;         // xl_heap_insert.
constexpr int64_t kHeapHeaderBytes = 5;             // xl_heap_header.
constexpr int64_t kCommitRecordBytes = 24 + 2 + 8;  // xl_xact_commit, no subxacts.
constexpr int64_t kImageHeaderBytes = 5;            // XLogRecordBlockImageHeader.

// HOT update with prefix/suffix compression: lengths (2 bytes each, when >= 3
// bytes are shared), xl_heap_header and the changed 4-byte balance.
int64_t HotUpdateBytes(bool prefix, bool suffix) {
  return kRecordHeaderBytes + kHeapUpdateMainBytes + (prefix ? 2 : 0) + (suffix ? 2 : 0) +
         kHeapHeaderBytes + 4;
}

// Insert of a history row: header + the tuple from t_bits on (48 - 23 bytes).
constexpr int64_t kHistoryInsertBytes =
    kRecordHeaderBytes + kHeapInsertMainBytes + kHeapHeaderBytes + (48 - 23);

int64_t MaxAlign(int64_t n) { return (n + 7) & ~int64_t{7}; }

}  // namespace

TpcbModel::TpcbModel(const DatabaseLayout* layout, WorkloadKind kind)
    : layout_(layout), kind_(kind), statements_(WorkloadStatements(kind)) {}

void TpcbModel::AddIndexLookup(Relation index, Relation heap, int64_t key, bool dirty_heap,
                               StatementEffects* effects) const {
  int64_t path[DatabaseLayout::kMaxIndexLevels];
  const int levels = layout_->IndexPathInto(index, key, path);
  for (int i = 0; i < levels; ++i) effects->touches.push_back({index, path[i], false});
  effects->touches.push_back({heap, layout_->HeapBlock(heap, key), dirty_heap});
}

void TpcbModel::Transaction(const TxnKeys& keys, int64_t history_rows_before,
                            std::vector<StatementEffects>* out) const {
  // Reuses the elements (and their touch vectors' capacity) of the previous call.
  out->resize(statements_.size());
  for (size_t i = 0; i < statements_.size(); ++i) {
    const Statement s = statements_[i];
    StatementEffects& e = (*out)[i];
    e.statement = s;
    e.touches.clear();
    e.wal_bytes = 0;
    e.commit = false;
    switch (s) {
      case Statement::kBegin:
        break;
      case Statement::kUpdateAccounts:
        AddIndexLookup(Relation::kAccountsPkey, Relation::kAccounts, keys.aid, true, &e);
        e.wal_bytes = MaxAlign(HotUpdateBytes(true, true));
        break;
      case Statement::kSelectAccounts:
        AddIndexLookup(Relation::kAccountsPkey, Relation::kAccounts, keys.aid, false, &e);
        break;
      case Statement::kUpdateTellers:
        AddIndexLookup(Relation::kTellersPkey, Relation::kTellers, keys.tid, true, &e);
        e.wal_bytes = MaxAlign(HotUpdateBytes(true, false));
        break;
      case Statement::kUpdateBranches:
        AddIndexLookup(Relation::kBranchesPkey, Relation::kBranches, keys.bid, true, &e);
        e.wal_bytes = MaxAlign(HotUpdateBytes(true, false));
        break;
      case Statement::kInsertHistory:
        e.touches.push_back(
            {Relation::kHistory, history_rows_before / layout_->history_tuples_per_page(), true});
        e.wal_bytes = MaxAlign(kHistoryInsertBytes);
        break;
      case Statement::kEnd:
        e.wal_bytes = MaxAlign(kCommitRecordBytes);
        e.commit = true;
        break;
    }
  }
}

int64_t TpcbModel::FullPageImageBytes(Relation relation, int64_t history_rows_on_page) const {
  int64_t hole = layout_->relation(relation).page_hole_bytes;
  if (relation == Relation::kHistory) {
    const int64_t tuple = layout_->relation(relation).tuple_bytes;
    hole = kPageBytes - 24 - history_rows_on_page * (tuple + 4);
  }
  if (IsIndex(relation)) hole = 0;  // Indexes are only read in this model.
  return MaxAlign(kPageBytes - std::max<int64_t>(hole, 0) + kImageHeaderBytes);
}

double TpcbModel::ExpectedTouches(Statement statement, Relation relation) const {
  if (std::find(statements_.begin(), statements_.end(), statement) == statements_.end()) {
    return 0;
  }
  auto lookup = [&](Relation index, Relation heap) -> double {
    if (relation == index) return layout_->btree(index).levels;
    return relation == heap ? 1 : 0;
  };
  switch (statement) {
    case Statement::kUpdateAccounts:
    case Statement::kSelectAccounts:
      return lookup(Relation::kAccountsPkey, Relation::kAccounts);
    case Statement::kUpdateTellers:
      return lookup(Relation::kTellersPkey, Relation::kTellers);
    case Statement::kUpdateBranches:
      return lookup(Relation::kBranchesPkey, Relation::kBranches);
    case Statement::kInsertHistory:
      return relation == Relation::kHistory ? 1 : 0;
    default:
      return 0;
  }
}

double TpcbModel::ExpectedDirties(Statement statement, Relation relation) const {
  if (IsIndex(relation) || statement == Statement::kSelectAccounts) return 0;
  return ExpectedTouches(statement, relation);
}

int64_t TpcbModel::WalBytesPerTransaction() const {
  std::vector<StatementEffects> effects;
  Transaction(TxnKeys{}, 0, &effects);
  int64_t bytes = 0;
  for (const StatementEffects& e : effects) bytes += e.wal_bytes;
  return bytes;
}

}  // namespace pgstorsim
