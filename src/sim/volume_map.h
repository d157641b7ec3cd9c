// VolumeMap: where the database's files live on the simulated array. Relations are
// laid out in Relation order, each starting on a filesystem-block boundary and spread
// as the filesystem spreads its 1 GiB segment files (FileSpread: contiguous unless
// the scenario gives UFS cylinder groups), then the WAL (a circular region); page requests are
// turned into device requests by the shared FsMapping (fs block reads, whole-block writes with
// fragments only in small files' tails, partition offset). Units: bytes, 8 KiB blocks. Thread
// safety: immutable after Create().
#ifndef PGSTORSIM_SIM_VOLUME_MAP_H_
#define PGSTORSIM_SIM_VOLUME_MAP_H_

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "common/status.h"
#include "layout/fs_mapping.h"
#include "sim/controller.h"
#include "trace/trace_record.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace sim {

class VolumeMap {
 public:
  // `reserve_pages[r]` reserves room for relation r's growth (its file is at least that
  // many pages; writes beyond wrap); `wal_bytes` is the circular WAL region. Fails,
  // naming the sizes, if the files do not fit in `device_capacity_bytes`.
  static StatusOr<VolumeMap> Create(const DatabaseLayout& layout,
                                    const std::array<int64_t, kRelationCount>& reserve_pages,
                                    int64_t wal_bytes, const FsGeometry& fs,
                                    int64_t device_capacity_bytes);

  // The device request for one host I/O in the project's trace vocabulary: data
  // records name a relation file (Relation id) and a byte range in it, WAL records
  // (file kWalFileId) a byte range of the circular WAL region, fsync records a flush.
  // Data ranges past a file's end are clamped (history wraps in its region).
  VolumeOp Map(const TraceRecord& record) const;
  int64_t wal_bytes() const { return wal_bytes_; }
  int64_t data_bytes() const { return wal_start_bytes_; }
  nlohmann::json ToJson() const;

 private:
  VolumeMap(FsMapping fs) : fs_(fs) {}
  int64_t Clamp(uint32_t file, int64_t* block, int64_t pages) const;
  VolumeOp Data(IoOp op, uint32_t file, int64_t block, int64_t pages) const;

  FsMapping fs_;
  FileSpread spread_{FsGeometry(), 0};  // How the relations' bytes spread (fs_).
  std::array<int64_t, kRelationCount> start_bytes_{};
  std::array<int64_t, kRelationCount> pages_{};
  int64_t wal_start_bytes_ = 0;
  int64_t wal_bytes_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_VOLUME_MAP_H_
