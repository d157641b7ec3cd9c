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

TEST(FsMappingTest, WritesArePageOrFragment) {
  auto page = FsMapping::Create({32256, 65536, 0});
  DeviceRequest w = page->MapWrite(73728, 8192);
  EXPECT_EQ(w.offset_bytes, 32256 + 73728);
  EXPECT_EQ(w.length_bytes, 8192);
  auto frag = FsMapping::Create({0, 65536, 16384});
  w = frag->MapWrite(8192, 8192);
  EXPECT_EQ(w.offset_bytes, 0);
  EXPECT_EQ(w.length_bytes, 16384);
  auto raw = FsMapping::Create({0, 0, 0});
  DeviceRequest r = raw->MapRead(8192, 8192);
  EXPECT_EQ(r.offset_bytes, 8192);
  EXPECT_EQ(r.length_bytes, 8192);
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
