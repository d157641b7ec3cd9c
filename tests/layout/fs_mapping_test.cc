#include "layout/fs_mapping.h"

#include <gtest/gtest.h>

#include <set>

#include "common/random.h"
#include "layout/raid_layout.h"

namespace pgstorsim {
namespace {

// Number of distinct stripe units a device request touches.
int64_t UnitsTouched(const DeviceRequest& r, int64_t unit) {
  return (r.offset_bytes + r.length_bytes - 1) / unit - r.offset_bytes / unit + 1;
}

TEST(FsMappingTest, MisalignedUfsBlockTouchesSeveralStripeUnits) {
  auto fs = FsMapping::Create({63 * 512, 65536, 8192});
  ASSERT_TRUE(fs.ok());
  Random rng(7);
  for (int i = 0; i < 1000; ++i) {
    const int64_t page_offset = rng.UniformInt(0, 100000) * 8192;
    DeviceRequest r = fs->MapRead(page_offset, 8192);
    EXPECT_EQ(r.length_bytes, 65536);
    EXPECT_EQ((r.offset_bytes - 32256) % 65536, 0);
    EXPECT_LE(r.offset_bytes - 32256, page_offset);
    EXPECT_GE(r.offset_bytes - 32256 + 65536, page_offset + 8192);
    const int64_t units = UnitsTouched(r, 32768);
    EXPECT_TRUE(units == 2 || units == 3) << units;
    // Through the RAID 10 layout: the read spans both mirrored pairs.
    auto layout = RaidLayout::Create({RaidLevel::kRaid10, 4, 32768, 0, 0});
    std::set<int> pairs;
    for (const ReadPiece& p : (*layout)->MapRead(r.offset_bytes, r.length_bytes)) {
      pairs.insert(p.copies[0].member / 2);
    }
    EXPECT_EQ(pairs.size(), 2u);
  }
}

TEST(FsMappingTest, AlignedBlockOnLargeStripeTouchesOneUnit) {
  auto fs = FsMapping::Create({1 << 20, 65536, 0});
  ASSERT_TRUE(fs.ok());
  Random rng(8);
  for (int i = 0; i < 1000; ++i) {
    const int64_t page_offset = rng.UniformInt(0, 100000) * 8192;
    EXPECT_EQ(UnitsTouched(fs->MapRead(page_offset, 8192), 1 << 20), 1);
  }
}

TEST(FsMappingTest, WritesWithoutFragmentsAreThePage) {
  auto page = FsMapping::Create({32256, 65536, 0});
  DeviceRequest w = page->MapWrite(73728, 8192);
  EXPECT_EQ(w.offset_bytes, 32256 + 73728);
  EXPECT_EQ(w.length_bytes, 8192);
  auto raw = FsMapping::Create({0, 0, 0});
  DeviceRequest r = raw->MapRead(8192, 8192);
  EXPECT_EQ(r.offset_bytes, 8192);
  EXPECT_EQ(r.length_bytes, 8192);
}

// UFS2: a page write into a large file rewrites its whole 64 KiB block (the
// read-modify-write the buffer cache does); an unknown size counts as large.
TEST(FsMappingTest, LargeFileWritesAreWholeBlocks) {
  auto ufs = FsMapping::Create({32256, 65536, 8192});
  ASSERT_TRUE(ufs.ok());
  Random rng(9);
  for (int i = 0; i < 200; ++i) {
    const int64_t page_offset = rng.UniformInt(0, 100000) * 8192;
    for (const FileExtent& file : {FileExtent(), FileExtent{0, 1LL << 30}}) {
      DeviceRequest w = ufs->MapWrite(page_offset, 8192, file);
      EXPECT_EQ(w.length_bytes, 65536);
      EXPECT_EQ(w.offset_bytes, 32256 + page_offset / 65536 * 65536);
      EXPECT_EQ(w.offset_bytes, ufs->MapRead(page_offset, 8192).offset_bytes);
    }
  }
  // Two pages straddling a block boundary: both blocks.
  DeviceRequest two = ufs->MapWrite(65536 - 8192, 16384);
  EXPECT_EQ(two.offset_bytes, 32256);
  EXPECT_EQ(two.length_bytes, 131072);
}

// Only the last, partial block of a file with fewer than 12 full blocks is made of
// fragments.
TEST(FsMappingTest, SmallFileTailIsFragments) {
  auto ufs = FsMapping::Create({0, 65536, 8192});
  ASSERT_TRUE(ufs.ok());
  const FileExtent small{10 * 65536, 3 * 65536 + 3 * 8192};  // 3 blocks + 3 fragments.
  DeviceRequest tail = ufs->MapWrite(small.start_bytes + 3 * 65536 + 8192, 8192, small);
  EXPECT_EQ(tail.offset_bytes, small.start_bytes + 3 * 65536 + 8192);
  EXPECT_EQ(tail.length_bytes, 8192);
  DeviceRequest body = ufs->MapWrite(small.start_bytes + 65536 + 8192, 8192, small);
  EXPECT_EQ(body.offset_bytes, small.start_bytes + 65536);
  EXPECT_EQ(body.length_bytes, 65536);
  // Spanning the last full block and the tail: the block, then fragments.
  DeviceRequest both = ufs->MapWrite(small.start_bytes + 3 * 65536 - 8192, 16384, small);
  EXPECT_EQ(both.offset_bytes, small.start_bytes + 2 * 65536);
  EXPECT_EQ(both.length_bytes, 65536 + 8192);
  // 12 full blocks or more: no fragments, even in the partial last block.
  const FileExtent large{0, 12 * 65536 + 8192};
  EXPECT_EQ(ufs->MapWrite(12 * 65536, 8192, large).length_bytes, 65536);
  // ext4-like: 4 KiB blocks = fragments, a page write is the page.
  auto ext4 = FsMapping::Create({1 << 20, 4096, 4096});
  DeviceRequest e = ext4->MapWrite(73728, 8192);
  EXPECT_EQ(e.offset_bytes, (1 << 20) + 73728);
  EXPECT_EQ(e.length_bytes, 8192);
}

// The one file placement rule: a file starts on the next filesystem block (at least
// an 8 KiB page) after the previous one, counted from the partition start.
TEST(FsMappingTest, FilesStartOnTheNextBlock) {
  EXPECT_EQ(NextFileStart(100000, {32256, 65536, 8192}), 131072);
  EXPECT_EQ(NextFileStart(131072, {32256, 65536, 8192}), 131072);
  EXPECT_EQ(NextFileStart(100000, {1 << 20, 4096, 4096}), 106496);  // 8 KiB pages.
  EXPECT_EQ(NextFileStart(100000, {0, 0, 0}), 106496);                // Raw device.
  EXPECT_EQ(FileGranuleBytes({0, 1 << 20, 8192}), 1 << 20);
}

TEST(FsMappingTest, InvalidGeometryRefused) {
  EXPECT_FALSE(FsMapping::Create({100, 65536, 0}).ok());
  EXPECT_FALSE(FsMapping::Create({0, 1000, 0}).ok());
  auto bad = FsMapping::Create({0, 65536, 24576});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("fragment"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
