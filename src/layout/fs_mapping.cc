#include "layout/fs_mapping.h"

#include <algorithm>
#include <string>

#include "common/units.h"

namespace pgstorsim {

StatusOr<FsMapping> FsMapping::Create(const FsGeometry& g) {
  if (g.partition_offset_bytes < 0 || g.partition_offset_bytes % 512 != 0) {
    return Status::Error("partition offset " + std::to_string(g.partition_offset_bytes) +
                         " bytes is not a non-negative multiple of 512");
  }
  if (g.fs_block_bytes < 0 || g.fs_block_bytes % 512 != 0) {
    return Status::Error("filesystem block " + std::to_string(g.fs_block_bytes) +
                         " bytes is not a multiple of 512");
  }
  if (g.group_bytes < 0 || g.section_bytes < 0 || g.section_bytes > g.group_bytes ||
      (g.section_bytes > 0 && g.fs_block_bytes > 0 && g.section_bytes % g.fs_block_bytes != 0)) {
    return Status::Error("cylinder group of " + std::to_string(g.group_bytes) +
                         " bytes with sections of " + std::to_string(g.section_bytes) +
                         ": sections must be whole blocks, at most a group");
  }
  if (g.fragment_bytes < 0 || g.fragment_bytes % 512 != 0 ||
      (g.fragment_bytes > 0 &&
       (g.fs_block_bytes == 0 || g.fs_block_bytes % g.fragment_bytes != 0))) {
    return Status::Error("fragment " + std::to_string(g.fragment_bytes) +
                         " bytes must be a multiple of 512 dividing the filesystem block");
  }
  return FsMapping(g);
}

namespace {

// One file's spread (no segments).
int64_t OneFileOffset(int64_t offset, int64_t section, int64_t group) {
  if (section <= 0) return offset;
  return offset / section * group + offset % section;
}

int64_t OneFileSpan(int64_t bytes, int64_t section, int64_t group) {
  if (section <= 0 || bytes <= 0) return std::max<int64_t>(0, bytes);
  const int64_t full = (bytes - 1) / section;  // Sections before the last.
  return full * group + (bytes - full * section);
}

}  // namespace

FileSpread::FileSpread(const FsGeometry& g, int64_t segment, int64_t data_bytes, int64_t room_bytes)
    : segment_bytes(segment) {
  if (g.group_bytes <= 0 || g.section_bytes <= 0 || g.section_bytes >= g.group_bytes) return;
  int64_t group = g.group_bytes;
  if (data_bytes > 0 && room_bytes > 0) {
    const double fits = static_cast<double>(g.section_bytes) * room_bytes / data_bytes;
    const int64_t block = std::max<int64_t>(1, g.fs_block_bytes);
    group = std::min(group, static_cast<int64_t>(fits) / block * block);
  }
  if (group <= g.section_bytes) return;  // No room to spread.
  group_bytes = group;
  section_bytes = g.section_bytes;
}

int64_t FileSpread::Offset(int64_t offset) const {
  if (section_bytes <= 0) return offset;
  if (segment_bytes <= 0) return OneFileOffset(offset, section_bytes, group_bytes);
  const int64_t segment_span = OneFileSpan(segment_bytes, section_bytes, group_bytes);
  return offset / segment_bytes * segment_span +
         OneFileOffset(offset % segment_bytes, section_bytes, group_bytes);
}

int64_t FileSpread::SpanBytes(int64_t file_bytes) const {
  if (section_bytes <= 0 || file_bytes <= 0) return std::max<int64_t>(0, file_bytes);
  if (segment_bytes <= 0) return OneFileSpan(file_bytes, section_bytes, group_bytes);
  const int64_t segments = (file_bytes - 1) / segment_bytes;  // Full ones before the last.
  return segments * OneFileSpan(segment_bytes, section_bytes, group_bytes) +
         OneFileSpan(file_bytes - segments * segment_bytes, section_bytes, group_bytes);
}

int64_t FileGranuleBytes(const FsGeometry& g) {
  return std::max<int64_t>(g.fs_block_bytes, kPageBytes);
}

int64_t NextFileStart(int64_t end_bytes, const FsGeometry& g) {
  const int64_t granule = FileGranuleBytes(g);
  return (end_bytes + granule - 1) / granule * granule;
}

int64_t RoomForDataBytes(int64_t volume_bytes, const FsGeometry& g, int64_t wal_bytes) {
  const int64_t wal = wal_bytes > 0 ? wal_bytes + 2 * FileGranuleBytes(g) : 0;
  return volume_bytes - g.partition_offset_bytes - wal;
}

DeviceRequest FsMapping::RoundOut(int64_t offset, int64_t length, int64_t granule) const {
  if (granule <= 0) return {g_.partition_offset_bytes + offset, length};
  const int64_t start = offset / granule * granule;
  const int64_t end = (offset + length + granule - 1) / granule * granule;
  return {g_.partition_offset_bytes + start, end - start};
}

DeviceRequest FsMapping::MapRead(int64_t volume_offset_bytes, int64_t length_bytes) const {
  return RoundOut(volume_offset_bytes, length_bytes, g_.fs_block_bytes);
}

DeviceRequest FsMapping::MapWrite(int64_t volume_offset_bytes, int64_t length_bytes,
                                  const FileExtent& file) const {
  const int64_t block = g_.fs_block_bytes;
  if (g_.fragment_bytes <= 0 || block <= 0) {
    return RoundOut(volume_offset_bytes, length_bytes, g_.fragment_bytes);
  }
  const int64_t full_blocks = file.size_bytes < 0 ? kDirectBlocks : file.size_bytes / block;
  const int64_t tail_start = file.start_bytes + full_blocks * block;
  if (full_blocks >= kDirectBlocks || file.size_bytes % block == 0 ||
      volume_offset_bytes + length_bytes <= tail_start) {
    return RoundOut(volume_offset_bytes, length_bytes, block);  // Whole blocks.
  }
  // The write reaches the fragment-allocated tail: blocks before it, fragments in it.
  const DeviceRequest tail =
      RoundOut(std::max(volume_offset_bytes, tail_start),
               volume_offset_bytes + length_bytes - std::max(volume_offset_bytes, tail_start),
               g_.fragment_bytes);
  if (volume_offset_bytes >= tail_start) return tail;
  const DeviceRequest head = RoundOut(volume_offset_bytes, tail_start - volume_offset_bytes, block);
  return {head.offset_bytes, tail.offset_bytes + tail.length_bytes - head.offset_bytes};
}

}  // namespace pgstorsim
