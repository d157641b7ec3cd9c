// CheckpointCycle: how much of a transaction's data writes reaches the storage in a
// checkpoint's closing fsync burst beyond what the write-back cache can take, i.e.
// while the commits wait (internal to src/model; docs/model.md, "Checkpoint bursts").
//
// PostgreSQL's checkpointer write()s the dirty buffers evenly over
// completion_target x the checkpoint cycle (0.5 before 14, 0.9 since), into the OS
// page cache, which writes a page back once it is `os_expire_ms` old; the closing
// fsync writes every page still dirty at once. A cycle is T transactions: the WAL
// trigger (checkpoint_segments x 16 MiB before 9.5, max_wal_size / (1 + target)
// since) over the WAL per transaction (the host model's: records, full-page images,
// page headers), or checkpoint_timeout x throughput.
// The burst queues ahead of the WAL write (at the disks, or for room in a full
// write-back cache), so the commits wait until the part that does not fit in the
// cache's room (the write cache, half the controller cache, below its destage start,
// half of it; none without a write-back cache) has been written.
// Units: bytes, ms, transactions per ms. Thread safety: immutable value.
#ifndef PGSTORSIM_MODEL_CHECKPOINT_BURST_H_
#define PGSTORSIM_MODEL_CHECKPOINT_BURST_H_

#include "common/status.h"
#include "pgmodel/os_dirty_limits.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct CheckpointCycle {
  double wal_bytes_per_txn = 0;
  double wal_trigger_bytes = 0;  // WAL between two checkpoints.
  double timeout_ms = 0;
  double completion_target = 0.9;
  double data_bytes_per_txn = 0;  // Filesystem-block writes x block size.
  double room_bytes = 0;          // Write-back cache room below the destage start.
  // The OS's dirty expiry (pgmodel::OsDirtyLimitsOf); 0 where the OS writes at once
  // (io.data_writes = direct: the closing fsync finds nothing left to write).
  double os_expire_ms = pgmodel::kDirtyExpireNs / 1e6;

  // Transactions in one checkpoint cycle at throughput `x_per_ms` (the WAL trigger or
  // the timeout, whichever comes first); 0 without WAL or throughput.
  double Transactions(double x_per_ms) const;
  // Share (0..1) of a transaction's data writes written while the commits wait, at
  // throughput `x_per_ms` (it sets the length of a timed cycle).
  double UnabsorbedShare(double x_per_ms) const;
};

// `writes_per_txn`: filesystem-block data writes per transaction; `wal_bytes_per_txn`:
// the WAL insert position's advance per transaction (pgmodel/demands.h).
StatusOr<CheckpointCycle> MakeCheckpointCycle(const Scenario& s, double writes_per_txn,
                                              double wal_bytes_per_txn);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_CHECKPOINT_BURST_H_
