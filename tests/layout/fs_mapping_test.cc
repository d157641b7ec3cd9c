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
  EXPECT_EQ(NextFileStart(100000, {0, 0, 0}), 106496);              // Raw device.
  EXPECT_EQ(FileGranuleBytes({0, 1 << 20, 8192}), 1 << 20);
}

TEST(FsMappingTest, InvalidGeometryRefused) {
  EXPECT_FALSE(FsMapping::Create({100, 65536, 0}).ok());
  EXPECT_FALSE(FsMapping::Create({0, 1000, 0}).ok());
  auto bad = FsMapping::Create({0, 65536, 24576});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("fragment"), std::string::npos);
}

// UFS's cylinder groups: the seed's dumpfs (64 KiB blocks, bpg 40195, maxbpg 8192) puts
// each 512 MiB section of a file one 40195-block group further.
constexpr int64_t kMiB = 1 << 20;
constexpr int64_t kGroup = 40195LL * 65536;
FsGeometry SeedUfs() { return {32256, 65536, 8192, kGroup, 8192LL * 65536}; }

TEST(FileSpreadTest, OneFileTakesASectionOfEveryGroup) {
  const FileSpread one(SeedUfs(), 0);
  EXPECT_EQ(one.Offset(0), 0);
  EXPECT_EQ(one.Offset(512 * kMiB - 8192), 512 * kMiB - 8192);  // Still the first section.
  EXPECT_EQ(one.Offset(512 * kMiB), kGroup);                    // The next group.
  EXPECT_EQ(one.Offset(1024 * kMiB + 8192), 2 * kGroup + 8192);
  EXPECT_EQ(one.SpanBytes(100 * kMiB), 100 * kMiB);
  EXPECT_EQ(one.SpanBytes(48000 * kMiB), 93 * kGroup + (48000 - 93 * 512) * kMiB);
  // randomio's 48000 MiB file spans about 4.8x its size.
  EXPECT_NEAR(static_cast<double>(one.SpanBytes(48000 * kMiB)) / (48000 * kMiB), 4.8, 0.1);
}

TEST(FileSpreadTest, SegmentsAreSpreadEachAsAFile) {
  const FileSpread rel(SeedUfs(), kRelationSegmentBytes);
  const int64_t segment_span = kGroup + 512 * kMiB;  // Two sections, a group apart.
  EXPECT_EQ(rel.SpanBytes(kRelationSegmentBytes), segment_span);
  EXPECT_EQ(rel.Offset(kRelationSegmentBytes), segment_span);  // Segment 1 starts after it.
  EXPECT_EQ(rel.Offset(kRelationSegmentBytes + 512 * kMiB + 8192), segment_span + kGroup + 8192);
  EXPECT_EQ(rel.SpanBytes(2 * kRelationSegmentBytes + 8192), 2 * segment_span + 8192);
  EXPECT_NEAR(static_cast<double>(segment_span) / kRelationSegmentBytes, 2.95, 0.01);
}

// A filesystem too small for the full spread spreads the data evenly over its room:
// 100 GiB of data in 200 GiB spreads its sections 2 apart, not 4.9; in 90 GiB not at all.
TEST(FileSpreadTest, AFullFilesystemSpreadsLess) {
  const int64_t gib = 1LL << 30;
  const FileSpread half(SeedUfs(), 0, 100 * gib, 200 * gib);
  EXPECT_EQ(half.group_bytes, 1024 * kMiB);
  EXPECT_EQ(half.Offset(512 * kMiB), 1024 * kMiB);
  EXPECT_LE(half.SpanBytes(100 * gib), 200 * gib);
  const FileSpread full(SeedUfs(), 0, 100 * gib, 90 * gib);
  EXPECT_EQ(full.Offset(50 * gib), 50 * gib);
  const FileSpread roomy(SeedUfs(), 0, 1 * gib, 1000 * gib);
  EXPECT_EQ(roomy.group_bytes, kGroup);
}

// The room data files get: the volume less the partition offset, and for a database its
// WAL region with a granule of slack after the data and after the WAL.
TEST(FileSpreadTest, RoomForDataLeavesThePartitionOffsetAndTheWal) {
  const int64_t gib = 1LL << 30;
  const FsGeometry fs = SeedUfs();
  EXPECT_EQ(RoomForDataBytes(100 * gib, fs, 0), 100 * gib - fs.partition_offset_bytes);
  EXPECT_EQ(RoomForDataBytes(100 * gib, fs, 2 * gib),
            98 * gib - fs.partition_offset_bytes - 2 * 65536);
  const FsGeometry raw{};
  EXPECT_EQ(RoomForDataBytes(gib, raw, gib / 2), gib / 2 - 2 * 8192);  // An 8 KiB page each.
}

TEST(FileSpreadTest, ContiguousWithoutGroups) {
  const FileSpread plain(FsGeometry{32256, 65536, 8192}, kRelationSegmentBytes);
  EXPECT_EQ(plain.Offset(5 * kRelationSegmentBytes + 8192), 5 * kRelationSegmentBytes + 8192);
  EXPECT_EQ(plain.SpanBytes(3 * kRelationSegmentBytes), 3 * kRelationSegmentBytes);
  // A section as large as the group spreads nothing.
  const FileSpread whole(FsGeometry{0, 65536, 8192, kGroup, kGroup}, 0);
  EXPECT_EQ(whole.Offset(10 * kGroup), 10 * kGroup);
}

TEST(FsMappingTest, GroupsLargerThanTheirSectionsOfWholeBlocks) {
  EXPECT_TRUE(FsMapping::Create(SeedUfs()).ok());
  EXPECT_FALSE(FsMapping::Create({0, 65536, 8192, 65536, 2 * 65536}).ok());  // Section > group.
  auto odd = FsMapping::Create({0, 65536, 8192, kGroup, 65536 + 8192});
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.status().message().find("cylinder group"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
