// Block-device safety of `pgstorsim replay`, on loop devices. Needs root and the loop
// driver; skips with a message otherwise. Every loop device is detached at the end.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "replay_test_util.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

using CommandResult = ShellResult;

// A loop device over a 32 MiB file filled with 0xAB; detached on destruction.
class LoopDevice {
 public:
  explicit LoopDevice(const std::string& backing) : backing_(backing) {
    WriteFile(backing, std::vector<uint8_t>(kBytes, 0xAB));
    CommandResult r = RunShell("losetup --find --show '" + backing + "'");
    if (r.exit_code == 0 && r.output.rfind("/dev/loop", 0) == 0) {
      device_ = r.output.substr(0, r.output.find('\n'));
    } else {
      error_ = r.output;
    }
  }
  ~LoopDevice() {
    if (!device_.empty()) RunShell("losetup -d " + device_);
  }
  const std::string& device() const { return device_; }
  const std::string& error() const { return error_; }
  bool Unchanged() const { return ReadAll(backing_) == std::vector<uint8_t>(kBytes, 0xAB); }
  static constexpr size_t kBytes = 32u << 20;

 private:
  std::string backing_, device_, error_;
};

class ReplayBlockdevTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root for losetup";
    if (RunShell("losetup --version").exit_code != 0) GTEST_SKIP() << "losetup not installed";
    a_ = std::make_unique<LoopDevice>(dir_.File("a.img"));
    if (a_->device().empty()) GTEST_SKIP() << "no loop device available: " << a_->error();
  }

  CommandResult Replay(const std::string& pattern, const std::string& args) {
    return RunShell(std::string(PGSTORSIM_BINARY) + " replay --pattern " + pattern +
                    " --pattern-size 8MiB --pattern-ops 200 --workers 2 --out " +
                    dir_.File("out.json") + " --force " + args);
  }

  TempDir dir_;
  std::unique_ptr<LoopDevice> a_;
};

TEST_F(ReplayBlockdevTest, ReadOnlyByDefaultRefusesWriteTrace) {
  CommandResult r = Replay("randrw", "--target " + a_->device());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("--allow-destroy"), std::string::npos) << r.output;
  EXPECT_TRUE(a_->Unchanged());
  // A read-only trace runs on the read-only device.
  r = Replay("randread", "--target " + a_->device());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(a_->Unchanged());
}

TEST_F(ReplayBlockdevTest, AllowDestroyMustNameTheSameDevice) {
  LoopDevice b(dir_.File("b.img"));
  if (b.device().empty()) GTEST_SKIP() << "no second loop device: " << b.error();
  CommandResult r =
      Replay("randwrite", "--target " + a_->device() + " --allow-destroy " + b.device());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("not a replay target"), std::string::npos) << r.output;
  EXPECT_TRUE(a_->Unchanged());
  EXPECT_TRUE(b.Unchanged());
  // Naming it through a symlink resolves to the same device and allows writing.
  const std::string link = dir_.File("link");
  ASSERT_EQ(symlink(a_->device().c_str(), link.c_str()), 0);
  r = Replay("randwrite", "--target " + a_->device() + " --allow-destroy " + link);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(a_->Unchanged());
  EXPECT_TRUE(b.Unchanged());
}

TEST_F(ReplayBlockdevTest, FilesystemSignatureNeedsForce) {
  if (RunShell("mkfs.ext4 -q -F " + a_->device()).exit_code != 0) {
    GTEST_SKIP() << "mkfs.ext4 unavailable";
  }
  const std::vector<uint8_t> before = ReadAll(dir_.File("a.img"));
  CommandResult r =
      Replay("randwrite", "--target " + a_->device() + " --allow-destroy " + a_->device());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ext2/3/4"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--force-signature"), std::string::npos) << r.output;
  EXPECT_TRUE(ReadAll(dir_.File("a.img")) == before) << "device written despite refusal";
  r = Replay("randwrite", "--target " + a_->device() + " --allow-destroy " + a_->device() +
                              " --force-signature");
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(ReplayBlockdevTest, MountedDeviceAlwaysRefused) {
  if (RunShell("mkfs.ext4 -q -F " + a_->device()).exit_code != 0) {
    GTEST_SKIP() << "mkfs.ext4 unavailable";
  }
  const std::string mnt = dir_.File("mnt");
  ASSERT_EQ(mkdir(mnt.c_str(), 0755), 0);
  if (mount(a_->device().c_str(), mnt.c_str(), "ext4", 0, nullptr) != 0) {
    GTEST_SKIP() << "cannot mount a loop device here";
  }
  CommandResult r = Replay("randwrite", "--target " + a_->device() + " --allow-destroy " +
                                            a_->device() + " --force-signature");
  CommandResult ro = Replay("randread", "--target " + a_->device());
  umount(mnt.c_str());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("mounted"), std::string::npos) << r.output;
  EXPECT_NE(ro.exit_code, 0) << ro.output;
}

TEST_F(ReplayBlockdevTest, ArrayOfLoopDevicesWithParity) {
  LoopDevice b(dir_.File("b.img")), c(dir_.File("c.img"));
  if (b.device().empty() || c.device().empty()) GTEST_SKIP() << "not enough loop devices";
  const std::string members = a_->device() + "," + b.device() + "," + c.device();
  CommandResult r =
      Replay("randwrite", "--array raid5 --stripe 16k --members " + members + " --allow-destroy " +
                              a_->device() + " --allow-destroy " + b.device());
  EXPECT_NE(r.exit_code, 0) << r.output;  // Member c is not named.
  EXPECT_TRUE(c.Unchanged());
  EXPECT_TRUE(a_->Unchanged());
  r = Replay("randwrite", "--array raid5 --stripe 16k --members " + members + " --allow-destroy " +
                              a_->device() + " --allow-destroy " + b.device() +
                              " --allow-destroy " + c.device());
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// The backing file of an attached loop device is never a target, whatever the flags:
// writing it would destroy what the device shows.
TEST_F(ReplayBlockdevTest, LoopBackingFileAlwaysRefused) {
  const std::string backing = dir_.File("a.img");
  CommandResult r = Replay(
      "randwrite", "--target " + backing + " --allow-destroy " + backing + " --force-signature");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("backing file of " + a_->device()), std::string::npos) << r.output;
  EXPECT_TRUE(a_->Unchanged());
}

// An md 0.90 superblock sits at the end of the device only; it is found there.
TEST_F(ReplayBlockdevTest, SignatureAtTheEndNeedsForce) {
  const size_t at = (LoopDevice::kBytes & ~size_t{65535}) - 65536;
  const uint8_t md_magic[4] = {0xfc, 0x4e, 0x2b, 0xa9};
  const int fd = open(a_->device().c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, md_magic, 4, at), 4);
  ASSERT_EQ(fsync(fd), 0);
  close(fd);
  const std::vector<uint8_t> data = ReadAll(dir_.File("a.img"));
  CommandResult r =
      Replay("randwrite", "--target " + a_->device() + " --allow-destroy " + a_->device());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0.90"), std::string::npos) << r.output;
  EXPECT_TRUE(ReadAll(dir_.File("a.img")) == data) << "device written despite refusal";
}

}  // namespace
}  // namespace pgstorsim
