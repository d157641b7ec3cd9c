// Data-page writes of a run and the WAL writer's flushes (run_writes.h).
#include "model/run_writes.h"

#include <algorithm>

#include "common/units.h"
#include "layout/fs_mapping.h"
#include "model/falling_root.h"
#include "pgmodel/host_scenario.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim::storage_network {
namespace {

// Bytes the OS page cache holds dirty for one data-page write: the filesystem's write
// unit of an 8 KiB page in a large file (a whole block on UFS, the page elsewhere).
double DirtyBytesPerWrite(const Scenario& s) {
  auto fs = FsMapping::Create(FsGeometryFor(s));
  if (!fs.ok()) return kPageBytes;
  return static_cast<double>(
      std::max<int64_t>(kPageBytes, fs->MapWrite(0, kPageBytes).length_bytes));
}

}  // namespace

RunWrites::RunWrites(const Scenario& s, const pgmodel::HostDemands& host, double duration_s)
    : s_(s),
      host_(host),
      duration_s_(duration_s),
      wal_cycle_transactions_(
          static_cast<double>(pgmodel::CheckpointWalBytes(pgmodel::CheckpointSegments(s.postgres),
                                                          pgmodel::MaxWalSizeBytes(s.postgres),
                                                          CheckpointCompletionTarget(s.postgres))) /
          std::max(1.0, host.wal_lsn_bytes)),
      write_bytes_(DirtyBytesPerWrite(s)),
      limits_(pgmodel::OsDirtyLimitsOf(s)) {}

double RunWrites::CycleSeconds(double tps) const {
  return std::min(NsToSec(s_.postgres.checkpoint_timeout_ns), wal_cycle_transactions_ / tps);
}

double RunWrites::WrittenShare(double tps, double page_reads) const {
  tps = std::max(tps, 1e-9);
  if (!(duration_s_ > 0)) return 1;
  const double first_fsync_s = CycleSeconds(tps) * (1 + CheckpointCompletionTarget(s_.postgres));
  const double after_fsync = std::clamp((duration_s_ - first_fsync_s) / duration_s_, 0.0, 1.0);
  const double dirtied = host_.page_writes * tps * duration_s_;
  if (!(dirtied > 0)) return after_fsync;
  const double os_held = OsHeldPages(tps);
  const double dirty_share = std::min(1.0, host_.page_writes / std::max(page_reads, 1e-9));
  const double shared_held =
      dirty_share * static_cast<double>(s_.postgres.shared_buffers_bytes / kPageBytes);
  return std::max(after_fsync, std::clamp(1 - (shared_held + os_held) / dirtied, 0.0, 1.0));
}

double RunWrites::OsHeldPages(double tps) const {
  return pgmodel::SteadyDirtyBytes(limits_, host_.page_writes * tps * write_bytes_) / write_bytes_;
}

double RunWrites::OsMergedPages(double tps, double shared_misses) const {
  const double evicted_per_s = std::max(shared_misses * tps, 1e-9);
  const double residence_s =
      static_cast<double>(s_.postgres.shared_buffers_bytes / kPageBytes) / evicted_per_s;
  const double expire_s = NsToSec(limits_.expire_ns);
  if (!(expire_s > 0)) return 0;  // The OS writes every page at once.
  return OsHeldPages(tps) * std::clamp(1 - residence_s / expire_s, 0.0, 1.0);
}

double RunWrites::BackendWaitedWrites(double written) const {
  return limits_.limit_bytes > 0 ? 0 : std::min(written, host_.backend_writes);
}

bool RunWrites::InBackground(double database_bytes) const {
  const auto held = static_cast<double>(s_.postgres.shared_buffers_bytes + limits_.limit_bytes);
  return database_bytes <= held && !pgmodel::CommitsWriteToDataVolume(s_.postgres);
}

double RunWrites::FillRoomWrites() const {
  if (pgmodel::CommitsWriteToDataVolume(s_.postgres) || limits_.limit_bytes <= 0) return 0;
  return static_cast<double>(limits_.limit_bytes) / write_bytes_;
}

StatusOr<double> WrittenShareRoot(const std::function<StatusOr<double>(double w)>& excess) {
  auto all = excess(1);
  if (!all.ok()) return all.status();
  if (*all >= 0) return 1.0;
  auto none = excess(0);
  if (!none.ok()) return none.status();
  if (*none <= 0) return 0.0;
  RootStop stop;
  stop.f_abs = 1e-10;  // Of the writes: calibrate steps parameters by 1e-5.
  return FallingRoot(excess, 0, *none, 1, *all, stop);
}

double WalWriterWritesPerTransaction(const Scenario& s, double tps, double write_ms) {
  const bool absorbed = s.controller.EffectiveWriteBack() && s.disks.type != DiskType::kThrottled;
  if (s.postgres.synchronous_commit || !s.postgres.wal_on_data_volume || absorbed ||
      s.workload.type == WorkloadKind::kSelectOnly || !(tps > 0)) {
    return 0;
  }
  const double flushes_per_s =
      std::min(1 / NsToSec(s.postgres.wal_writer_delay_ns), 1000 / std::max(write_ms, 1e-6));
  return std::min(1.0, flushes_per_s / tps);
}

}  // namespace pgstorsim::storage_network
