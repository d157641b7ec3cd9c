#include "replay/target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/units.h"

namespace pgstorsim {
namespace {

std::string Errno() { return strerror(errno); }

// The device number of a block device path (symlinks resolved), or 0.
dev_t BlockDeviceOf(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return 0;
  return st.st_rdev;
}

Status WriteZeros(int fd, int64_t from, int64_t to, const std::string& path) {
  std::vector<char> zeros(1 << 20, 0);
  for (int64_t pos = from; pos < to;) {
    const size_t n = static_cast<size_t>(std::min<int64_t>(to - pos, zeros.size()));
    const ssize_t w = pwrite(fd, zeros.data(), n, pos);
    if (w <= 0) return Status::Error(path + ": cannot fill with zeros: " + Errno());
    pos += w;
  }
  if (fdatasync(fd) != 0) return Status::Error(path + ": fdatasync: " + Errno());
  return Status::Ok();
}

Status CreateOrExtend(const std::string& path, int64_t from, int64_t to, bool create) {
  const int flags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
  const int fd = open(path.c_str(), flags, 0644);
  if (fd < 0)
    return Status::Error(path + ": cannot " + (create ? "create" : "open") + ": " + Errno());
  Status s = WriteZeros(fd, from, to, path);
  close(fd);
  return s;
}

StatusOr<PreparedTarget> PrepareRegularFile(const std::string& path, const struct stat* st,
                                            int64_t required, const TargetPolicy& policy) {
  PreparedTarget t{path, false, true, false, 0};
  const std::string marker = CreatedMarkerPath(path);
  if (st == nullptr) {
    if (path.rfind("/dev/", 0) == 0) {
      return Status::Error(path +
                           " does not exist (a device path with a typo?); refusing to "
                           "create a regular file under /dev");
    }
    const int64_t size = std::max(required, policy.create_size_bytes);
    // The mark first, so the file is ours even if filling it is cut short.
    const int mfd = open(marker.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (mfd < 0) return Status::Error(marker + ": cannot create: " + Errno());
    close(mfd);
    Status s = CreateOrExtend(path, 0, size, true);
    if (!s.ok()) return s;
    t.created_by_us = true;
    t.size_bytes = size;
    return t;
  }
  struct stat mst;
  t.created_by_us = stat(marker.c_str(), &mst) == 0;
  t.size_bytes = st->st_size;
  if (t.size_bytes >= required) return t;
  if (!t.created_by_us) {
    return Status::Error(path + " is " + FormatBytes(t.size_bytes) + " but the replay needs " +
                         FormatBytes(required) +
                         "; pgstorsim never resizes a file it did not create (no " + marker +
                         "): give a new path or a larger file");
  }
  Status s = CreateOrExtend(path, t.size_bytes, required, false);
  if (!s.ok()) return s;
  t.size_bytes = required;
  return t;
}

Status CheckWritableDevice(const std::string& path, const struct stat& st,
                           const TargetPolicy& policy) {
  bool named = false;
  for (const std::string& a : policy.allow_destroy) named |= BlockDeviceOf(a) == st.st_rdev;
  if (!named) {
    return Status::Error(path +
                         ": the trace writes, and a block device is only opened "
                         "for writing when --allow-destroy names it (all data on it is "
                         "destroyed); refused before any I/O");
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open: " + Errno());
  std::vector<uint8_t> head(128 * 1024, 0);
  const ssize_t n = pread(fd, head.data(), head.size(), 0);
  close(fd);
  if (n < 0) return Status::Error(path + ": cannot read its first sectors: " + Errno());
  const std::string sig = DetectSignature(head.data(), static_cast<size_t>(n));
  if (!sig.empty() && !policy.force_signature) {
    return Status::Error(path + " holds a " + sig +
                         "; refusing to overwrite it without --force-signature");
  }
  return Status::Ok();
}

StatusOr<PreparedTarget> PrepareBlockDevice(const std::string& path, const struct stat& st,
                                            int64_t required, bool needs_write,
                                            const TargetPolicy& policy) {
  PreparedTarget t{path, true, false, false, 0};
  const std::string why = DeviceInUseReason(major(st.st_rdev), minor(st.st_rdev));
  if (!why.empty()) return Status::Error(path + ": refused: " + why);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open: " + Errno());
  uint64_t size = 0;
  const int rc = ioctl(fd, BLKGETSIZE64, &size);
  close(fd);
  if (rc != 0) return Status::Error(path + ": cannot get the device size: " + Errno());
  t.size_bytes = static_cast<int64_t>(size);
  if (t.size_bytes < required) {
    return Status::Error(path + " is " + FormatBytes(t.size_bytes) + " but the replay needs " +
                         FormatBytes(required));
  }
  if (needs_write) {
    Status s = CheckWritableDevice(path, st, policy);
    if (!s.ok()) return s;
    t.writable = true;
  }
  return t;
}

}  // namespace

std::string CreatedMarkerPath(const std::string& path) { return path + ".pgstorsim-created"; }

StatusOr<PreparedTarget> PrepareTarget(const std::string& path, int64_t required_bytes,
                                       bool needs_write, const TargetPolicy& policy) {
  if (path.empty()) return Status::Error("empty target path");
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) return Status::Error(path + ": " + Errno());
    auto t = PrepareRegularFile(path, nullptr, required_bytes, policy);
    if (t.ok()) t.value().writable = needs_write;
    return t;
  }
  if (S_ISREG(st.st_mode)) {
    auto t = PrepareRegularFile(path, &st, required_bytes, policy);
    if (t.ok()) t.value().writable = needs_write;
    return t;
  }
  if (S_ISBLK(st.st_mode)) {
    return PrepareBlockDevice(path, st, required_bytes, needs_write, policy);
  }
  return Status::Error(path + " is neither a regular file nor a block device");
}

Status CheckAllowDestroyNamesTargets(const std::vector<std::string>& targets,
                                     const TargetPolicy& policy) {
  for (const std::string& a : policy.allow_destroy) {
    const dev_t dev = BlockDeviceOf(a);
    if (dev == 0) return Status::Error("--allow-destroy " + a + ": not a block device");
    bool found = false;
    for (const std::string& t : targets) found |= BlockDeviceOf(t) == dev;
    if (!found) {
      return Status::Error("--allow-destroy " + a +
                           " names a device that is not a replay target; refused");
    }
  }
  return Status::Ok();
}

}  // namespace pgstorsim
