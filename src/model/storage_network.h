// Internal to src/model: the pieces of the analytic model's solve (storage_model.cc,
// docs/model.md), by concern: a scenario's costs and demands (storage_costs.cc) and
// the network at one read load with its row-lock fixed point (storage_point.cc). Not
// for use outside src/model.
// Units: ms (*_ms), rates per ms (x_per_ms). Thread safety: pure functions over
// immutable inputs.
#ifndef PGSTORSIM_MODEL_STORAGE_NETWORK_H_
#define PGSTORSIM_MODEL_STORAGE_NETWORK_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "model/access_geometry.h"
#include "model/checkpoint_burst.h"
#include "model/drive_reordering.h"
#include "model/mva.h"
#include "model/regimes.h"
#include "model/row_lock_wait.h"
#include "model/storage_model.h"
#include "pgmodel/demands.h"
#include "scenario/scenario.h"

namespace pgstorsim::storage_network {

// Channels of an SSD that serve I/Os in parallel (at most the queue depth).
double SsdLanes(const Scenario& s);
// An SSD's c channels each serve one I/O in S = latency + bytes / transfer_rate (the
// per-channel rate): a multi-server station, split as usual for MVA (Seidmann) into a
// queue of demand S / c (CostsFor) and a delay of S x (1 - 1 / c) on the I/O's path,
// so a lone I/O costs S and a saturated device serves c / S I/Os per unit time.
// `footprint_bytes`: the volume data the reads and writes spread over; `g`: the member
// commands of one block access (the destage cost's spacing, destage_cost.h).
DiskCosts CostsFor(const Scenario& s, const ModelParams& p, double footprint_bytes,
                   const AccessGeometry& g);
// Commits per WAL flush where a throttled device's write cap binds. blk-throttle grants
// write_iops x 100 ms I/Os per slice (block/blk-throttle.c, throtl_slice on a rotational
// device; the simulator's ThrottledDisk has the same slices); once a slice's budget is
// spent every client ends up waiting at its commit, and the next slice's first flush
// carries all N commit records (each inserted before it started), the rest about one
// each: (budget - 1 + N) / budget. 1 when the writes are not commit flushes or the
// device is not throttled.
double SliceCommitGroup(const Scenario& s);

// What one operation (a transaction, or a randomio I/O) asks of the storage.
struct OpLoad {
  // Filesystem-block reads per operation once `ops_done` operations have run (a cold
  // cache warms as operations touch blocks; a warm one returns a constant).
  std::function<double(double ops_done)> reads_after;
  bool warming = false;      // reads_after depends on ops_done: integrate over the run.
  double duration_s = 0;     // Run length the warming is integrated over.
  double writes_per_op = 0;  // Filesystem-block data writes.
  // Data writes a client waits for (io.data_writes = direct: a backend's own writes),
  // besides writes_per_op.
  double sync_writes_per_op = 0;
  double commits_per_op = 0;     // Durable commits (a WAL flush, or randomio's fsync).
  double wal_writes_per_op = 0;  // WAL flush writes on the data volume (commits / group).
  // synchronous_commit = off: the WAL writer's flushes (one write each
  // wal_writer_delay) per operation, on the data volume, off the commit path.
  double background_wal_writes_per_op = 0;
  double wal_bytes_per_op = 0;  // WAL insert position advance (pgmodel/demands.h).
  double delay_ms = 0;          // Pure delay (client time outside the CPU).
  MultiServerStation cpu;       // CPU demand on the host's cores (0 = no CPU station).
  double footprint_bytes = 0;   // Data the reads spread over.
  bool checkpoints = false;     // PostgreSQL checkpoints (not randomio).
  bool row_locks = false;       // pgbench's tellers/branches row locks (not randomio).
  double flush_group = 1;       // Commits per throttled write (SliceCommitGroup; not randomio).
  const AccessGeometry* geometry = nullptr;  // Per operation; null = 8 KiB pages'.
  // The OS page cache's fill (page_cache_fill.h): the data writes it can hold dirty
  // before its dirty limit throttles the writers (0: no fill), the data writes each
  // operation hands it, and whether a solve is of the fill (`filling`).
  double fill_room_writes = 0;
  double dirtied_per_op = 0;
  bool filling = false;
};

// A pgbench run's solution: the prediction and what its statements' latencies are
// made of (storage_run.cc).
struct Solved {
  Prediction out;
  double update_ms = 0, end_ms = 0;  // Transaction-weighted over the run.
  double commit_ms = 0;
  double cpu_ms = 0;  // Residence at the CPU, transaction-weighted.
  RowLockWait locks;
};

// The host's demands a run was solved with: the fresh database's and the run's.
// Held (`held`), a solve uses them instead of sampling them at its own length, so that
// the band's finite differences measure a parameter's effect alone, not the sampler's
// steps in run length (pgmodel/demands.h: 9 % apart).
struct RunDemands {
  pgmodel::HostDemands fresh, run;
  bool held = false;
};

// The run of `s` with the host's demands sampled at its length in transactions and the
// share of its page writes that reach the storage within it (storage_run.cc);
// `load.writes_per_op` is set there. `demands` (may be null): held ones are used; else
// it receives the ones sampled.
StatusOr<Solved> SolveTransactions(const Scenario& s, const ModelParams& p, OpLoad load,
                                   RunDemands* demands);

// Constant pieces of a solve: geometry, costs, commit and a split read's waited share.
struct Network {
  const Scenario* s = nullptr;
  const ModelParams* p = nullptr;
  AccessGeometry geometry;
  DiskCosts costs;
  bool write_back = true;
  double commit_ms = 0;
  double read_waited = 1;          // Demands::read_waited.
  double whole_block_read_ms = 0;  // > 0: whole_block_reads (busy ms per block read).
  bool throttled = false;          // disks.type = throttled: ThrottledDemands.
  double latency_per_read_ms = 0;  // Throttled: device latency, a delay per block I/O.
  double latency_per_write_ms = 0;
  double ssd_flush_ms = 0;  // SSD: a block write's time on the commit path (its slowest
                            // piece; pieces on other members or channels overlap).
  std::optional<CheckpointCycle> checkpoint;  // Set: checkpoint bursts stall commits.
  ReadReorderGain reorder;  // Drives that reorder: a read's positioning by reads queued.
};

// The network of `load` on the scenario's storage: its geometry (load.geometry, else
// the 8 KiB pages'), costs, commit charge and checkpoint cycle. Keeps pointers to `s`
// and `p`, which must outlive it.
StatusOr<Network> MakeNetwork(const Scenario& s, const ModelParams& p, const OpLoad& load);
// `net` (MakeNetwork of `load`) integrated over a warming run (storage_run.cc): the
// pgbench model's solve, and the io workload's path on throttled devices
// (io_throttled.cc), which also reads the network's demands.
Solved SolveNetwork(const Network& net, const OpLoad& load);

// The network at one read load: both regimes and their blend.
struct Point {
  RegimeSolution a, b;
  double weight = 0;
  double x_per_ms = 0;
  Demands d;
  RowLockWait locks;              // Included in x_per_ms (a delay in the cycle).
  double fill_writes_per_ms = 0;  // A fill point's: data writes the disks take.
};

// Writes per operation through a throttled device's write cap: the data writes and
// the WAL flushes (the commits', or the WAL writer's) on the same volume.
double ThrottledWrites(const OpLoad& load);
// A throttled member is two independent stations, its read cap (stations 0..M-1) and
// its write cap (M..2M-1), so reads never queue behind writes. RAID 5/6 pre-reads
// spend the read cap. The host issues the writes (no controller between): pieces of a
// block contiguous on a member are one I/O, which the throttle counts once.
void ThrottledDemands(const Network& net, double reads, double writes, Demands* d);
// END's mean latency at a point: the commit acknowledgement and the disk residence
// attributed to the commit (as PredictWith reports it).
double PointEndMs(const Network& net, const Point& pt, double commits);
// The network with the row-lock waits (row_lock_wait.h) as a delay, in a fixed point
// with the cycle: the waits depend on the throughput and END's latency, which they
// change. Solved for the total wait T = f(T) by the secant method from T = 0 (2-4
// solves; f falls as T grows), to 0.1 % of the cycle; `*wait_ms` (in: a starting
// guess, e.g. the previous ramp slice's; out: T) may be null. Read-only work
// (select-only, randomio) takes no row locks.
Point SolvePoint(const Network& net, const OpLoad& load, double reads, double* wait_ms = nullptr);

}  // namespace pgstorsim::storage_network

#endif  // PGSTORSIM_MODEL_STORAGE_NETWORK_H_
