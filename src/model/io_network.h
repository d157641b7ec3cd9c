// Internal to src/model: the closed network an io workload's requests form
// (io_workload.cc builds it from the scenario; docs/model.md "Device workloads"): each
// request kind's disk paths per member, its background load, the file lock it may
// hold, and the controller's acknowledgement; solved in the absorbed regime (MVA at
// the throughput the background and the lock leave, by bisection), held within the
// throughput the members' whole busy time per request allows (where a write-back
// cache is full).
// Units: ms (*_ms), rates per ms (x_per_ms). Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_IO_NETWORK_H_
#define PGSTORSIM_MODEL_IO_NETWORK_H_

#include <cstddef>
#include <vector>

#include "model/mirror_sets.h"

namespace pgstorsim::io_network {

// One kind of request (a read or a write) as the network sees it, per request.
struct Kind {
  double share = 0;             // Of all requests.
  std::vector<double> path_ms;  // Disk busy ms the request waits for, per member.
  bool path_locked = false;     // Its disk path runs under the file lock.
  double ack_ms = 0;            // Fixed wait (controller acknowledgement).
  bool ack_locked = false;
  std::vector<double> after_ms;  // Disk path after the lock is released (an fsync's
                                 // write-through on a filesystem that syncs unlocked).
  std::vector<double> open_ms;   // Background disk busy ms it causes (destage, write-back).
  // Disk busy ms of its own commands that run beside its path (a split read's or a
  // synchronous write's other pieces and copies): load for the other requests in
  // flight, not for itself.
  std::vector<double> parallel_ms;
  bool visits_lock = false;  // Waits for the lock (and holds it for its locked parts).
  double device_reads = 0;   // Device read commands it waits for (percentiles).
};

// The network: n requests in flight over `members` disks, in two kinds by share.
struct Net {
  int n = 1;
  Kind read, write;
  // The share of a read's pieces' busy time on its path (ReadWaitedShare; the
  // rest is in read.parallel_ms).
  double read_waited = 1;
  double read_service_ms = 0, destage_service_ms = 0;
  double sync_write_ms = 0;  // A synchronous write's wait for its own commands, unqueued.
  double destage_threshold = 0.75;
  bool write_back = true;
  size_t members = 0;
  MirrorSets mirrors;  // Members that are copies (one station per set); empty: none.
};

// The solved network (weighted by the cache-full regime where it applies).
struct Solution {
  double x_per_ms = 0;
  double read_ms = 0, write_ms = 0;  // Mean latency per request of the kind.
  double lock_utilization = 0;
  double cache_full_weight = 0;
  double reads_at_members = 0;  // Reads present at the members' queues (absorbed regime).
  std::vector<double> read_busy, write_busy;  // Utilisation per member.
};

// The network's throughput, latencies per kind, lock utilisation and member loads.
Solution Solve(const Net& net);

}  // namespace pgstorsim::io_network

#endif  // PGSTORSIM_MODEL_IO_NETWORK_H_
