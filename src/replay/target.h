// Replay targets and the safety rules that keep the replayer from destroying data by
// accident. Every path the replayer will open goes through PrepareTarget() first.
//
// Regular files:
//   - missing: created (O_EXCL) at max(required, create_size) bytes, filled with zeros
//     so reads hit the device, and marked as ours with a sidecar "<path>.pgstorsim-created"
//     created before the data and naming the file (device and inode) once it exists
//     (never under /dev/: a missing device path is an error); a marker that names
//     another file (or none) marks nothing;
//     if filling fails (ENOSPC, ...) the file and its mark are removed;
//   - existing and marked: may be extended (never shrunk);
//   - existing and not marked: never truncated, shrunk or extended (too small ->
//     refused); read freely, but written only when --allow-destroy names it (same file:
//     device and inode) and it holds no signature at either end (or --force-signature);
//   - existing and written, marked or not: refused when it lies in a PostgreSQL data
//     directory (PG_VERSION in a parent), looks like a relation file of a tablespace, or
//     backs an attached loop device (/sys/block/loop*/loop/backing_file).
// Block devices (symlinks resolved):
//   - opened read-only unless --allow-destroy names the same device (st_rdev);
//   - a trace with writes on a read-only device is refused before any I/O;
//   - a mounted device (itself or a partition of it, /proc/self/mountinfo) or one with
//     holders (/sys/dev/block/M:m/holders: LVM, md, dm) is always refused;
//   - a writable device holding a partition table or filesystem signature at either
//     end (signature.h) is refused unless force_signature is also set.
// Thread safety: functions are reentrant; nothing is cached.
#ifndef PGSTORSIM_REPLAY_TARGET_H_
#define PGSTORSIM_REPLAY_TARGET_H_

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

struct TargetPolicy {
  std::vector<std::string> allow_destroy;  // Devices and files named by --allow-destroy.
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

// Every --allow-destroy entry must resolve to one of the targets (a block device, or an
// existing file), so a typo or a different device is refused instead of silently ignored.
Status CheckAllowDestroyNamesTargets(const std::vector<std::string>& targets,
                                     const TargetPolicy& policy);

// "" if the block device (major:minor) and its partitions are neither mounted nor held
// by another device; else why not.
std::string DeviceInUseReason(unsigned major_id, unsigned minor_id);

// "" unless the file at `path` belongs to PostgreSQL (see above); else why.
std::string PostgresFileReason(const std::string& path);

// "" unless the file (`st` from stat) backs an attached loop device; else which one.
std::string LoopBackingFileReason(const struct stat& st);

// The sidecar that marks a regular file as created by pgstorsim.
std::string CreatedMarkerPath(const std::string& path);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_TARGET_H_
