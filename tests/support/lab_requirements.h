// Test support for the `lab` label: what the emulated-storage lab needs from the
// machine. Tests call LabMissing() in SetUp and GTEST_SKIP() with its answer, so every
// lab test skips with the same clear message where the kernel or packages do not allow
// it. Header-only. Thread safety: stateless.
#ifndef PGSTORSIM_TESTS_SUPPORT_LAB_REQUIREMENTS_H_
#define PGSTORSIM_TESTS_SUPPORT_LAB_REQUIREMENTS_H_

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace pgstorsim {

inline constexpr const char* kLabBlkioRoot = "/sys/fs/cgroup/blkio";
inline constexpr const char* kLabMemoryLimit = "/sys/fs/cgroup/memory/memory.limit_in_bytes";
inline constexpr const char* kLabPgCtl = "/usr/lib/postgresql/15/bin/pg_ctl";
inline constexpr const char* kLabPython = "/usr/bin/python3";

// Empty when the lab can run: root, cgroup v1 blkio throttling, loop devices and every
// path in `also_needed`; else why not ("needs root", "no /dev/loop-control", ...).
inline std::string LabMissing(const std::vector<std::string>& also_needed = {}) {
  if (::geteuid() != 0) return "needs root";
  std::vector<std::string> paths = {std::string(kLabBlkioRoot) + "/blkio.throttle.read_iops_device",
                                    "/dev/loop-control"};
  paths.insert(paths.end(), also_needed.begin(), also_needed.end());
  for (const std::string& p : paths) {
    if (!std::filesystem::exists(p)) return "no " + p;
  }
  return "";
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_SUPPORT_LAB_REQUIREMENTS_H_
