// Internal to src/model: which of a run's data-page writes reach the storage within the
// run (docs/model.md "Data writes through the OS page cache"), and the WAL writer's
// background flushes. storage_model.cc solves the throughput and the written share as
// a fixed point with these.
// Units: seconds (*_s), bytes (*_bytes), per transaction (page_*). Thread safety: pure
// functions and immutable objects.
#ifndef PGSTORSIM_MODEL_RUN_WRITES_H_
#define PGSTORSIM_MODEL_RUN_WRITES_H_

#include <functional>

#include "common/status.h"
#include "pgmodel/demands.h"
#include "pgmodel/os_dirty_limits.h"
#include "scenario/scenario.h"

namespace pgstorsim::storage_network {

// A run's data-page writes: the host's demands over the run, the OS's write-back
// thresholds and the checkpoint cycle. Keeps a reference to the scenario.
class RunWrites {
 public:
  RunWrites(const Scenario& s, const pgmodel::HostDemands& host, double duration_s);

  // Share of the run's page writes that reach the storage at `tps`, with `page_reads`
  // per transaction: all of them from the first checkpoint's closing fsync on (the
  // cycle, then its write-out over completion_target of it); before it, all but those
  // still held dirty at the end: in shared buffers (their dirty share: the writes per
  // page read, at most all of them) and in the OS page cache (pgmodel::SteadyDirtyBytes:
  // up to its background threshold, at most dirty_expire's worth). With large caches a
  // 30 s run of PostgreSQL 15 at 600 tps writes no data page; with small ones nearly
  // every evicted page is written.
  double WrittenShare(double tps, double page_reads) const;

  // True when no backend waits for a data write: every page the run can dirty
  // (`database_bytes`) fits in shared buffers and under the OS's dirty limit (a write()
  // returns; the OS and the checkpointer write back in the background, and a checkpoint
  // the disks cannot keep up with stretches its cycle; with io.data_writes = direct the
  // OS's limit is 0: in shared buffers alone), and no commit waits for a WAL write behind them on
  // the same volume (synchronous commit, WAL on the data volume).
  bool InBackground(double database_bytes) const;

  // The page writes the OS page cache holds dirty at `tps` (pgmodel::SteadyDirtyBytes
  // over the filesystem's write unit of a page): a page evicted dirty and dirtied again
  // while held is written once. None where the OS holds no dirty page (direct writes).
  double OsHeldPages(double tps) const;

  // Of those, the pages whose next dirty eviction the OS merges with the write it holds:
  // a page read back into shared buffers and dirtied stays there for their residence
  // (shared buffers over `shared_misses` per transaction at `tps`) before it is evicted
  // again, so only that share of the expiry merges (none when the residence is longer).
  double OsMergedPages(double tps, double shared_misses) const;

  // The data writes the OS page cache can hold dirty before its dirty limit throttles
  // the writers, where it fills first (page_cache_fill.h: no commit waits behind the
  // data writes, and the OS holds dirty pages); else 0.
  double FillRoomWrites() const;

  double page_writes() const { return host_.page_writes; }  // Per transaction, all.
  // Of `written` page writes per transaction, those a backend waits for: where the OS
  // takes no dirty page (dirty limit 0: io.data_writes = direct) its own (dirty victims,
  // new pages, written at once; the checkpointer's stay in the background), none where
  // a write() returns once the OS holds the page.
  double BackendWaitedWrites(double written) const;

 private:
  double CycleSeconds(double tps) const;  // The checkpoint cycle at `tps`.

  const Scenario& s_;
  pgmodel::HostDemands host_;
  double duration_s_;
  double wal_cycle_transactions_;  // Transactions whose WAL triggers a checkpoint.
  double write_bytes_;             // OS dirty bytes per page write (FS write unit).
  pgmodel::OsDirtyLimits limits_;  // pgmodel::OsDirtyLimitsOf: all 0 for direct writes.
};

// The root w in [0, 1] of `excess(w)` = share(tps(w)) - w, which falls as w rises (tps
// falls as more writes reach the disks, so the root is unique): 1 when excess(1) >= 0,
// 0 when excess(0) <= 0, else regula falsi (Illinois) until |excess| <= 1e-10: the
// answer moves continuously with the caller's parameters (a fixed number of bisection
// steps would move it in steps of its last interval). The last w evaluated is the
// answer, so a caller keeping the state of its last evaluation holds the answer's
// state. An error from `excess` is returned.
StatusOr<double> WrittenShareRoot(const std::function<StatusOr<double>(double w)>& excess);

// synchronous_commit = off: the WAL writer's flushes per transaction at `tps`, one
// write each wal_writer_delay, or back to back when a write (`write_ms`) takes longer
// (one process, one flush at a time), at most one per transaction; where they reach
// the disks: the WAL on the data volume and no write-back cache to absorb them (with
// one, they are absorbed as the commits' WAL writes are). 0 with synchronous commit.
double WalWriterWritesPerTransaction(const Scenario& s, double tps, double write_ms);

}  // namespace pgstorsim::storage_network

#endif  // PGSTORSIM_MODEL_RUN_WRITES_H_
