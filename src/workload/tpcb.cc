#include "workload/tpcb.h"

#include <algorithm>
#include <utility>

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

const char* StatementName(Statement s) {
  switch (s) {
    case Statement::kBegin:
      return "BEGIN";
    case Statement::kUpdateAccounts:
      return "UPDATE accounts";
    case Statement::kSelectAccounts:
      return "SELECT accounts";
    case Statement::kUpdateTellers:
      return "UPDATE tellers";
    case Statement::kUpdateBranches:
      return "UPDATE branches";
    case Statement::kInsertHistory:
      return "INSERT history";
    case Statement::kEnd:
      return "END";
  }
  return "?";
}

StatusOr<Statement> ParseStatementName(const std::string& name) {
  for (int i = 0; i < kStatementCount; ++i) {
    if (name == StatementName(static_cast<Statement>(i))) return static_cast<Statement>(i);
  }
  return Status::Error("unknown statement '" + name + "'");
}

const char* StatementSql(Statement s) {
  switch (s) {
    case Statement::kBegin:
      return "BEGIN;";
    case Statement::kUpdateAccounts:
      return "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;";
    case Statement::kSelectAccounts:
      return "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;";
    case Statement::kUpdateTellers:
      return "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;";
    case Statement::kUpdateBranches:
      return "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;";
    case Statement::kInsertHistory:
      return "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, "
             ":aid, :delta, CURRENT_TIMESTAMP);";
    case Statement::kEnd:
      return "END;";
  }
  return "";
}

StatusOr<WorkloadKind> ParseWorkloadKind(const std::string& name) {
  if (name == "tpcb-like" || name == "tpcb") return WorkloadKind::kTpcbLike;
  if (name == "simple-update") return WorkloadKind::kSimpleUpdate;
  if (name == "select-only") return WorkloadKind::kSelectOnly;
  return Status::Error("unknown workload '" + name +
                       "' (expected tpcb-like, simple-update or select-only)");
}

const char* WorkloadKindName(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTpcbLike:
      return "tpcb-like";
    case WorkloadKind::kSimpleUpdate:
      return "simple-update";
    case WorkloadKind::kSelectOnly:
      return "select-only";
    case WorkloadKind::kIo:
      return "io";
  }
  return "?";
}

std::vector<Statement> WorkloadStatements(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTpcbLike:
      return {Statement::kBegin,
              Statement::kUpdateAccounts,
              Statement::kSelectAccounts,
              Statement::kUpdateTellers,
              Statement::kUpdateBranches,
              Statement::kInsertHistory,
              Statement::kEnd};
    case WorkloadKind::kSimpleUpdate:
      return {Statement::kBegin, Statement::kUpdateAccounts, Statement::kSelectAccounts,
              Statement::kInsertHistory, Statement::kEnd};
    case WorkloadKind::kSelectOnly:
      return {Statement::kSelectAccounts};
    case WorkloadKind::kIo:  // No SQL: device I/O only.
      return {};
  }
  return {};
}

KeyGenerator::KeyGenerator(int64_t scale, uint64_t seed)
    : KeyGenerator(WorkloadKind::kTpcbLike, scale, Random(seed)) {}

KeyGenerator::KeyGenerator(WorkloadKind kind, int64_t scale, Random random)
    : kind_(kind), scale_(scale), random_(std::move(random)) {}

template <bool kValues>
TxnKeys KeyGenerator::Draw() {
  TxnKeys keys;
  keys.aid = random_.UniformInt(1, kAccountsPerScale * scale_);
  if (kind_ == WorkloadKind::kSelectOnly) {
    keys.tid = keys.bid = 0;
    return keys;
  }
  auto draw = [this](int64_t lo, int64_t hi, int64_t* value) {
    if constexpr (kValues) {
      *value = random_.UniformInt(lo, hi);
    } else {
      random_.SkipUniformInt(lo, hi);
    }
  };
  draw(1, kBranchesPerScale * scale_, &keys.bid);
  draw(1, kTellersPerScale * scale_, &keys.tid);
  draw(-5000, 5000, &keys.delta);
  return keys;
}

TxnKeys KeyGenerator::Next() { return Draw<true>(); }

int64_t KeyGenerator::NextAid() { return Draw<false>().aid; }

KeyGenerator ClientKeys(int64_t scale, uint64_t seed, uint32_t client) {
  constexpr uint64_t kKeyStream = 1 << 20;
  return KeyGenerator(scale, Random(seed).Fork(kKeyStream + client).Next());
}

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

double UniformMissProbability(int64_t cached_pages, int64_t relation_pages) {
  if (relation_pages <= 0) return 0;
  const double cached =
      std::clamp<double>(static_cast<double>(cached_pages), 0, static_cast<double>(relation_pages));
  return 1.0 - cached / static_cast<double>(relation_pages);
}

namespace {

void AppendBlock(Relation relation, int64_t block, std::vector<PageRange>* ranges) {
  if (!ranges->empty()) {
    PageRange& last = ranges->back();
    if (last.relation == relation && last.first_block + last.pages == block) {
      ++last.pages;
      return;
    }
  }
  ranges->push_back({relation, block, 1});
}

// Leaf blocks of an index in key order (every block that is not the metapage or inner).
void AppendLeaves(const DatabaseLayout& layout, Relation index, std::vector<PageRange>* out) {
  std::vector<int64_t> inner = layout.InnerPages(index);
  std::sort(inner.begin(), inner.end());
  const int64_t total = layout.btree(index).total_pages;
  int64_t block = 1;  // After the metapage: the runs of leaves between inner pages.
  for (int64_t next : inner) {
    if (next > block) out->push_back({index, block, next - block});
    block = next + 1;
  }
  if (total > block) out->push_back({index, block, total - block});
}

}  // namespace

std::vector<WarmGroup> WarmGroups(const DatabaseLayout& layout) {
  auto inner = [&](Relation r) { return layout.btree(r).inner_pages; };
  auto leaves = [&](Relation r) { return layout.btree(r).leaf_pages; };
  return {{Relation::kAccountsPkey, true, inner(Relation::kAccountsPkey)},
          {Relation::kTellersPkey, true, inner(Relation::kTellersPkey)},
          {Relation::kBranchesPkey, true, inner(Relation::kBranchesPkey)},
          {Relation::kTellers, false, layout.pages(Relation::kTellers)},
          {Relation::kTellersPkey, false, leaves(Relation::kTellersPkey)},
          {Relation::kBranches, false, layout.pages(Relation::kBranches)},
          {Relation::kBranchesPkey, false, leaves(Relation::kBranchesPkey)},
          {Relation::kAccountsPkey, false, leaves(Relation::kAccountsPkey)},
          {Relation::kAccounts, false, layout.pages(Relation::kAccounts)}};
}

std::vector<PageRange> WarmOrder(const DatabaseLayout& layout) {
  std::vector<PageRange> out;
  for (const WarmGroup& g : WarmGroups(layout)) {
    if (g.inner) {
      for (int64_t block : layout.InnerPages(g.relation)) AppendBlock(g.relation, block, &out);
    } else if (IsIndex(g.relation)) {
      AppendLeaves(layout, g.relation, &out);
    } else {
      out.push_back({g.relation, 0, g.pages});
    }
  }
  return out;
}

double RelationMissProbability(const DatabaseLayout& layout, Relation relation,
                               int64_t cache_pages) {
  if (relation == Relation::kHistory) return 0;  // Appends hit the last page.
  int64_t remaining = std::max<int64_t>(cache_pages, 0);
  int64_t inner_total = 0, inner_cached = 0, other_total = 0, other_cached = 0;
  for (const WarmGroup& g : WarmGroups(layout)) {  // The cache holds a prefix.
    const int64_t cached = std::min(remaining, g.pages);
    remaining -= cached;
    if (g.relation != relation) continue;
    (g.inner ? inner_total : other_total) += g.pages;
    (g.inner ? inner_cached : other_cached) += cached;
  }
  const double leaf_miss = UniformMissProbability(other_cached, other_total);
  if (!IsIndex(relation)) return leaf_miss;
  const int levels = layout.btree(relation).levels;
  const double inner_miss = UniformMissProbability(inner_cached, inner_total);
  return ((levels - 1) * inner_miss + leaf_miss) / levels;
}

}  // namespace pgstorsim
