// The io workload (workload.type = io): jobs issuing file I/O at a pattern on the
// scenario's storage, without PostgreSQL (a device benchmark: fio, randomio, bonnie++'s
// seeks; docs/model.md, "Device workloads"). IoSpecFor is the one reading of the
// workload keys; both models (PredictIo here, the simulator's sim/io_clients.h) use it
// and FileLockRulesFor, so they answer the same question.
//
// PredictIo solves a closed network: clients x io_depth requests in flight; member
// disks as queues (reads outside any file lock); the file's lock as one more queue whose
// demand is the time a request holds it (its reads and fsync waited for under the lock,
// the disks' residence at the load they carry); destaging and OS write-back as open
// background load; a write-back controller's cache full when destaging saturates the
// disks (the disks' capacity then bounds the throughput, as for pgbench). A cold cache
// warms as requests touch file blocks (a ramp integrated over the run).
//
// Units: bytes, ms, requests per second (Prediction::tps is IOPS). Thread safety: pure
// functions.
#ifndef PGSTORSIM_MODEL_IO_WORKLOAD_H_
#define PGSTORSIM_MODEL_IO_WORKLOAD_H_

#include <algorithm>
#include <cstdint>

#include "common/status.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// What a filesystem serialises on a file's lock for buffered (or, on UFS, any) I/O:
//   ufs/ufs2/ffs (FreeBSD vn_write and kern_fsync lock the vnode LK_EXCLUSIVE unless the
//     mount allows shared writes, which UFS does not; vn_read takes it LK_SHARED, and
//     lockmgr refuses a shared request while an exclusive one waits): a write holds it
//     through its block's read-modify-write and an fsync through its writes; reads
//     wait for writers.
//   xfs (buffered writes take the iolock exclusive, reads shared; rwsem readers wait
//     behind a queued writer): writes hold it; reads wait for writers; fsync does not.
//   Linux ext2/3/4, btrfs, f2fs (generic buffered write under inode_lock; buffered
//     reads take no inode lock): writes hold it; reads and fsync do not.
//   O_DIRECT on Linux (aligned overwrites under a shared lock) and anything else: none.
struct FileLockRules {
  bool writes = false;      // A write holds the lock exclusively (and its RMW read).
  bool fsync = false;       // The fsync after a write runs under the lock.
  bool reads_wait = false;  // Reads wait while writers hold or queue for it.
};
FileLockRules FileLockRulesFor(const Scenario& scenario);

// The io workload's pattern from the workload keys. REQUIRES: a validated io scenario.
struct IoSpec {
  int clients = 1;          // Jobs (workload.clients).
  int depth = 1;            // Requests each keeps outstanding (workload.io_depth).
  int64_t io_bytes = 8192;  // Per request.
  int64_t file_bytes = 0;
  double read_fraction = 1;
  bool sequential = false;
  bool fsync_writes = false;
  bool direct = false;
  bool cold = false;  // workload.cache = cold: the OS cache starts empty.
  double duration_s = 60;
  int64_t os_cache_bytes = 0;  // OS page cache for the file (IoOsCacheBytes).
  int64_t fs_block_bytes = 0;  // Unit the OS caches and writes back.
  // A write covers only part of its filesystem blocks: a buffered write must read
  // them first when they are not cached (UFS2 64 KiB blocks, 8 KiB writes).
  bool partial_block_writes = false;
  bool rewrite = false;         // A write rewrites its job's last read (workload.io_rewrite).
  int64_t readahead_bytes = 0;  // Sequential reads: OS read-ahead window (>= io_bytes).
  // Sequential reads behind a controller that reads ahead: its stripe unit (a read runs
  // on to the unit's end, and the unit's later reads hit its cache); else 0.
  int64_t controller_readahead_bytes = 0;
  FileLockRules lock;
  int in_flight() const { return clients * depth; }
  // What the host reads for a missing request: a sequential buffered stream's read-ahead
  // window (at least a filesystem block), else the request (its blocks).
  int64_t HostReadBytes() const {
    return sequential && !direct ? std::max(readahead_bytes, fs_block_bytes) : io_bytes;
  }
  // What one device read reads: the host's read, or the controller's read-ahead unit
  // when larger (the host's other reads in that unit then hit the controller's cache).
  int64_t ReadUnitBytes() const { return std::max(HostReadBytes(), controller_readahead_bytes); }
  // A buffered write into part of its blocks reads them first when they are not
  // cached; a rewrite finds them cached (its job has just read them).
  bool WritesReadUncachedBlocks() const { return !direct && partial_block_writes && !rewrite; }
};
// The OS page cache an io workload's file gets: host.os_cache when given, else
// cache_fraction x host.ram (no database beside it).
int64_t IoOsCacheBytes(const Scenario& scenario, double cache_fraction);
IoSpec IoSpecFor(const Scenario& scenario, const ModelParams& params);

// Prediction of an io scenario: tps = requests per second, bytes_per_s, statement
// latencies "read" and "write" (mean and percentiles per request), devices, regime
// ("file-lock-bound" when jobs contend for the file's lock, "destage-bound",
// "write-bound" or "read-bound": the requests the jobs wait longer in). Errors name
// what the model does not answer.
StatusOr<Prediction> PredictIo(const Scenario& scenario, const ModelParams& params);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_IO_WORKLOAD_H_
