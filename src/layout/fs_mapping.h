// FsMapping: the filesystem-block emulation shared by the replayer and the simulator.
// It turns an 8 KiB page access at a volume offset into the device-level request the
// filesystem issues.
//
// Assumptions (a deliberately simple model of UFS2/ext4-like filesystems):
//   - The filesystem starts `partition_offset_bytes` into the device (63 sectors =
//     32256 for an old MBR partition, 1 MiB for a modern aligned one).
//   - Files are laid out contiguously on the volume, each starting on a filesystem
//     block boundary counted from the partition start; the caller passes the offset
//     inside the partition ("volume offset" = file start + offset in the file).
//   - A read fetches every whole filesystem block the page overlaps (the buffer cache
//     works in fs blocks), as one contiguous device request.
//   - A write writes the page rounded out to fragments (UFS2 fragment, or the page
//     itself when fragment_bytes is 0): no read-modify-write of the block.
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
};

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
  DeviceRequest MapWrite(int64_t volume_offset_bytes, int64_t length_bytes) const;

 private:
  explicit FsMapping(const FsGeometry& g) : g_(g) {}
  DeviceRequest RoundOut(int64_t offset, int64_t length, int64_t granule) const;
  FsGeometry g_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_LAYOUT_FS_MAPPING_H_
