// Replay targets and the safety rules that keep the replayer from destroying data by
// accident. Every path the replayer will open goes through PrepareTarget() first.
//
// Regular files:
//   - missing: created (O_EXCL) at max(required, create_size) bytes, filled with zeros
//     so reads hit the device, and marked as ours with a sidecar "<path>.pgstorsim-created"
//     written before the data (never under /dev/: a missing device path is an error);
//   - existing and marked: may be extended (never shrunk);
//   - existing and not marked: used as is, never truncated, shrunk or extended; too
//     small -> refused.
// Block devices (symlinks resolved):
//   - opened read-only unless --allow-destroy names the same device (st_rdev);
//   - a trace with writes on a read-only device is refused before any I/O;
//   - a mounted device (itself or a partition of it, /proc/self/mountinfo) or one with
//     holders (/sys/dev/block/M:m/holders: LVM, md, dm) is always refused;
//   - a writable device holding a partition table or filesystem signature is refused
//     unless force_signature is also set.
// Thread safety: functions are reentrant; nothing is cached.
#ifndef PGSTORSIM_REPLAY_TARGET_H_
#define PGSTORSIM_REPLAY_TARGET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

struct TargetPolicy {
  std::vector<std::string> allow_destroy;  // Devices named by --allow-destroy.
  bool force_signature = false;
  int64_t create_size_bytes = 0;  // 0: create at the required size.
};

struct PreparedTarget {
  std::string path;
  bool block_device = false;
  bool writable = false;
  bool created_by_us = false;
  int64_t size_bytes = 0;
};

// Applies the rules above for one target that must provide `required_bytes` and will
// be written iff `needs_write`. May create or extend a regular file we own; never
// writes to a block device.
StatusOr<PreparedTarget> PrepareTarget(const std::string& path, int64_t required_bytes,
                                       bool needs_write, const TargetPolicy& policy);

// Every --allow-destroy entry must resolve to one of the block-device targets, so a
// typo or a different device is refused instead of silently ignored.
Status CheckAllowDestroyNamesTargets(const std::vector<std::string>& targets,
                                     const TargetPolicy& policy);

// Names the partition table / filesystem / volume signature found in the first bytes
// of a device ("ext2/3/4", "MBR partition table", ...), or "" if none. `data` holds the
// first `size` bytes (128 KiB suffices).
std::string DetectSignature(const uint8_t* data, size_t size);

// "" if the block device (major:minor) and its partitions are neither mounted nor held
// by another device; else why not.
std::string DeviceInUseReason(unsigned major_id, unsigned minor_id);

// The sidecar that marks a regular file as created by pgstorsim.
std::string CreatedMarkerPath(const std::string& path);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_TARGET_H_
