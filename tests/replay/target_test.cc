#include "replay/target.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>

#include "replay/pattern.h"
#include "replay/session.h"
#include "replay/signature.h"
#include "replay_test_util.h"

namespace pgstorsim {
namespace {

int64_t SizeOf(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

TEST(TargetTest, CreatesMarksAndExtendsOwnFiles) {
  TempDir dir;
  const std::string path = dir.File("new");
  auto t = PrepareTarget(path, 1 << 20, true, {});
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_TRUE(t->created_by_us);
  EXPECT_TRUE(t->writable);
  EXPECT_EQ(SizeOf(path), 1 << 20);
  EXPECT_GT(SizeOf(CreatedMarkerPath(path)), 0);  // Names the file: device and inode.
  auto bigger = PrepareTarget(path, 3 << 20, true, {});
  ASSERT_TRUE(bigger.ok()) << bigger.status().message();
  EXPECT_EQ(SizeOf(path), 3 << 20);
  // Never shrunk, even when ours.
  ASSERT_TRUE(PrepareTarget(path, 1 << 20, true, {}).ok());
  EXPECT_EQ(SizeOf(path), 3 << 20);
}

// A marker left beside a removed file marks nothing: a file someone else puts at the
// path later is not ours, so it is neither written nor extended without consent.
TEST(TargetTest, AStaleMarkerMarksNoOtherFile) {
  TempDir dir;
  const std::string path = dir.File("scratch");
  ASSERT_TRUE(PrepareTarget(path, 1 << 20, true, {}).ok());
  {
    std::ofstream theirs(path + ".new");  // Made while ours exists: another inode.
    theirs << std::string(1 << 20, 'x');
  }
  ASSERT_EQ(unlink(path.c_str()), 0);  // The marker stays behind.
  ASSERT_EQ(rename((path + ".new").c_str(), path.c_str()), 0);
  auto again = PrepareTarget(path, 1 << 20, true, {});
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("--allow-destroy"), std::string::npos)
      << again.status().message();
  EXPECT_NE(again.status().message().find("names another file"), std::string::npos)
      << again.status().message();
  auto read_only = PrepareTarget(path, 1 << 20, false, {});
  ASSERT_TRUE(read_only.ok()) << read_only.status().message();
  EXPECT_FALSE(read_only->created_by_us);
  EXPECT_FALSE(PrepareTarget(path, 2 << 20, false, {}).ok());  // Never extended.
  EXPECT_EQ(SizeOf(path), 1 << 20);
}

TEST(TargetTest, CreateSizeOptionSetsTheSize) {
  TempDir dir;
  TargetPolicy policy;
  policy.create_size_bytes = 5 << 20;
  ASSERT_TRUE(PrepareTarget(dir.File("f"), 1 << 20, true, policy).ok());
  EXPECT_EQ(SizeOf(dir.File("f")), 5 << 20);
}

TEST(TargetTest, ForeignFileIsNeverTruncatedOrExtended) {
  TempDir dir;
  const std::string path = dir.File("precious");
  std::vector<uint8_t> data(100000, 0x5a);
  WriteFile(path, data);
  // Too small for the trace: refused, untouched, even when --allow-destroy names it.
  TargetPolicy named;
  named.allow_destroy = {path};
  auto small = PrepareTarget(path, 1 << 20, true, named);
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.status().message().find("never resizes"), std::string::npos);
  EXPECT_EQ(ReadAll(path), data);
  // Large enough: used as is, size unchanged, not marked as ours.
  auto fits = PrepareTarget(path, 65536, false, {});
  ASSERT_TRUE(fits.ok());
  EXPECT_FALSE(fits->created_by_us);
  EXPECT_EQ(ReadAll(path), data);
}

TEST(TargetTest, ReplayOnForeignFileKeepsItsSize) {
  TempDir dir;
  const std::string path = dir.File("foreign");
  WriteFile(path, std::vector<uint8_t>(3 << 20, 0));
  Trace t = Pattern("randwrite", 1 << 20, 1, 20, /*seed=*/1);
  ReplayTargets targets;
  targets.target = path;
  targets.policy.allow_destroy = {path};
  PreparedReplay prepared;
  auto out = ReplayTrace(t.header, t.records, targets, ReplayOptions(), &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(SizeOf(path), 3 << 20);
  // A bigger trace is refused and the file keeps its size.
  t = Pattern("randwrite", 8 << 20, 1, 20, /*seed=*/1);
  EXPECT_FALSE(ReplayTrace(t.header, t.records, targets, ReplayOptions(), &prepared).ok());
  EXPECT_EQ(SizeOf(path), 3 << 20);
}

TEST(TargetTest, RefusesDirectoriesAndBadAllowDestroy) {
  TempDir dir;
  EXPECT_FALSE(PrepareTarget(dir.path(), 4096, false, {}).ok());
  TargetPolicy policy;
  policy.allow_destroy = {dir.File("not-a-device")};
  Status s = CheckAllowDestroyNamesTargets({dir.File("x")}, policy);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--allow-destroy"), std::string::npos);
}

std::vector<uint8_t> Blank() { return std::vector<uint8_t>(128 * 1024, 0); }

TEST(SignatureTest, DetectsCommonSignatures) {
  auto b = Blank();
  EXPECT_EQ(DetectSignature(b.data(), b.size()), "");
  b[1080] = 0x53;
  b[1081] = 0xEF;
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("ext2/3/4"), std::string::npos);
  b = Blank();
  b[510] = 0x55;
  b[511] = 0xAA;
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("MBR"), std::string::npos);
  b = Blank();
  memcpy(b.data() + 512, "EFI PART", 8);
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("GPT"), std::string::npos);
  b = Blank();
  memcpy(b.data(), "XFSB", 4);
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("XFS"), std::string::npos);
  b = Blank();
  memcpy(b.data() + 65600, "_BHRfS_M", 8);
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("btrfs"), std::string::npos);
  b = Blank();
  memcpy(b.data() + 512, "LABELONE", 8);
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("LVM"), std::string::npos);
  b = Blank();
  memcpy(b.data() + 4086, "SWAPSPACE2", 10);
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("swap"), std::string::npos);
  b = Blank();
  const uint8_t ufs2[4] = {0x19, 0x01, 0x54, 0x19};
  memcpy(b.data() + 65536 + 1372, ufs2, 4);
  EXPECT_NE(DetectSignature(b.data(), b.size()).find("UFS2"), std::string::npos);
  // A short read never reads past the end.
  EXPECT_EQ(DetectSignature(b.data(), 100), "");
}

}  // namespace
}  // namespace pgstorsim

namespace pgstorsim {
namespace {

TEST(TargetTest, SameTargetTwiceRefused) {
  TempDir dir;
  const Trace t = Pattern("randrw", 1 << 20, 1, 5, /*seed=*/1);
  WriteFile(dir.File("a"), std::vector<uint8_t>(4 << 20, 0));
  ASSERT_EQ(symlink(dir.File("a").c_str(), dir.File("alias").c_str()), 0);
  ReplayTargets targets;
  targets.use_array = true;
  targets.array.level = RaidLevel::kRaid1;
  targets.members = {dir.File("a"), dir.File("alias")};
  PreparedReplay prepared;
  auto out = ReplayTrace(t.header, t.records, targets, ReplayOptions(), &prepared);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("are the same"), std::string::npos);
  targets.use_array = false;
  targets.target = dir.File("b");
  targets.wal_target = dir.File("b");
  EXPECT_FALSE(ReplayTrace(t.header, t.records, targets, ReplayOptions(), &prepared).ok());
}

}  // namespace
}  // namespace pgstorsim

namespace pgstorsim {
namespace {

TEST(TargetTest, MissingDevicePathIsNotCreated) {
  auto t = PrepareTarget("/dev/pgstorsim-no-such-disk", 1 << 20, true, {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("/dev"), std::string::npos);
  struct stat st;
  EXPECT_NE(stat("/dev/pgstorsim-no-such-disk", &st), 0);
}

}  // namespace
}  // namespace pgstorsim

namespace pgstorsim {
namespace {

std::vector<uint8_t> RandomBytes(size_t n) {
  std::vector<uint8_t> data(n);
  uint32_t x = 12345;
  for (auto& b : data) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 24);
  }
  return data;
}

// A file pgstorsim did not create is written only when --allow-destroy names it; a
// read-only trace may use it freely.
TEST(TargetTest, ForeignFileIsWrittenOnlyWithAllowDestroy) {
  TempDir dir;
  const std::string path = dir.File("precious");
  const std::vector<uint8_t> data = RandomBytes(4 << 20);
  WriteFile(path, data);
  auto t = PrepareTarget(path, 1 << 20, true, {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("--allow-destroy"), std::string::npos);
  auto ro = PrepareTarget(path, 1 << 20, false, {});
  ASSERT_TRUE(ro.ok()) << ro.status().message();
  EXPECT_FALSE(ro->writable);
  TargetPolicy other;
  WriteFile(dir.File("other"), std::vector<uint8_t>(10, 0));
  other.allow_destroy = {dir.File("other")};
  EXPECT_FALSE(PrepareTarget(path, 1 << 20, true, other).ok());
  EXPECT_EQ(ReadAll(path), data);
  // --allow-destroy naming it (here through a symlink: same device and inode).
  ASSERT_EQ(symlink(path.c_str(), dir.File("alias").c_str()), 0);
  TargetPolicy named;
  named.allow_destroy = {dir.File("alias")};
  auto w = PrepareTarget(path, 1 << 20, true, named);
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_TRUE(w->writable);
  EXPECT_TRUE(CheckAllowDestroyNamesTargets({path}, named).ok());
  EXPECT_FALSE(CheckAllowDestroyNamesTargets({dir.File("other")}, named).ok());
}

// The whole command: `replay --target FILE` on a foreign file exits non-zero and
// leaves it byte for byte.
TEST(TargetTest, ReplayCommandLeavesForeignFileIntact) {
  TempDir dir;
  const std::string path = dir.File("img");
  const std::vector<uint8_t> data = RandomBytes(2 << 20);
  WriteFile(path, data);
  const std::string cmd = std::string(PGSTORSIM_BINARY) +
                          " replay --pattern randwrite --pattern-size 1MiB --pattern-ops 50"
                          " --target " +
                          path + " --out " + dir.File("r.json") + " > " + dir.File("log") + " 2>&1";
  const int rc = system(cmd.c_str());
  EXPECT_NE(rc, 0);
  EXPECT_EQ(ReadAll(path), data);
  EXPECT_NE(SizeOf(dir.File("log")), 0);
}

TEST(TargetTest, FilesystemImageNeedsForceSignature) {
  TempDir dir;
  const std::string path = dir.File("ext4.img");
  std::vector<uint8_t> data(2 << 20, 0);
  data[1080] = 0x53;
  data[1081] = 0xEF;
  WriteFile(path, data);
  TargetPolicy policy;
  policy.allow_destroy = {path};
  auto t = PrepareTarget(path, 1 << 20, true, policy);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("ext2/3/4"), std::string::npos);
  EXPECT_NE(t.status().message().find("--force-signature"), std::string::npos);
  policy.force_signature = true;
  EXPECT_TRUE(PrepareTarget(path, 1 << 20, true, policy).ok());
}

TEST(TargetTest, PostgresDataFilesAlwaysRefused) {
  TempDir dir;
  ASSERT_EQ(system(("mkdir -p " + dir.File("pgdata/base/16385")).c_str()), 0);
  WriteFile(dir.File("pgdata/PG_VERSION"), {'1', '5', '\n'});
  const std::string rel = dir.File("pgdata/base/16385/16399");
  WriteFile(rel, std::vector<uint8_t>(2 << 20, 0));
  TargetPolicy policy;
  policy.allow_destroy = {rel};
  policy.force_signature = true;
  auto t = PrepareTarget(rel, 1 << 20, true, policy);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("PostgreSQL data directory"), std::string::npos);
  // A tablespace: no PG_VERSION, but <oid>/<relfilenode> under PG_<v>_<catversion>.
  ASSERT_EQ(system(("mkdir -p " + dir.File("ts/PG_15_202209061/16385")).c_str()), 0);
  const std::string ts_rel = dir.File("ts/PG_15_202209061/16385/16402_fsm");
  WriteFile(ts_rel, std::vector<uint8_t>(2 << 20, 0));
  policy.allow_destroy = {ts_rel};
  t = PrepareTarget(ts_rel, 1 << 20, true, policy);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("relation file"), std::string::npos);
  EXPECT_EQ(PostgresFileReason(dir.File("ts/PG_15_202209061/16385/notes.txt")), "");
  EXPECT_EQ(PostgresFileReason(dir.File("16399")), "");
}

// Filling a new target fails (here EFBIG from RLIMIT_FSIZE, as ENOSPC would): neither
// the file nor its mark is left behind, so the filesystem is not left full.
TEST(TargetTest, FailedCreationLeavesNothing) {
  TempDir dir;
  const std::string path = dir.File("big");
  struct rlimit old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  struct rlimit small = old;
  small.rlim_cur = 1 << 20;
  signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  auto t = PrepareTarget(path, 4 << 20, true, {});
  setrlimit(RLIMIT_FSIZE, &old);
  signal(SIGXFSZ, SIG_DFL);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(SizeOf(path), -1);
  EXPECT_EQ(SizeOf(CreatedMarkerPath(path)), -1);
}

TEST(SignatureTest, DetectsSignaturesAtTheEnd) {
  const int64_t device = (8 << 20) + 12345;  // Not aligned: offsets are rounded.
  std::vector<uint8_t> tail(kSignatureTailBytes, 0);
  const int64_t base = device - static_cast<int64_t>(tail.size());
  EXPECT_EQ(DetectEndSignature(tail.data(), tail.size(), device), "");
  const uint8_t md_magic[4] = {0xfc, 0x4e, 0x2b, 0xa9};
  // md 0.90: (size & ~64 KiB) - 64 KiB.
  memcpy(tail.data() + ((device & ~int64_t{65535}) - 65536 - base), md_magic, 4);
  EXPECT_NE(DetectEndSignature(tail.data(), tail.size(), device).find("0.90"), std::string::npos);
  std::fill(tail.begin(), tail.end(), 0);
  // md 1.0: (size - 8 KiB) & ~4 KiB.
  memcpy(tail.data() + (((device - 8192) & ~int64_t{4095}) - base), md_magic, 4);
  EXPECT_NE(DetectEndSignature(tail.data(), tail.size(), device).find("1.0"), std::string::npos);
  std::fill(tail.begin(), tail.end(), 0);
  // ZFS L3: the last 256 KiB label of the 256 KiB-aligned size; an uberblock in its ring.
  const int64_t l3 = (device & ~int64_t{262143}) - 262144;
  const uint8_t ub_magic[8] = {0x0c, 0xb1, 0xba, 0x00, 0, 0, 0, 0};
  memcpy(tail.data() + (l3 + 128 * 1024 + 5 * 1024 - base), ub_magic, 8);
  EXPECT_NE(DetectEndSignature(tail.data(), tail.size(), device).find("ZFS"), std::string::npos);
  // ZFS L0 at the start, big-endian uberblock.
  std::vector<uint8_t> head(kSignatureHeadBytes, 0);
  const uint8_t ub_be[8] = {0, 0, 0, 0, 0x00, 0xba, 0xb1, 0x0c};
  memcpy(head.data() + 128 * 1024, ub_be, 8);
  EXPECT_NE(DetectSignature(head.data(), head.size()).find("ZFS"), std::string::npos);
  // A tail shorter than the device never reads outside it.
  EXPECT_EQ(DetectEndSignature(tail.data(), 100, device), "");
}

// An md 0.90 member file (superblock at the end only) needs --force-signature.
TEST(TargetTest, EndSignatureOfAFileIsDetected) {
  TempDir dir;
  const std::string path = dir.File("md090.img");
  const int64_t size = 4 << 20;
  std::vector<uint8_t> data(size, 0);
  const uint8_t md_magic[4] = {0xfc, 0x4e, 0x2b, 0xa9};
  memcpy(data.data() + (size - 65536), md_magic, 4);
  WriteFile(path, data);
  TargetPolicy policy;
  policy.allow_destroy = {path};
  auto t = PrepareTarget(path, 1 << 20, true, policy);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("md RAID"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
