// HostDemands: what one transaction asks of the storage on average over a run of T
// transactions from `pgbench -i`, measured by running the host model (pgmodel/host.h)
// for checkpoint cycles: the analytic model's per-transaction writes, WAL bytes and
// full-page images come from here, so they are the trace's and the simulator's by
// construction. The demands change over a run as updates revisit pages (the first
// update of a loaded accounts page is not HOT, later ones are after pruning): the
// figures are Simpson's mean of cycles starting after 0, T/2 and T transactions (the
// heap churn and relation growth before each are run without the caches).
//
// A cycle starts at a redo point (every page clean, no image logged yet) and lasts
// until the WAL inserted since then reaches the checkpoint trigger, as PostgreSQL
// requests the checkpoint (at most 100000 transactions of the database it runs on); the
// WAL rate of its first 1000 transactions only decides whether it is thinned (below). A
// workload whose first 1000 log no WAL, as select-only, has those 1000 as its demands
// for any run. Every
// clean -> dirty transition of a buffer in a cycle is written once (by the
// checkpoint, a dirty eviction or the background writer), and a new page also once
// as the zero page that extends the relation: page writes = dirtied + extensions.
// The run has the config's shared buffers, so a page evicted dirty and dirtied again
// in the same cycle is written again; for a scenario, the buffers are its shared
// buffers plus the dirty pages its OS page cache merges a second eviction into (given
// by the caller, who knows the throughput: model/run_writes.h), where a page dirtied
// again is written once. A cycle
// also ends at the caller's cap (checkpoint_timeout x the throughput, which the
// caller knows). Reads are not measured here (they depend on the cache state:
// model/cache_misses.h).
// Units: per transaction, bytes. Thread safety: SampleDemands is safe to call from
// several threads (memoised under a lock); a DemandSampler is one thread's.
#ifndef PGSTORSIM_PGMODEL_DEMANDS_H_
#define PGSTORSIM_PGMODEL_DEMANDS_H_

#include <cstdint>
#include <memory>

#include "common/status.h"
#include "pgmodel/host.h"
#include "scenario/scenario.h"

namespace pgstorsim::pgmodel {

struct HostDemands {
  double page_writes = 0;       // Data-page writes per transaction.
  double backend_writes = 0;    // Of those, a backend's: dirty victims and new pages.
  double wal_record_bytes = 0;  // WAL records + images per transaction.
  double wal_lsn_bytes = 0;     // Insert position advance (page headers included).
  double full_page_images = 0;
  double non_hot_updates = 0;
  int64_t cycle_transactions = 0;  // The checkpoint cycle the figures hold for.
  bool cycle_cut = false;          // A cycle ended at the cap before its WAL trigger.
};

// The demands of one host at several run lengths, sharing the work they have in common:
// every length starts with the same first cycle from `pgbench -i`, so a sampler whose
// host ran it for one length goes on with that host for a longer one instead of running
// it again. Each result equals SampleDemands' for the same arguments and is memoised
// with them.
// A cycle longer than `thin_above` transactions (its length is known from its first
// 1000) is measured on the database thinned k-fold to about kThinnedCycle: scale,
// shared buffers, checkpoint trigger and run length divided by k, which keeps each
// relation's touches per page over a cycle and over the run, and the buffers per page
// of data; the cycle's reported length is k times the thinned one. So the work does
// not grow with max_wal_size or the run's length (docs/model.md, "Demands on a thinned
// database"). Not with measured relation sizes (they do not scale).
// Owns at most one host (its buffers are at most 400 K pages of cache state) for its
// lifetime. Thread safety: none (the memo it shares is locked).
class DemandSampler {
 public:
  static constexpr double kThinnedCycle = 1500;  // Transactions.
  // Thinning by less than 4/3 costs more than it saves (a second host is built).
  static constexpr double kThinAbove = kThinnedCycle * 4 / 3;  // 2000 transactions.
  explicit DemandSampler(const HostConfig& config, double thin_above = kThinAbove);
  // The scenario's host (pgmodel/host_scenario.h) whose OS page cache merges the
  // evictions of `os_held_pages` 8 KiB pages it holds dirty (rounded to within 10 %);
  // kOsBackground: its whole background threshold (the most it holds).
  static constexpr int64_t kOsBackground = -1;
  explicit DemandSampler(const Scenario& scenario, int64_t os_held_pages = kOsBackground);
  ~DemandSampler();
  // As SampleDemands(config, run_transactions); a cycle also ends after
  // `max_cycle_transactions` (checkpoint_timeout x the throughput; rounded as T is).
  StatusOr<HostDemands> Sample(double run_transactions, double max_cycle_transactions = kUncapped);

  static constexpr double kUncapped = 1e18;

 private:
  struct Paused;
  Status RunFirstCycle(int64_t cap);
  static bool FirstCycleHolds(const Paused& paused, int64_t cap);
  const HostConfig config_;
  const double thin_above_;
  std::unique_ptr<Paused> paused_;  // The host after its first cycle, or null.
};

// The demands of `config`'s workload and checkpoint settings (its cache and start
// state are replaced as described above). Memoised on the settings that matter.
// `run_transactions` (T) is rounded to within 10 % (memo buckets).
StatusOr<HostDemands> SampleDemands(const HostConfig& config, double run_transactions);
// The same for a scenario's host (pgmodel/host_scenario.h) whose OS page cache holds
// its background threshold dirty.
StatusOr<HostDemands> SampleDemands(const Scenario& scenario, double run_transactions);

}  // namespace pgstorsim::pgmodel

#endif  // PGSTORSIM_PGMODEL_DEMANDS_H_
