// The two operating regimes of the analytic model's queueing network (internal to
// src/model; docs/model.md, "Two regimes"). Per member disk and per transaction, reads
// and destage writes have service demands (busy ms); a read split over members runs
// its pieces in parallel: its path holds their waited share (`read_waited`), the rest
// is load beside it for the other clients.
//   - Read-bound: the write-back cache absorbs commits; destage is an open background
//     class that slows reads by 1 / (1 - U_destage).
//   - Cache full (write-back, `SolveCacheFull`): the destage stream saturates the
//     disks; the controller frees a line whenever any destage completes, so a commit
//     waits for room, not for its own writes: throughput is the disks' capacity
//     1 / max_m (read + destage + WAL demand), or what the clients drive if lower.
//   - Destage-bound (closed, `SolveDestageBound`): each commit waits for the writes of
//     its own transaction: reads and writes are both on the transaction's path (a
//     throttled write-through device, where that write stands for the WAL write).
// Without a write-back cache the WAL write is a closed demand (`wal_ms`) on the commit
// path, while the data writes stay an open background class (OS write-back).
// The CPU is one more closed station in every regime (a multi-server station, exact
// load-dependent MVA, mva.h): never slowed by the destage class, always on the path.
// Units: ms, transactions per ms. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_REGIMES_H_
#define PGSTORSIM_MODEL_REGIMES_H_

#include <vector>

#include "model/mirror_sets.h"
#include "model/mva.h"

namespace pgstorsim {

struct Demands {
  std::vector<double> read_ms;        // Per member, per transaction (busy time).
  std::vector<double> write_ms;       // Per member, per transaction (destage).
  std::vector<double> wal_ms;         // Per member: WAL write on the commit path (no
                                      // write-back cache); empty = none.
  double read_waited = 1;             // Share of read_ms on the path (ReadWaitedShare).
  double update_residence_share = 0;  // Destage-bound: > 0: UPDATE's share of the disk
                                      // residence (reads + destage); 0: UPDATE = reads.
  bool paced = false;                 // Stations are rate caps (SolvePacedMva), not queues.
  MultiServerStation cpu;             // The CPU: demand per transaction on its cores
                                      // (mva.h); demand 0 = no CPU station.
  MirrorSets mirrors;                 // Members that are copies (one station per set,
                                      // mirror_sets.h); empty = one station each.
};

struct RegimeSolution {
  double x_per_ms = 0;
  double update_ms = 0;      // Disk residence of the reads (the path's).
  double read_queue_ms = 0;  // The reads' pieces' residence at the members' queues, the
                             // parallel ones included; 0 in the cache-full regime, which
                             // has no queues of its own.
  double end_ms = 0;         // Disk residence attributed to the commit (WAL, wait for room).
  double rho = 0;            // Destage load / capacity left by reads (read-bound only).
  double cpu_ms = 0;         // Residence at the CPU (queueing for a core + service).
  // The part of end_ms spent in checkpoint bursts (storage_point.cc), per transaction,
  // and one burst's length: the commits wait the whole burst, once per cycle each.
  double stall_ms = 0;
  double burst_ms = 0;
  double flush_ms = 0;       // No write-back cache: a commit's own WAL flush (in end_ms),
  double flush_wait_ms = 0;  // and its mean wait for the flush in progress (in end_ms).
};

// REQUIRES: clients >= 1, demands >= 0 of equal sizes, delay_ms >= 0.
RegimeSolution SolveReadBound(int clients, const Demands& d, double delay_ms);
RegimeSolution SolveDestageBound(int clients, const Demands& d, double delay_ms);
// The write-back cache is full. `free` is the read-bound solution (commits absorbed):
// X = min(free.x, 1 / max_m (read + write + WAL demand)); the cycle N / X minus
// `delay_ms` is the disk residence, split between UPDATE accounts (its reads, or
// update_residence_share of it) and END (the commit's wait for room).
RegimeSolution SolveCacheFull(int clients, const Demands& d, double delay_ms,
                              const RegimeSolution& free);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_REGIMES_H_
