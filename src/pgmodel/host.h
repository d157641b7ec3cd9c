// Host: PostgreSQL's behaviour on the database host, without time: what the trace
// generator, the simulator and the analytic model's demands all drive
// (docs/workload-model.md). The caller owns the clock; the host owns the state.
//
// - Workload: each transaction's page touches and WAL records (TpcbModel), with
//   non-HOT updates and pruning (HeapChurn) when heap_churn is on.
// - Buffer access: every touch goes through the BufferCache (shared_buffers clock
//   sweep in front of the OS page cache); an UPDATE fetches its row's heap page a
//   second time (heap_update() re-reads the pinned buffer: a hit that raises the usage
//   count and counts in pg_statio).
// - Relation extension: a touch past a relation's end extends it with a zero page
//   (smgrextend(): a page write, no read; the page enters shared buffers).
// - Full-page images: the first change of a page after a checkpoint's redo point logs
//   the page (minus its hole) unless its record initialises the page (a page just
//   added by extension: XLOG_HEAP_INIT_PAGE, REGBUF_WILL_INIT).
// - WAL: records and images go to a WalStream (page headers included in the LSN);
//   the WAL pages written enter the OS page cache (wal_level replica never drops them)
//   when wal_cache_region_bytes > 0.
// - Checkpoints: due when checkpoint_timeout has passed since the last one started or
//   checkpoint_wal_bytes of WAL were inserted since its redo point; starting one resets
//   the full-page-image state and hands over every dirty buffer, to be written over
//   completion_target x the expected distance to the next one (the timeout, or the
//   last cycle when WAL triggers them sooner: PostgreSQL's IsCheckpointOnSchedule()).
// - Background writer rounds (BufferCache::BackgroundWriterRound) when enabled.
//
// Counts (HostCounts) are what the three instruments compare per transaction.
// Units: bytes, ns, 8 KiB pages. Deterministic. Thread safety: none.
#ifndef PGSTORSIM_PGMODEL_HOST_H_
#define PGSTORSIM_PGMODEL_HOST_H_

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "cache/buffer_cache.h"
#include "common/flat_hash_map.h"
#include "common/status.h"
#include "pgmodel/wal_stream.h"
#include "workload/database_layout.h"
#include "workload/heap_churn.h"
#include "workload/tpcb.h"

namespace pgstorsim::pgmodel {

// How the caches start: empty (after a reboot), holding the hottest pages
// (WarmOrder), or as `pgstorsim run --cache warm` leaves them (pg_prewarm of every
// relation, whole, in the driver's order: each block read once through the OS cache
// into shared buffers, so what stays is what the clock sweep kept of that pass).
enum class CacheStart { kCold, kWarm, kPgPrewarm };
// "cold", "warm" or "pg-prewarm" (`trace --cache`, results' cache state).
const char* CacheStartName(CacheStart start);

struct HostConfig {
  WorkloadKind workload = WorkloadKind::kTpcbLike;
  int64_t scale = 1;
  int fillfactor = 100;
  nlohmann::json measured_relations;  // `pgstorsim init` sections.relations, or null.
  CacheConfig cache;
  CacheStart start = CacheStart::kCold;
  bool heap_churn = true;  // false: every update HOT in place (TpcbModel alone).
  bool full_page_writes = true;
  int64_t checkpoint_timeout_ns = 300LL * 1000 * 1000 * 1000;
  int64_t checkpoint_wal_bytes = 1LL << 30;  // WAL since the redo point that starts one.
  double checkpoint_completion_target = 0.9;
  // > 0: WAL pages written enter the OS cache, page numbers wrapping at this size
  // (the WAL files on disk); 0: the WAL bypasses it.
  int64_t wal_cache_region_bytes = 0;
};

// Range checks; messages name the setting.
Status ValidateHostConfig(const HostConfig& config);

// Buffer fetches of one relation, counted like pg_statio: every page touch is one
// fetch; one that finds the page in shared buffers is a hit; anything else (an OS
// cache hit, a miss, or extending the relation with a new page, which PostgreSQL 15
// counts as a fetch without a hit) is a "read".
struct RelationFetches {
  uint64_t shared_hits = 0;
  uint64_t os_hits = 0;
  uint64_t misses = 0;
  uint64_t extends = 0;
  uint64_t fetches() const { return shared_hits + os_hits + misses + extends; }
};

// What the host did, summed since the last ResetCounts().
struct HostCounts {
  uint64_t transactions = 0;
  uint64_t read_ios = 0;           // Physical reads (a readahead window is one).
  uint64_t pages_read = 0;         // Pages those reads brought in.
  uint64_t eviction_writes = 0;    // Dirty victims written by backends.
  uint64_t extend_writes = 0;      // Zero pages written by relation extension.
  uint64_t checkpoint_writes = 0;  // Buffers handed to the checkpointer.
  uint64_t bgwriter_writes = 0;    // Buffers written by the background writer.
  uint64_t buffers_dirtied = 0;    // Clean -> dirty transitions.
  int64_t wal_record_bytes = 0;    // Records + images (MAXALIGNed, no page headers).
  int64_t wal_lsn_bytes = 0;       // Insert position advance (page headers included).
  uint64_t full_page_images = 0;
  int64_t full_page_image_bytes = 0;
  uint64_t checkpoints = 0;
  uint64_t non_hot_updates = 0;
  uint64_t prunes = 0;
  std::array<RelationFetches, kRelationCount> relations{};  // By Relation value.
  uint64_t page_writes() const {
    return eviction_writes + extend_writes + checkpoint_writes + bgwriter_writes;
  }
  nlohmann::json ToJson() const;  // Totals and per-transaction figures.
};

// A statement's state between its touches (one per statement in progress).
struct StatementProgress {
  int64_t image_bytes = 0;  // Full-page images its touches added to its WAL.
  bool refetched = false;   // The UPDATE's second fetch of its row's page is done.
};

// The outcome of one page touch.
struct TouchResult {
  CacheOutcome outcome = CacheOutcome::kSharedHit;
  bool extended = false;  // The relation grew by this page (no fetch counted).
};

// The dirty buffers a checkpoint writes and the time to spread them over.
struct CheckpointWork {
  std::vector<PageId> pages;  // In (file, block) order.
  int64_t spread_ns = 0;
};

class Host {
 public:
  // Builds the layout and the cache and fills it as config.start says.
  static StatusOr<std::unique_ptr<Host>> Create(const HostConfig& config);

  const HostConfig& config() const { return config_; }
  const DatabaseLayout& layout() const { return *layout_; }
  const TpcbModel& workload() const { return *model_; }
  BufferCache& cache() { return *cache_; }
  const BufferCache& cache() const { return *cache_; }

  // The effects of the next transaction (in the order transactions start): replaces
  // *effects (reusing its capacity).
  void StartTransaction(const TxnKeys& keys, std::vector<StatementEffects>* effects);
  // A whole transaction at once, for callers without a clock: its touches, WAL and
  // commit; its I/O is appended to *ios.
  void RunTransaction(const TxnKeys& keys, std::vector<CacheIo>* ios);
  // Runs a transaction's heap churn and relation growth only (no buffer access or WAL;
  // counts only its non-HOT updates and prunes): a database that has been updated `n`
  // transactions long, cheaply.
  void SkipTransaction(const TxnKeys& keys);
  // SkipTransaction for the next `n` transactions of *keys (exactly n drawn), with
  // each one's heap-churn state loaded while the ones before it run.
  void SkipTransactions(KeyGenerator* keys, int64_t n);
  // RunTransaction for the next `n` transactions of *keys (exactly n drawn; their I/O
  // dropped), with each one's random pages' state (Prefetch) loaded while the ones
  // before it run.
  void RunTransactions(KeyGenerator* keys, int64_t n);
  // Makes room at once for the state `transactions` more transactions add (the heap
  // churn's pages) instead of growing it as they come. A capacity hint: results do not
  // depend on it.
  void Reserve(int64_t transactions);
  // A transaction committed (counted in HostCounts::transactions).
  void EndTransaction() { ++counts_.transactions; }

  // One page touch of `statement`: the cache access; the physical I/O it causes (the
  // read of a miss or a readahead window, dirty victims' writes, an extension's zero
  // page) is appended to *ios in issue order. A full-page image adds to *progress.
  TouchResult Touch(Statement statement, const PageTouch& touch, StatementProgress* progress,
                    std::vector<CacheIo>* ios);
  // Inserts a statement's WAL (its records and the images of its touches); returns the
  // insert position after it (the LSN its commit waits for).
  int64_t InsertWal(const StatementEffects& effects, const StatementProgress& progress);
  int64_t insert_lsn() const { return wal_.insert_lsn(); }

  bool CheckpointDue(int64_t now_ns) const;
  // When the timeout makes the next checkpoint due.
  int64_t next_timed_checkpoint_ns() const;
  CheckpointWork StartCheckpoint(int64_t now_ns);
  // StartCheckpoint for a caller that writes no pages (the demand sampler): the same
  // state change and counts, without the list of dirty pages.
  void StartUnwrittenCheckpoint(int64_t now_ns);

  // One background-writer round: its writes appended to *ios.
  void BackgroundWriterRound(std::vector<CacheIo>* ios);

  const HostCounts& counts() const;
  // Zeroes the counts and the cache statistics (e.g. at the end of a warm-up).
  void ResetCounts();

 private:
  explicit Host(const HostConfig& config) : config_(config) {}
  Status Init();
  void PgPrewarm();
  void CountIos(const std::vector<CacheIo>& ios, size_t from);
  void CountFetch(Relation relation, CacheOutcome outcome);
  void Extend(const PageTouch& touch, std::vector<CacheIo>* ios);
  int64_t ImageBytes(const PageTouch& touch) const;
  bool ChangedFirstSinceCheckpoint(Relation relation, int64_t block);
  void CacheWalPages(int64_t start_lsn, int64_t end_lsn);
  void CountChurn(const HeapChurnStats& before);
  // The state change of a checkpoint's start but the dirty buffers' hand-over;
  // returns the time to spread their writes over.
  int64_t BeginCheckpoint(int64_t now_ns);
  // Starts loading the state the transaction of `keys` reads at random: its account's
  // heap-churn entries, and the page index and changed-page entries of its accounts
  // heap page (where the row was loaded). A hint: no effect on results. (Its pkey
  // leaf's entry too was measured: computing the leaf cost what the prefetch saved.)
  void Prefetch(const TxnKeys& keys) const;
  void EndSkips(int64_t n, const HeapChurnStats& before);

  const HostConfig config_;
  std::unique_ptr<DatabaseLayout> layout_;
  std::unique_ptr<TpcbModel> model_;
  std::unique_ptr<HeapChurn> churn_;
  std::unique_ptr<BufferCache> cache_;
  WalStream wal_;
  mutable HostCounts counts_;  // Derived fields filled by counts().
  std::array<int64_t, kRelationCount> relation_pages_{};
  std::vector<StatementEffects> scratch_;  // Of RunTransaction and SkipTransaction.
  // SkipTransaction without the transaction's touches: true when none of them can grow
  // a relation but the history insert and the heap churn's new accounts pages (every
  // other relation has pages, so its blocks are clamped inside it).
  bool skip_growth_known_ = false;
  bool inserts_history_row_ = false;  // The script runs INSERT history.
  bool updates_accounts_ = false;     // The script runs UPDATE accounts.
  // The pages changed since the last redo point, keyed ChangedKey(relation, block):
  // memory follows the pages changed in one checkpoint cycle, not the relations' size.
  static int64_t ChangedKey(Relation relation, int64_t block) {
    return block * kRelationCount + static_cast<int>(relation);
  }
  FlatHashMap<int64_t, bool, IntegerKeyHash> changed_{-1};
  int64_t history_rows_ = 0;
  int64_t redo_lsn_ = 0;
  int64_t lsn_at_reset_ = 0;
  int64_t record_bytes_at_reset_ = 0;
  uint64_t checkpoints_started_ = 0;
  int64_t last_checkpoint_ns_ = 0;
  int64_t wal_cache_page_ = -1;  // WAL page last written into the OS cache
  int wal_cache_touches_ = 0;    // and how often in a row.
};

}  // namespace pgstorsim::pgmodel

#endif  // PGSTORSIM_PGMODEL_HOST_H_
