// Partition table / filesystem / volume signatures at both ends of a device or file.
// Start: GPT, MBR, ext2/3/4, XFS, btrfs, LVM, swap, LUKS, NTFS, FAT, ISO 9660, UFS,
// md RAID 1.1/1.2, ZFS labels L0/L1. End: md RAID 0.90 and 1.0 superblocks, ZFS labels
// L2/L3. Pure functions over buffers, plus one that reads them from a descriptor.
// Thread safety: reentrant.
#ifndef PGSTORSIM_REPLAY_SIGNATURE_H_
#define PGSTORSIM_REPLAY_SIGNATURE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.h"

namespace pgstorsim {

// Bytes DetectSignature / DetectEndSignature need from each end.
constexpr size_t kSignatureHeadBytes = 512 * 1024;
constexpr size_t kSignatureTailBytes = 1024 * 1024;

// Names the signature found in the first `size` bytes of a device ("ext2/3/4
// filesystem", ...), or "" if none.
std::string DetectSignature(const uint8_t* data, size_t size);

// Names the signature found in `tail`, the last `tail_size` bytes of a device of
// `device_bytes` bytes (tail_size <= device_bytes), or "" if none.
std::string DetectEndSignature(const uint8_t* tail, size_t tail_size, int64_t device_bytes);

// Reads both ends of the open descriptor `fd` (`device_bytes` long) and names the first
// signature found, or "". `path` names the file in errors.
StatusOr<std::string> ReadSignature(int fd, int64_t device_bytes, const std::string& path);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_SIGNATURE_H_
