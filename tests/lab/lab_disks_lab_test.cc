// scripts/lab/lab-disks.sh on this machine: one throttled loop device, an O_DIRECT
// loop from this process inside the lab cgroup achieves about the IOPS cap (a
// functional check of the throttle, generous bounds), far more outside it, and
// `down` / `run` leave nothing behind. Skips when not root or without cgroup v1 blkio
// throttling or loop devices.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/random.h"
#include "support/lab_requirements.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

constexpr const char* kBlkioRoot = kLabBlkioRoot;
constexpr int kIopsCap = 200;

std::string Script() { return std::string(PGSTORSIM_SOURCE_DIR) + "/scripts/lab/lab-disks.sh"; }

using Outcome = ShellResult;

class LabDisks : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = LabMissing();
    if (!missing.empty()) GTEST_SKIP() << "lab: skipped: " << missing;
    name_ = "pgstorsim-lab-test-" + std::to_string(::getpid());
    // Images on tmpfs when there is one, so the backing disk's speed (writes allocate
    // blocks of the sparse image) cannot pull the achieved rate below the cap.
    state_ = (std::filesystem::is_directory("/dev/shm") ? "/dev/shm/" : "/tmp/") + name_;
  }
  void TearDown() override {
    if (name_.empty()) return;
    LeaveCgroup();
    Lab("down");
  }

  Outcome Lab(const std::string& args) {
    return RunShell("PGSTORSIM_LAB_NAME=" + name_ + " PGSTORSIM_LAB_STATE=" + state_ + " " +
                    Script() + " " + args);
  }

  std::string Cgroup() const { return std::string(kBlkioRoot) + "/" + name_; }

  bool JoinCgroup(const std::string& dir) {
    std::ofstream procs(dir + "/cgroup.procs");
    procs << ::getpid() << std::endl;
    return static_cast<bool>(procs);
  }
  void LeaveCgroup() { JoinCgroup(kBlkioRoot); }

  std::string FirstDevice() {
    std::ifstream env(state_ + "/disks.env");
    std::string line;
    while (std::getline(env, line)) {
      if (line.rfind("LAB_DISKS=\"", 0) == 0) {
        std::string list = line.substr(11, line.size() - 12);
        return list.substr(0, list.find(' '));
      }
    }
    return "";
  }

  // Random 8 KiB O_DIRECT reads (or writes) for `seconds`; returns achieved IOPS.
  // Writes go to the first half of the 64 MiB disk and reads to the second half, which
  // stays a hole in the sparse image: the backing disk's own speed never limits reads.
  double DirectIops(const std::string& device, bool write, double seconds) {
    int fd = ::open(device.c_str(), (write ? O_WRONLY : O_RDONLY) | O_DIRECT);
    if (fd < 0) return -1;
    void* buf = nullptr;
    if (::posix_memalign(&buf, 4096, 8192) != 0) return -1;
    std::memset(buf, 0x5a, 8192);
    Random rng(42);
    const int64_t half_pages = (32 << 20) / 8192;
    const int64_t first_page = write ? 0 : half_pages;
    auto start = std::chrono::steady_clock::now();
    std::chrono::duration<double> elapsed{};
    int64_t done = 0;
    while (elapsed.count() < seconds) {
      off_t offset = (first_page + rng.UniformInt(0, half_pages - 1)) * 8192;
      ssize_t n = write ? ::pwrite(fd, buf, 8192, offset) : ::pread(fd, buf, 8192, offset);
      if (n != 8192) break;
      ++done;
      elapsed = std::chrono::steady_clock::now() - start;
    }
    ::close(fd);
    std::free(buf);
    return done / elapsed.count();
  }

  std::string name_, state_;
};

TEST_F(LabDisks, ThrottleHoldsTheIopsCap) {
  Outcome up = Lab("up 1 64M " + std::to_string(kIopsCap) + " 50");
  if (up.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << up.output;
  ASSERT_EQ(up.exit_code, 0) << up.output;
  std::string device = FirstDevice();
  ASSERT_EQ(device.rfind("/dev/loop", 0), 0u) << "no device in disks.env: " << up.output;

  ASSERT_TRUE(JoinCgroup(Cgroup()));
  double read_iops = DirectIops(device, /*write=*/false, 2.0);
  double write_iops = DirectIops(device, /*write=*/true, 2.0);
  LeaveCgroup();
  double free_iops = DirectIops(device, /*write=*/false, 0.5);

  EXPECT_GT(read_iops, kIopsCap * 0.7);
  EXPECT_LT(read_iops, kIopsCap * 1.2);
  EXPECT_GT(write_iops, kIopsCap * 0.7);
  EXPECT_LT(write_iops, kIopsCap * 1.2);
  EXPECT_GT(free_iops, kIopsCap * 1.5) << "outside the cgroup the device should be faster";
  std::printf("lab: cap %d IOPS: in cgroup read %.1f, write %.1f; outside %.1f IOPS\n", kIopsCap,
              read_iops, write_iops, free_iops);

  Outcome down = Lab("down");
  EXPECT_EQ(down.exit_code, 0) << down.output;
  EXPECT_FALSE(std::filesystem::exists(Cgroup()));
  EXPECT_FALSE(std::filesystem::exists(state_));
  EXPECT_FALSE(std::filesystem::exists("/sys/class/block/" + device.substr(5) + "/loop"));
}

TEST_F(LabDisks, RunPutsTheCommandInTheCgroupAndAlwaysTearsDown) {
  Outcome run = Lab("run 1 16M 100 10 -- sh -c 'grep blkio /proc/self/cgroup; exit 3'");
  if (run.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << run.output;
  EXPECT_EQ(run.exit_code, 3) << run.output;  // The command's exit code is passed on.
  EXPECT_NE(run.output.find(":blkio:/" + name_), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(Cgroup()));
  EXPECT_FALSE(std::filesystem::exists(state_));
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text;
}

TEST_F(LabDisks, SetLimitsChangesTheThrottleAndDisksEnvAndDisksHaveNoWriteCache) {
  Outcome up = Lab("up 2 16M 20000 400");
  if (up.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << up.output;
  ASSERT_EQ(up.exit_code, 0) << up.output;
  std::string device = FirstDevice();
  ASSERT_EQ(device.rfind("/dev/loop", 0), 0u) << up.output;
  const std::string sys = "/sys/class/block/" + device.substr(5);
  // No volatile cache: fsync sends no flush, which blkio would count as a write.
  EXPECT_EQ(Slurp(sys + "/queue/write_cache"), "write through\n");
  std::string majmin = Slurp(sys + "/dev");
  majmin = majmin.substr(0, majmin.find('\n'));

  Outcome set = Lab("set-limits 300 12");
  ASSERT_EQ(set.exit_code, 0) << set.output;
  EXPECT_NE(Slurp(Cgroup() + "/blkio.throttle.read_iops_device").find(majmin + " 300"),
            std::string::npos);
  EXPECT_NE(Slurp(Cgroup() + "/blkio.throttle.write_iops_device").find(majmin + " 300"),
            std::string::npos);
  EXPECT_NE(Slurp(Cgroup() + "/blkio.throttle.write_bps_device")
                .find(majmin + " " + std::to_string(12 << 20)),
            std::string::npos);
  const std::string env = Slurp(state_ + "/disks.env");
  EXPECT_NE(env.find("LAB_IOPS=300\n"), std::string::npos) << env;
  EXPECT_NE(env.find("LAB_MBPS=12\n"), std::string::npos) << env;

  Outcome bad = Lab("set-limits 0 12");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("IOPS must be a positive integer"), std::string::npos) << bad.output;
  EXPECT_EQ(Lab("down").exit_code, 0);
  Outcome after = Lab("set-limits 300 12");
  EXPECT_NE(after.exit_code, 0);
  EXPECT_NE(after.output.find("not up"), std::string::npos) << after.output;
}

TEST_F(LabDisks, BadArgumentsFailWithoutLeavingState) {
  Outcome bad = Lab("up 1 64M fast 50");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("IOPS must be a positive integer"), std::string::npos) << bad.output;
  Outcome size = Lab("up 1 12X 100 50");
  EXPECT_NE(size.exit_code, 0);
  EXPECT_NE(size.output.find("invalid size '12X'"), std::string::npos) << size.output;
  EXPECT_FALSE(std::filesystem::exists(Cgroup()));
  EXPECT_FALSE(std::filesystem::exists(state_));
}

}  // namespace
}  // namespace pgstorsim
