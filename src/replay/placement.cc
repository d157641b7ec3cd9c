#include "replay/placement.h"

#include <algorithm>
#include <string>

namespace pgstorsim {
Placement PlaceFiles(const TraceHeader& header, bool separate_wal_volume, const FsGeometry& fs) {
  Placement p;
  uint32_t max_id = 0;
  for (const TraceFile& f : header.files) max_id = std::max(max_id, f.id);
  p.files.resize(header.files.empty() ? 0 : max_id + 1);
  // A pattern trace's file is one file; a PostgreSQL trace's relations are segmented.
  const bool pattern = header.meta.contains("pattern");
  const FileSpread spread(fs, pattern ? 0 : kRelationSegmentBytes);
  int64_t data_end = 0;
  for (const TraceFile& f : header.files) {
    if (f.stream != IoStream::kData) continue;
    p.files[f.id] = {true, VolumeId::kData, data_end, f.size_bytes, spread};
    data_end = NextFileStart(data_end + spread.SpanBytes(f.size_bytes), fs);
  }
  int64_t wal_end = separate_wal_volume ? 0 : data_end;
  for (const TraceFile& f : header.files) {
    if (f.stream != IoStream::kWal) continue;
    const VolumeId v = separate_wal_volume ? VolumeId::kWal : VolumeId::kData;
    p.files[f.id] = {true, v, wal_end, f.size_bytes};
    wal_end = NextFileStart(wal_end + f.size_bytes, fs);
  }
  if (separate_wal_volume) {
    p.data_volume_bytes = data_end;
    p.wal_volume_bytes = wal_end;
  } else {
    p.data_volume_bytes = wal_end;
  }
  return p;
}

StatusOr<TraceCheck> CheckRecords(const std::vector<TraceRecord>& records,
                                  const Placement& placement) {
  TraceCheck check;
  for (size_t i = 0; i < records.size(); ++i) {
    const TraceRecord& r = records[i];
    const std::string where = "trace record " + std::to_string(i);
    if (r.file >= placement.files.size() || !placement.files[r.file].present) {
      return Status::Error(where + ": file id " + std::to_string(r.file) +
                           " is not in the trace's file table");
    }
    const FilePlacement& f = placement.files[r.file];
    if (r.op != IoOp::kFsync) {
      if (r.length_bytes <= 0 || r.offset_bytes < 0 || r.length_bytes > f.size_bytes ||
          r.offset_bytes > f.size_bytes - r.length_bytes) {
        return Status::Error(where + ": range [" + std::to_string(r.offset_bytes) + ", +" +
                             std::to_string(r.length_bytes) + ") is outside file " +
                             std::to_string(r.file) + " of " + std::to_string(f.size_bytes) +
                             " bytes");
      }
      if (r.offset_bytes % 512 != 0 || r.length_bytes % 512 != 0) {
        return Status::Error(where + ": offset and length must be multiples of 512 bytes");
      }
      check.max_length_bytes =
          std::max<uint64_t>(check.max_length_bytes, static_cast<uint64_t>(r.length_bytes));
    }
    if (r.op == IoOp::kWrite) {
      ++(f.volume == VolumeId::kData ? check.data_volume_writes : check.wal_volume_writes);
    }
    ++check.records;
  }
  return check;
}

}  // namespace pgstorsim
