#include "sim/volume_map.h"

#include <algorithm>
#include <string>

#include "common/units.h"

namespace pgstorsim {
namespace sim {
namespace {

int64_t RoundUp(int64_t value, int64_t granule) {
  return (value + granule - 1) / granule * granule;
}

}  // namespace

StatusOr<VolumeMap> VolumeMap::Create(const DatabaseLayout& layout,
                                      const std::array<int64_t, kRelationCount>& reserve_pages,
                                      int64_t wal_bytes, const FsGeometry& fs,
                                      int64_t device_capacity_bytes) {
  StatusOr<FsMapping> mapping = FsMapping::Create(fs);
  if (!mapping.ok()) return mapping.status().WithContext("filesystem");
  VolumeMap map(*mapping);
  map.wal_bytes_ = RoundUp(std::max(wal_bytes, 2 * kPageBytes), kPageBytes);
  int64_t data_bytes = 0;
  for (int r = 0; r < kRelationCount; ++r) {
    data_bytes += std::max<int64_t>({layout.pages(static_cast<Relation>(r)), reserve_pages[r], 1}) *
                  kPageBytes;
  }
  map.spread_ = FileSpread(fs, kRelationSegmentBytes, data_bytes,
                           RoomForDataBytes(device_capacity_bytes, fs, map.wal_bytes_));
  int64_t next = 0;
  for (int r = 0; r < kRelationCount; ++r) {
    const Relation rel = static_cast<Relation>(r);
    const int64_t pages = std::max<int64_t>({layout.pages(rel), reserve_pages[r], 1});
    map.start_bytes_[r] = next;
    map.pages_[r] = pages;
    next = NextFileStart(next + map.spread_.SpanBytes(pages * kPageBytes), fs);
  }
  map.wal_start_bytes_ = next;
  // Room for the WAL and one more block of slack.
  const int64_t needed = fs.partition_offset_bytes + next + map.wal_bytes_ + FileGranuleBytes(fs);
  if (needed > device_capacity_bytes) {
    return Status::Error("database and WAL (" + FormatBytes(needed) + ") do not fit the array (" +
                         FormatBytes(device_capacity_bytes) +
                         "): lower workload.scale or add disks");
  }
  return map;
}

int64_t VolumeMap::Clamp(uint32_t file, int64_t* block, int64_t pages) const {
  const int64_t size = pages_[file];
  *block = ((*block % size) + size) % size;
  return std::max<int64_t>(1, std::min(pages, size - *block));
}

VolumeOp VolumeMap::Data(IoOp op, uint32_t file, int64_t block, int64_t pages) const {
  const int64_t n = Clamp(file, &block, pages);
  const int64_t offset = start_bytes_[file] + spread_.Offset(block * kPageBytes);
  const FileExtent extent{start_bytes_[file], pages_[file] * kPageBytes};
  const DeviceRequest d = op == IoOp::kRead ? fs_.MapRead(offset, n * kPageBytes)
                                            : fs_.MapWrite(offset, n * kPageBytes, extent);
  return {op, d.offset_bytes, d.length_bytes};
}

VolumeOp VolumeMap::Map(const TraceRecord& r) const {
  if (r.op == IoOp::kFsync) return {IoOp::kFsync, 0, 0};
  if (r.file == kWalFileId) {
    // WAL segments (16 MiB) are large files: whole filesystem blocks.
    const DeviceRequest d = fs_.MapWrite(wal_start_bytes_ + r.offset_bytes, r.length_bytes);
    return {r.op, d.offset_bytes, d.length_bytes};
  }
  const uint32_t file = std::min<uint32_t>(r.file, kRelationCount - 1);
  const int64_t pages = std::max<int64_t>(1, (r.length_bytes + kPageBytes - 1) / kPageBytes);
  return Data(r.op, file, r.offset_bytes / kPageBytes, pages);
}

nlohmann::json VolumeMap::ToJson() const {
  nlohmann::json files = nlohmann::json::array();
  for (int r = 0; r < kRelationCount; ++r) {
    files.push_back({{"name", RelationName(static_cast<Relation>(r))},
                     {"start_bytes", start_bytes_[r]},
                     {"pages", pages_[r]}});
  }
  files.push_back({{"name", "wal"}, {"start_bytes", wal_start_bytes_}, {"bytes", wal_bytes_}});
  return files;
}

}  // namespace sim
}  // namespace pgstorsim
