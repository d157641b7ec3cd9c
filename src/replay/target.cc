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
#include "replay/signature.h"

namespace pgstorsim {
namespace {

std::string Errno() { return strerror(errno); }

// The same block device (device number) or the same file (device and inode).
bool SameTarget(const struct stat& a, const struct stat& b) {
  if (S_ISBLK(a.st_mode) || S_ISBLK(b.st_mode)) {
    return S_ISBLK(a.st_mode) && S_ISBLK(b.st_mode) && a.st_rdev == b.st_rdev;
  }
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
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

// Fills [from, to) of `path` with zeros, creating it (O_EXCL) when `create`. On failure
// (ENOSPC, EFBIG, ...) nothing is left behind: a file we created is removed, a file we
// extended is cut back to `from`.
Status CreateOrExtend(const std::string& path, int64_t from, int64_t to, bool create) {
  const int flags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
  const int fd = open(path.c_str(), flags, 0644);
  if (fd < 0)
    return Status::Error(path + ": cannot " + (create ? "create" : "open") + ": " + Errno());
  Status s = WriteZeros(fd, from, to, path);
  if (!s.ok()) {
    if (create) {
      unlink(path.c_str());
    } else if (ftruncate(fd, from) != 0) {
      s = Status::Error(s.message() + "; and cannot cut it back to " + FormatBytes(from));
    }
  }
  close(fd);
  return s;
}

bool AllowDestroyNames(const TargetPolicy& policy, const struct stat& st) {
  for (const std::string& a : policy.allow_destroy) {
    struct stat ast;
    if (stat(a.c_str(), &ast) == 0 && SameTarget(ast, st)) return true;
  }
  return false;
}

// The partition table / filesystem signature at either end of `path`, or "".
StatusOr<std::string> SignatureOf(const std::string& path, int64_t size_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error(path + ": cannot open: " + Errno());
  auto sig = ReadSignature(fd, size_bytes, path);
  close(fd);
  return sig;
}

Status RefuseSignature(const std::string& path, int64_t size_bytes, const TargetPolicy& policy) {
  auto sig = SignatureOf(path, size_bytes);
  if (!sig.ok()) return sig.status();
  if (!sig->empty() && !policy.force_signature) {
    return Status::Error(path + " holds a " + *sig +
                         "; refusing to overwrite it without --force-signature");
  }
  return Status::Ok();
}

// The marker names the file it marks: "<dev> <inode> <birth time ns>" (statx; birth
// time 0 where the filesystem keeps none), so a marker left beside a path whose file
// was removed never makes another file at that path ours, even one given the same inode
// later (a file given the same inode within the same timestamp tick cannot be told apart).
std::string FileIdentity(const std::string& path) {
  struct statx sx;
  if (statx(AT_FDCWD, path.c_str(), 0, STATX_INO | STATX_BTIME, &sx) != 0) return "";
  const int64_t born_ns =
      (sx.stx_mask & STATX_BTIME) != 0
          ? static_cast<int64_t>(sx.stx_btime.tv_sec) * kNsPerSec + sx.stx_btime.tv_nsec
          : 0;
  return std::to_string(makedev(sx.stx_dev_major, sx.stx_dev_minor)) + " " +
         std::to_string(sx.stx_ino) + " " + std::to_string(born_ns) + "\n";
}

Status WriteMarker(const std::string& path, const std::string& marker) {
  const std::string text = FileIdentity(path);
  if (text.empty()) return Status::Error(path + ": cannot stat: " + Errno());
  const int fd = open(marker.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return Status::Error(marker + ": cannot write: " + Errno());
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return written ? Status::Ok() : Status::Error(marker + ": cannot write: " + Errno());
}

// Why the file at `path` is not ours, for an error message.
std::string NotOursReason(const std::string& path) {
  const std::string marker = CreatedMarkerPath(path);
  if (access(marker.c_str(), F_OK) != 0) return "no " + marker;
  return marker +
         " names another file or none (left beside a removed file, or written "
         "before markers named their file; remove both to have the file made anew)";
}

// True when `marker` names the file at `path`.
bool MarkerNames(const std::string& marker, const std::string& path) {
  const int fd = open(marker.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[128] = {};
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  const std::string identity = FileIdentity(path);
  return n > 0 && !identity.empty() && std::string(buf, static_cast<size_t>(n)) == identity;
}

// An existing file is written only when nothing live uses it and, unless pgstorsim
// created it, --allow-destroy names it and it holds no signature (or --force-signature).
Status CheckWritableFile(const std::string& path, const struct stat& st, bool created_by_us,
                         const TargetPolicy& policy) {
  std::string why = PostgresFileReason(path);
  if (why.empty()) why = LoopBackingFileReason(st);
  if (!why.empty()) return Status::Error(path + ": refused: " + why);
  if (created_by_us) return Status::Ok();
  if (!AllowDestroyNames(policy, st)) {
    return Status::Error(path + ": the trace writes, and a file pgstorsim did not create (" +
                         NotOursReason(path) +
                         ") is only written when --allow-destroy names it (its contents are "
                         "destroyed); refused before any I/O");
  }
  return RefuseSignature(path, st.st_size, policy);
}

StatusOr<PreparedTarget> CreateFile(const std::string& path, int64_t required,
                                    const TargetPolicy& policy) {
  if (path.rfind("/dev/", 0) == 0) {
    return Status::Error(path +
                         " does not exist (a device path with a typo?); refusing to "
                         "create a regular file under /dev");
  }
  const std::string marker = CreatedMarkerPath(path);
  const int64_t size = std::max(required, policy.create_size_bytes);
  // The mark first (O_EXCL: no other run creates this path meanwhile); it names the file
  // once filled, so a file whose filling was cut short is nobody's and is never written.
  const int mfd = open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  const bool new_marker = mfd >= 0;
  if (mfd < 0 && errno != EEXIST) return Status::Error(marker + ": cannot create: " + Errno());
  if (new_marker) close(mfd);
  Status s = CreateOrExtend(path, 0, size, true);
  if (s.ok()) {
    s = WriteMarker(path, marker);
    if (!s.ok()) unlink(path.c_str());
  }
  if (!s.ok()) {
    if (new_marker) unlink(marker.c_str());
    return s;
  }
  return PreparedTarget{path, false, true, true, size};
}

StatusOr<PreparedTarget> PrepareRegularFile(const std::string& path, const struct stat* st,
                                            int64_t required, bool needs_write,
                                            const TargetPolicy& policy) {
  if (st == nullptr) return CreateFile(path, required, policy);
  PreparedTarget t{path, false, needs_write, false, 0};
  const std::string marker = CreatedMarkerPath(path);
  t.created_by_us = MarkerNames(marker, path);
  t.size_bytes = st->st_size;
  if (needs_write) {
    Status s = CheckWritableFile(path, *st, t.created_by_us, policy);
    if (!s.ok()) return s;
  }
  if (t.size_bytes >= required) return t;
  if (!t.created_by_us) {
    return Status::Error(path + " is " + FormatBytes(t.size_bytes) + " but the replay needs " +
                         FormatBytes(required) +
                         "; pgstorsim never resizes a file it did not create (" +
                         NotOursReason(path) + "): give a new path or a larger file");
  }
  Status s = CreateOrExtend(path, t.size_bytes, required, false);
  if (!s.ok()) return s;
  t.size_bytes = required;
  return t;
}

Status CheckWritableDevice(const std::string& path, const struct stat& st, int64_t size_bytes,
                           const TargetPolicy& policy) {
  if (!AllowDestroyNames(policy, st)) {
    return Status::Error(path +
                         ": the trace writes, and a block device is only opened "
                         "for writing when --allow-destroy names it (all data on it is "
                         "destroyed); refused before any I/O");
  }
  return RefuseSignature(path, size_bytes, policy);
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
    Status s = CheckWritableDevice(path, st, t.size_bytes, policy);
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
    auto t = PrepareRegularFile(path, nullptr, required_bytes, needs_write, policy);
    if (t.ok()) t.value().writable = needs_write;
    return t;
  }
  if (S_ISREG(st.st_mode)) {
    return PrepareRegularFile(path, &st, required_bytes, needs_write, policy);
  }
  if (S_ISBLK(st.st_mode)) {
    return PrepareBlockDevice(path, st, required_bytes, needs_write, policy);
  }
  return Status::Error(path + " is neither a regular file nor a block device");
}

Status CheckAllowDestroyNamesTargets(const std::vector<std::string>& targets,
                                     const TargetPolicy& policy) {
  for (const std::string& a : policy.allow_destroy) {
    struct stat ast;
    if (stat(a.c_str(), &ast) != 0) {
      return Status::Error("--allow-destroy " + a + ": " + Errno() +
                           " (it names an existing block device or file)");
    }
    if (!S_ISBLK(ast.st_mode) && !S_ISREG(ast.st_mode)) {
      return Status::Error("--allow-destroy " + a + ": neither a block device nor a file");
    }
    bool found = false;
    for (const std::string& t : targets) {
      struct stat tst;
      if (stat(t.c_str(), &tst) == 0) found |= SameTarget(ast, tst);
    }
    if (!found) {
      return Status::Error("--allow-destroy " + a +
                           " names a device or file that is not a replay target; refused");
    }
  }
  return Status::Ok();
}

}  // namespace pgstorsim
