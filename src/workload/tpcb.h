// The TPC-B-like workload of pgbench and its simple-update and select-only variants,
// reduced to what storage sees: per statement, the 8 KiB pages touched (read or
// dirtied) and the WAL bytes written, and the commit's WAL flush
// (docs/workload-model.md).
//
// Statement names are the project's vocabulary everywhere (results, traces, model):
// "BEGIN", "UPDATE accounts", "SELECT accounts", "UPDATE tellers", "UPDATE branches",
// "INSERT history", "END". Keys are drawn as pgbench draws them, in its order:
// aid in [1, 100000*scale], bid in [1, scale], tid in [1, 10*scale],
// delta in [-5000, 5000], uniform, from a seeded Random.
//
// Page touches for an index lookup are the B-tree path root..leaf of the primary key,
// then the heap page of the row. Updates are HOT here (the heap page of the row is
// dirtied in place, indexes untouched; workload/heap_churn.h adds non-HOT updates and
// pruning on top); SELECT re-touches the accounts pages; the
// history insert dirties the last history page. WAL record sizes are PostgreSQL 15's
// (record header, block reference, main data, tuple data, MAXALIGNed); the first
// change of a page after a checkpoint adds a full-page image (FullPageImageBytes).
// Thread safety: TpcbModel is immutable and shareable; KeyGenerator is one per thread.
#ifndef PGSTORSIM_WORKLOAD_TPCB_H_
#define PGSTORSIM_WORKLOAD_TPCB_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "workload/database_layout.h"
#include "workload/workload_kind.h"

namespace pgstorsim {

enum class Statement : uint8_t {
  kBegin = 0,
  kUpdateAccounts = 1,
  kSelectAccounts = 2,
  kUpdateTellers = 3,
  kUpdateBranches = 4,
  kInsertHistory = 5,
  kEnd = 6,
};
inline constexpr int kStatementCount = 7;

const char* StatementName(Statement s);  // "UPDATE accounts", ...
StatusOr<Statement> ParseStatementName(const std::string& name);
// The statement's SQL as pgbench runs it (with :aid etc. placeholders).
const char* StatementSql(Statement s);

// pgbench builtin script names: "tpcb-like", "simple-update", "select-only".
StatusOr<WorkloadKind> ParseWorkloadKind(const std::string& name);
const char* WorkloadKindName(WorkloadKind kind);
// Statements of one transaction, in order. select-only is a single
// "SELECT accounts" (autocommit, no BEGIN/END).
std::vector<Statement> WorkloadStatements(WorkloadKind kind);

// Keys of one transaction. A select-only draw leaves tid, bid and delta 0.
struct TxnKeys {
  int64_t aid = 1;
  int64_t tid = 1;
  int64_t bid = 1;
  int64_t delta = 0;
};

// Draws keys like pgbench's builtin script of `kind` from a seeded stream: tpcb-like
// and simple-update draw aid, bid, tid, delta in that order (simple-update uses tid and
// bid for its history row); select-only draws aid only.
class KeyGenerator {
 public:
  // Tpcb-like draws from Random(seed). REQUIRES: scale >= 1.
  KeyGenerator(int64_t scale, uint64_t seed);
  // Draws from `random` (e.g. a Fork of a run's stream). REQUIRES: scale >= 1.
  KeyGenerator(WorkloadKind kind, int64_t scale, Random random);
  TxnKeys Next();
  // The aid of Next(), the stream advanced as Next() advances it (tid, bid and delta
  // drawn but not computed: a caller that reads only the aid, such as a skip ahead).
  int64_t NextAid();

 private:
  // The transaction's keys in pgbench's order; without kValues only the aid is
  // computed (the other draws advance the stream and are left unset).
  template <bool kValues>
  TxnKeys Draw();

  WorkloadKind kind_;
  int64_t scale_;
  Random random_;
};

// The key stream of client `client` in a run seeded `seed`: every instrument that
// runs transactions per client (simulate, trace) draws the same keys for the same seed.
KeyGenerator ClientKeys(int64_t scale, uint64_t seed, uint32_t client);

struct PageTouch {
  Relation relation = Relation::kAccounts;
  int64_t block = 0;
  bool dirty = false;  // The statement modifies the page (needs WAL, may need an FPI).
  bool operator==(const PageTouch& o) const {
    return relation == o.relation && block == o.block && dirty == o.dirty;
  }
};

struct StatementEffects {
  Statement statement = Statement::kBegin;
  std::vector<PageTouch> touches;  // In access order.
  // WAL bytes of the statement's records, without full-page images.
  int64_t wal_bytes = 0;
  bool commit = false;  // Ends with a commit record and a WAL flush (fsync).
};

class TpcbModel {
 public:
  // `layout` must outlive the model.
  TpcbModel(const DatabaseLayout* layout, WorkloadKind kind);

  WorkloadKind kind() const { return kind_; }
  const DatabaseLayout& layout() const { return *layout_; }
  const std::vector<Statement>& statements() const { return statements_; }

  // The effects of one transaction. `history_rows_before` = history rows inserted
  // before this transaction (decides the history page). Replaces *out's contents,
  // reusing its elements and their touch vectors' capacity (no allocation once warm).
  void Transaction(const TxnKeys& keys, int64_t history_rows_before,
                   std::vector<StatementEffects>* out) const;

  // Bytes a full-page image of this page adds to WAL: the block image minus the
  // hole between pd_lower and pd_upper. `history_rows_on_page` is used for
  // kHistory only (rows already on the page, including the one being inserted).
  int64_t FullPageImageBytes(Relation relation, int64_t history_rows_on_page) const;

  // Expected-value helpers for the analytic model.
  // Mean page touches per execution of `statement` on `relation` (0 if none).
  double ExpectedTouches(Statement statement, Relation relation) const;
  // Of those, mean pages dirtied.
  double ExpectedDirties(Statement statement, Relation relation) const;
  // WAL bytes per transaction without full-page images.
  int64_t WalBytesPerTransaction() const;

 private:
  void AddIndexLookup(Relation index, Relation heap, int64_t key, bool dirty_heap,
                      StatementEffects* effects) const;

  const DatabaseLayout* layout_;
  WorkloadKind kind_;
  std::vector<Statement> statements_;
};

// Probability that a touch, uniform over `relation_pages` pages, misses a cache that
// holds `cached_pages` of them: 1 - min(1, cached/relation). 0 for an empty relation.
double UniformMissProbability(int64_t cached_pages, int64_t relation_pages);

// Probability that a touch of `relation` misses a cache of `cache_pages` 8 KiB pages
// that holds the hottest pages first (WarmOrder below), under uniform keys.
double RelationMissProbability(const DatabaseLayout& layout, Relation relation,
                               int64_t cache_pages);

// A run of consecutive blocks of one relation.
struct PageRange {
  Relation relation = Relation::kAccounts;
  int64_t first_block = 0;
  int64_t pages = 0;
};

// Pages in decreasing heat, as a warm-up leaves caches, by group: index inner pages
// (accounts, tellers, branches), tellers and branches heap + pkey leaves, accounts
// pkey leaves, then accounts heap. Covers every page of those relations (history
// excluded). WarmGroups gives the groups' sizes (O(1)), WarmOrder their pages as
// block ranges (O(inner pages)).
struct WarmGroup {
  Relation relation = Relation::kAccounts;
  bool inner = false;  // An index's inner pages (else its leaves, or a heap).
  int64_t pages = 0;
};
std::vector<WarmGroup> WarmGroups(const DatabaseLayout& layout);
std::vector<PageRange> WarmOrder(const DatabaseLayout& layout);

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_TPCB_H_
