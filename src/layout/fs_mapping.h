// FsMapping: the filesystem-block emulation shared by the replayer and the simulator.
// It turns an 8 KiB page access at a volume offset into the device-level request the
// filesystem issues.
//
// Assumptions (a deliberately simple model of UFS2/ext4-like filesystems):
//   - The filesystem starts `partition_offset_bytes` into the device (63 sectors =
//     32256 for an old MBR partition, 1 MiB for a modern aligned one).
//   - Files are laid out contiguously on the volume, each starting on a filesystem
//     block boundary counted from the partition start (NextFileStart: the one
//     placement rule of the replayer and the simulator); the caller passes the offset
//     inside the partition ("volume offset" = file start + offset in the file).
//     This is what a filesystem guarantees: UFS2, ext4 and XFS allocate whole blocks,
//     so a file's data starts on a block boundary of the partition, nothing coarser
//     (ext4's and XFS's stripe-aware allocation, set by mkfs from a software array's
//     geometry, is not modelled). The file's position in the partition then moves
//     every page by whole blocks: for random access only the partition offset and the
//     block size decide where pages fall in a stripe unit.
//   - A read fetches every whole filesystem block the page overlaps (the buffer cache
//     works in fs blocks), as one contiguous device request.
//   - A write rewrites whole filesystem blocks: the buffer cache holds the block,
//     so an 8 KiB page write into a 64 KiB UFS2 block is a read-modify-write whose
//     device write is the whole block. UFS2 uses fragments only for the last,
//     partial block of a small file (fewer than kDirectBlocks = 12 full blocks, the
//     inode's direct blocks); only the part of a write inside that tail is rounded to
//     fragments. A file of unknown size (FileExtent default) counts as large: a
//     PostgreSQL relation segment or WAL segment is far above 12 blocks. With
//     fragment_bytes == 0 a write is the page itself (a filesystem that writes
//     partial blocks); ext4 (4 KiB blocks = fragments) is unaffected either way.
//   - fs_block_bytes == 0 means no filesystem (raw device): requests pass through
//     unchanged apart from the partition offset.
// Units: bytes. Thread safety: immutable value, safe to share.
#ifndef PGSTORSIM_LAYOUT_FS_MAPPING_H_
#define PGSTORSIM_LAYOUT_FS_MAPPING_H_

#include <cstdint>

#include "common/status.h"

namespace pgstorsim {

struct FsGeometry {
  int64_t partition_offset_bytes = 0;  // Multiple of 512.
  int64_t fs_block_bytes = 0;          // 0 = raw; else a multiple of 512 (e.g. 65536).
  int64_t fragment_bytes = 0;          // 0 = write the page itself; else divides the block.
  // UFS's cylinder groups (FileSpread below): a group's data bytes (dumpfs bpg x bsize)
  // and the most of one file a group takes (maxbpg x bsize). 0 = files are contiguous
  // (ext4, XFS).
  int64_t group_bytes = 0;
  int64_t section_bytes = 0;  // <= group_bytes.
};

// How a filesystem spreads a file over the volume. UFS (ffs_blkpref) keeps a file's
// first section in its inode's cylinder group and puts each further section of
// section_bytes into the next group with average free space, so on a filesystem with
// room a large file takes section_bytes of every group_bytes: byte `offset` of the file
// lies at (offset / section) x group + offset % section from its start. A PostgreSQL
// relation is a chain of segment files (kRelationSegmentBytes), each spread as its own
// file and placed after the previous one's span; `segment_bytes` 0 = one file (an io
// workload's). A filesystem too full for that spreads less: with `data_bytes` to
// place in `room_bytes` (> 0) the groups hold sections room / data apart at most (UFS's
// "average free" rule spreads the data evenly once every group has taken some).
// Without groups (group_bytes 0) the offset is the file offset.
struct FileSpread {
  int64_t group_bytes = 0;
  int64_t section_bytes = 0;
  int64_t segment_bytes = 0;

  FileSpread(const FsGeometry& g, int64_t segment, int64_t data_bytes = 0, int64_t room_bytes = 0);
  // Bytes from the file's first byte to where byte `offset` lies. REQUIRES: offset >= 0.
  int64_t Offset(int64_t offset) const;
  // Volume bytes a file of `file_bytes` spans (its last section's end).
  int64_t SpanBytes(int64_t file_bytes) const;
};

// PostgreSQL's relation segment files (RELSEG_SIZE x BLCKSZ).
inline constexpr int64_t kRelationSegmentBytes = 1LL << 30;

// Where a file lies inside the partition: its first byte (a filesystem-block
// boundary) and its size. size_bytes < 0 = unknown: treated as a large file.
struct FileExtent {
  int64_t start_bytes = 0;
  int64_t size_bytes = -1;
};

// The granule files start on: the filesystem block, at least one 8 KiB page (a raw
// device, fs_block_bytes == 0, or blocks smaller than a page). Every page of a file
// then lies at a multiple of 8 KiB from a granule boundary.
int64_t FileGranuleBytes(const FsGeometry& geometry);
// Where a file placed after volume offset `end_bytes` starts: the next granule.
int64_t NextFileStart(int64_t end_bytes, const FsGeometry& geometry);
// The bytes a volume of `volume_bytes` leaves to data files, the room FileSpread spreads
// them over: less the partition offset and, for a database (wal_bytes > 0), its WAL
// region and two granules of slack (one after the last data file, one after the WAL).
int64_t RoomForDataBytes(int64_t volume_bytes, const FsGeometry& geometry, int64_t wal_bytes);

// UFS2's direct blocks: files with fewer full blocks may end in fragments.
inline constexpr int64_t kDirectBlocks = 12;

// A device-level request: offset from the start of the device.
struct DeviceRequest {
  int64_t offset_bytes = 0;
  int64_t length_bytes = 0;
};

class FsMapping {
 public:
  // Validates the geometry; errors name the offending field.
  static StatusOr<FsMapping> Create(const FsGeometry& geometry);

  const FsGeometry& geometry() const { return g_; }
  // REQUIRES: volume_offset_bytes >= 0, length_bytes > 0.
  DeviceRequest MapRead(int64_t volume_offset_bytes, int64_t length_bytes) const;
  // `file` locates the written range's file (for the small-file tail rule); the
  // range must lie inside it when its size is known.
  DeviceRequest MapWrite(int64_t volume_offset_bytes, int64_t length_bytes,
                         const FileExtent& file = FileExtent()) const;

 private:
  explicit FsMapping(const FsGeometry& g) : g_(g) {}
  DeviceRequest RoundOut(int64_t offset, int64_t length, int64_t granule) const;
  FsGeometry g_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_LAYOUT_FS_MAPPING_H_
