#include "replay/target.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>

#include "replay/pattern.h"
#include "replay/session.h"
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
  EXPECT_EQ(SizeOf(CreatedMarkerPath(path)), 0);
  auto bigger = PrepareTarget(path, 3 << 20, true, {});
  ASSERT_TRUE(bigger.ok()) << bigger.status().message();
  EXPECT_EQ(SizeOf(path), 3 << 20);
  // Never shrunk, even when ours.
  ASSERT_TRUE(PrepareTarget(path, 1 << 20, true, {}).ok());
  EXPECT_EQ(SizeOf(path), 3 << 20);
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
  // Too small for the trace: refused, untouched.
  auto small = PrepareTarget(path, 1 << 20, true, {});
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
  TraceHeader header;
  std::vector<TraceRecord> records;
  PatternOptions o;
  o.name = "randwrite";
  o.file_bytes = 1 << 20;
  o.ops_per_client = 20;
  ASSERT_TRUE(MakePatternTrace(o, &header, &records).ok());
  ReplayTargets targets;
  targets.target = path;
  PreparedReplay prepared;
  auto out = ReplayTrace(header, records, targets, ReplayOptions(), &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(SizeOf(path), 3 << 20);
  // A bigger trace is refused and the file keeps its size.
  o.file_bytes = 8 << 20;
  ASSERT_TRUE(MakePatternTrace(o, &header, &records).ok());
  EXPECT_FALSE(ReplayTrace(header, records, targets, ReplayOptions(), &prepared).ok());
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
  TraceHeader header;
  std::vector<TraceRecord> records;
  PatternOptions o;
  o.file_bytes = 1 << 20;
  o.ops_per_client = 5;
  ASSERT_TRUE(MakePatternTrace(o, &header, &records).ok());
  WriteFile(dir.File("a"), std::vector<uint8_t>(4 << 20, 0));
  ASSERT_EQ(symlink(dir.File("a").c_str(), dir.File("alias").c_str()), 0);
  ReplayTargets targets;
  targets.use_array = true;
  targets.array.level = RaidLevel::kRaid1;
  targets.members = {dir.File("a"), dir.File("alias")};
  PreparedReplay prepared;
  auto out = ReplayTrace(header, records, targets, ReplayOptions(), &prepared);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("are the same"), std::string::npos);
  targets.use_array = false;
  targets.target = dir.File("b");
  targets.wal_target = dir.File("b");
  EXPECT_FALSE(ReplayTrace(header, records, targets, ReplayOptions(), &prepared).ok());
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
