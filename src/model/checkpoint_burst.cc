#include "model/checkpoint_burst.h"

#include <algorithm>

#include "common/units.h"
#include "model/cache_misses.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace {

constexpr double kWalSegmentBytes = 16.0 * (1 << 20);

}  // namespace

double CheckpointCycle::UnabsorbedShare(double x_per_ms) const {
  if (!(data_bytes_per_txn > 0) || !(wal_bytes_per_txn > 0) || !(x_per_ms > 0)) return 0;
  const double txns = std::min(wal_trigger_bytes / wal_bytes_per_txn, timeout_ms * x_per_ms);
  const double spread_ms = completion_target * txns / x_per_ms;
  // Pages written by the checkpointer more than the OS expiry before the fsync are
  // already on their way; the younger ones come in the burst.
  const double in_burst = spread_ms > kOsDirtyExpireMs ? kOsDirtyExpireMs / spread_ms : 1.0;
  const double cycle_bytes = txns * data_bytes_per_txn;
  return std::max(0.0, in_burst * cycle_bytes - room_bytes) / cycle_bytes;
}

StatusOr<CheckpointCycle> MakeCheckpointCycle(const Scenario& s, double writes_per_txn) {
  auto layout = LayoutForScale(s.workload.scale);
  if (!layout.ok()) return layout.status();
  const TpcbModel model(layout->get(), s.workload.type);
  CheckpointCycle c;
  c.completion_target = DefaultCheckpointCompletionTarget(s.postgres);
  c.wal_bytes_per_txn = static_cast<double>(model.WalBytesPerTransaction());
  if (s.postgres.full_page_writes && writes_per_txn > 0) {
    c.wal_bytes_per_txn += static_cast<double>(model.FullPageImageBytes(Relation::kAccounts, 0));
  }
  c.wal_trigger_bytes =
      HasCheckpointSegments(s.postgres)
          ? 3 * kWalSegmentBytes
          : static_cast<double>(s.postgres.max_wal_size_bytes) / (1 + c.completion_target);
  c.timeout_ms = static_cast<double>(s.postgres.checkpoint_timeout_ns) / 1e6;
  c.data_bytes_per_txn = writes_per_txn * static_cast<double>(s.filesystem.block_size_bytes);
  if (s.controller.EffectiveWriteBack()) {
    c.room_bytes = static_cast<double>(s.controller.cache_size_bytes) / 4;
  }
  return c;
}

}  // namespace pgstorsim
