// Placement: where each file of a trace's file table lives on the replay volumes, and
// the up-front validation of a trace against it (done before any I/O).
//
// Data files are laid out in file-table order, each starting where
// layout/fs_mapping.h's NextFileStart puts it (the next filesystem block of the
// emulated filesystem, as the simulator places relations) and spread as the
// filesystem spreads it (FileSpread: a PostgreSQL trace's relations as chains of 1 GiB
// segment files, a pattern trace's file as one file; contiguous unless the geometry
// has cylinder groups); WAL files (stream "wal") likewise on the WAL volume when one is
// given, else after the data files on the data volume.
// Thread safety: plain values.
#ifndef PGSTORSIM_REPLAY_PLACEMENT_H_
#define PGSTORSIM_REPLAY_PLACEMENT_H_

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "layout/fs_mapping.h"
#include "trace/trace_io.h"
#include "trace/trace_record.h"

namespace pgstorsim {

enum class VolumeId : uint8_t { kData = 0, kWal = 1 };

struct FilePlacement {
  bool present = false;  // False for ids missing from the file table.
  VolumeId volume = VolumeId::kData;
  int64_t base_bytes = 0;  // Offset of the file's first byte in the volume.
  int64_t size_bytes = 0;
  FileSpread spread{FsGeometry(), 0};  // Where byte k of the file lies: base + Offset(k).
  int64_t VolumeOffset(int64_t file_offset) const {
    return base_bytes + spread.Offset(file_offset);
  }
};

struct Placement {
  std::vector<FilePlacement> files;  // Indexed by TraceFile::id.
  int64_t data_volume_bytes = 0;     // Bytes of files on each volume.
  int64_t wal_volume_bytes = 0;
};

Placement PlaceFiles(const TraceHeader& header, bool separate_wal_volume, const FsGeometry& fs);

// What a trace does, per volume, checked against the placement.
struct TraceCheck {
  uint64_t records = 0;
  uint64_t data_volume_writes = 0;  // Writes landing on the data volume.
  uint64_t wal_volume_writes = 0;
  uint64_t max_length_bytes = 0;
};

// Refuses (naming the record index) a record whose file is not in the table, whose
// range leaves the file, whose length is not positive for a read/write, or whose
// offset/length is not a multiple of 512.
StatusOr<TraceCheck> CheckRecords(const std::vector<TraceRecord>& records,
                                  const Placement& placement);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_PLACEMENT_H_
