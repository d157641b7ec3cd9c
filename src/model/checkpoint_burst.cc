#include "model/checkpoint_burst.h"

#include <algorithm>

#include "common/units.h"
#include "model/destage_cost.h"
#include "pgmodel/host_scenario.h"

namespace pgstorsim {
double CheckpointCycle::Transactions(double x_per_ms) const {
  if (!(wal_bytes_per_txn > 0) || !(x_per_ms > 0)) return 0;
  return std::min(wal_trigger_bytes / wal_bytes_per_txn, timeout_ms * x_per_ms);
}

double CheckpointCycle::UnabsorbedShare(double x_per_ms) const {
  if (!(data_bytes_per_txn > 0) || !(wal_bytes_per_txn > 0) || !(x_per_ms > 0)) return 0;
  const double txns = Transactions(x_per_ms);
  const double spread_ms = completion_target * txns / x_per_ms;
  // Pages written by the checkpointer more than the OS expiry before the fsync are
  // already on their way; the younger ones come in the burst.
  const double in_burst = spread_ms > os_expire_ms ? os_expire_ms / spread_ms : 1.0;
  const double cycle_bytes = txns * data_bytes_per_txn;
  return std::max(0.0, in_burst * cycle_bytes - room_bytes) / cycle_bytes;
}

StatusOr<CheckpointCycle> MakeCheckpointCycle(const Scenario& s, double writes_per_txn,
                                              double wal_bytes_per_txn) {
  CheckpointCycle c;
  c.completion_target = CheckpointCompletionTarget(s.postgres);
  c.wal_bytes_per_txn = wal_bytes_per_txn;
  c.wal_trigger_bytes = static_cast<double>(
      pgmodel::CheckpointWalBytes(pgmodel::CheckpointSegments(s.postgres),
                                  pgmodel::MaxWalSizeBytes(s.postgres), c.completion_target));
  c.timeout_ms = NsToMs(s.postgres.checkpoint_timeout_ns);
  c.os_expire_ms = NsToMs(pgmodel::OsDirtyLimitsOf(s).expire_ns);
  c.data_bytes_per_txn = writes_per_txn * static_cast<double>(s.filesystem.block_size_bytes);
  if (s.controller.EffectiveWriteBack()) {
    c.room_bytes = DestagePendingBytes(s);
  }
  return c;
}

}  // namespace pgstorsim
