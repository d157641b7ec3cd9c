#include "layout/raid_layout.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "common/random.h"

namespace pgstorsim {
namespace {

constexpr int64_t kSector = 512;

std::unique_ptr<RaidLayout> Make(RaidLevel level, int members, int64_t unit, int64_t member_size,
                                 int span = 0) {
  ArrayGeometry g;
  g.level = level;
  g.members = members;
  g.stripe_unit_bytes = unit;
  g.member_size_bytes = member_size;
  g.span_members = span;
  auto layout = RaidLayout::Create(g);
  EXPECT_TRUE(layout.ok()) << (layout.ok() ? "" : layout.status().message());
  return layout.ok() ? std::move(layout).value() : nullptr;
}

struct Case {
  RaidLevel level;
  int members;
  int span;
  size_t copies;
};

const Case kCases[] = {
    {RaidLevel::kJbod, 3, 0, 1},   {RaidLevel::kRaid0, 4, 0, 1},  {RaidLevel::kRaid1, 3, 0, 3},
    {RaidLevel::kRaid10, 6, 0, 2}, {RaidLevel::kRaid5, 4, 0, 1},  {RaidLevel::kRaid6, 5, 0, 1},
    {RaidLevel::kRaid50, 6, 3, 1}, {RaidLevel::kRaid60, 8, 4, 1}, {RaidLevel::kRaid100, 8, 4, 2}};

using Place = std::pair<int, int64_t>;  // member, sector-aligned member offset.

// Every logical sector maps to exactly one place per copy, no two logical sectors
// share a place, and parity places never hold data.
TEST(RaidLayoutTest, EveryLogicalSectorHasDistinctPlaces) {
  const int64_t unit = 2048;
  for (const Case& c : kCases) {
    SCOPED_TRACE(RaidLevelName(c.level));
    auto layout = Make(c.level, c.members, unit, 8 * unit, c.span);
    ASSERT_NE(layout, nullptr);
    std::set<Place> data_places;
    std::set<Place> parity_places;
    for (int64_t s = 0; s < layout->capacity_bytes() / kSector; ++s) {
      auto pieces = layout->MapRead(s * kSector, kSector);
      ASSERT_EQ(pieces.size(), 1u);
      ASSERT_EQ(pieces[0].copies.size(), c.copies);
      std::set<int> members;
      for (const MemberExtent& e : pieces[0].copies) {
        EXPECT_EQ(e.length_bytes, kSector);
        EXPECT_GE(e.offset_bytes, 0);
        EXPECT_LE(e.offset_bytes + kSector, 8 * unit);
        EXPECT_TRUE(members.insert(e.member).second) << "two copies on one member";
        EXPECT_TRUE(data_places.insert({e.member, e.offset_bytes}).second)
            << "sector " << s << " shares a place";
      }
      for (const MemberExtent& e : layout->MapWrite(s * kSector, kSector).writes) {
        if (e.role != ExtentRole::kData) parity_places.insert({e.member, e.offset_bytes});
      }
    }
    for (const Place& p : parity_places) EXPECT_EQ(data_places.count(p), 0u);
    // Capacity uses all space not taken by parity or mirror copies.
    EXPECT_EQ((data_places.size() + parity_places.size()) * kSector,
              static_cast<size_t>(c.members) * 8 * unit);
  }
}

// Random requests: pieces are contiguous, stay inside one stripe unit, and agree with
// the sector-by-sector mapping.
TEST(RaidLayoutTest, RandomRequestsCutAtStripeUnits) {
  Random rng(42);
  const int64_t unit = 4096;
  for (const Case& c : kCases) {
    SCOPED_TRACE(RaidLevelName(c.level));
    auto layout = Make(c.level, c.members, unit, 64 * unit, c.span);
    ASSERT_NE(layout, nullptr);
    const int64_t cap_sectors = layout->capacity_bytes() / kSector;
    for (int i = 0; i < 300; ++i) {
      const int64_t off = rng.UniformInt(0, cap_sectors - 1) * kSector;
      const int64_t len =
          rng.UniformInt(1, std::min<int64_t>(40, cap_sectors - off / kSector)) * kSector;
      int64_t pos = off;
      for (const ReadPiece& p : layout->MapRead(off, len)) {
        EXPECT_EQ(p.logical_offset_bytes, pos);
        EXPECT_EQ(p.logical_offset_bytes / unit,
                  (p.logical_offset_bytes + p.length_bytes - 1) / unit);
        auto first = layout->MapRead(pos, kSector)[0];
        ASSERT_EQ(first.copies.size(), p.copies.size());
        for (size_t k = 0; k < p.copies.size(); ++k) {
          EXPECT_EQ(p.copies[k].member, first.copies[k].member);
          EXPECT_EQ(p.copies[k].offset_bytes, first.copies[k].offset_bytes);
          EXPECT_EQ(p.copies[k].offset_bytes / unit,
                    (p.copies[k].offset_bytes + p.length_bytes - 1) / unit);
        }
        pos += p.length_bytes;
      }
      EXPECT_EQ(pos, off + len);
      for (const MemberExtent& e : layout->MapWrite(off, len).writes) {
        EXPECT_EQ(e.offset_bytes / unit, (e.offset_bytes + e.length_bytes - 1) / unit);
      }
    }
  }
}

TEST(RaidLayoutTest, ParityRotatesOverAllMembers) {
  for (RaidLevel level : {RaidLevel::kRaid5, RaidLevel::kRaid6}) {
    const int n = 5;
    const int64_t unit = 65536;
    auto layout = Make(level, n, unit, 0);
    const int data = level == RaidLevel::kRaid5 ? n - 1 : n - 2;
    std::set<int> p_members, q_members;
    for (int row = 0; row < n; ++row) {
      WritePlan plan = layout->MapWrite(row * data * unit, 8192);
      for (const MemberExtent& e : plan.writes) {
        if (e.role == ExtentRole::kParityP) p_members.insert(e.member);
        if (e.role == ExtentRole::kParityQ) q_members.insert(e.member);
      }
    }
    EXPECT_EQ(p_members.size(), static_cast<size_t>(n));
    if (level == RaidLevel::kRaid6) {
      EXPECT_EQ(q_members.size(), static_cast<size_t>(n));
    }
  }
}

TEST(RaidLayoutTest, Raid5LeftSymmetricPlacement) {
  auto layout = Make(RaidLevel::kRaid5, 4, 65536, 0);
  // Row 0: parity on member 3, data 0,1,2. Row 1: parity on 2, data on 3,0,1.
  EXPECT_EQ(layout->MapRead(0, 8192)[0].copies[0].member, 0);
  EXPECT_EQ(layout->MapRead(3 * 65536, 8192)[0].copies[0].member, 3);
  EXPECT_EQ(layout->MapRead(3 * 65536, 8192)[0].copies[0].offset_bytes, 65536);
  EXPECT_EQ(layout->MapRead(4 * 65536, 8192)[0].copies[0].member, 0);
}

TEST(RaidLayoutTest, MirrorsListBothCopies) {
  auto r10 = Make(RaidLevel::kRaid10, 4, 32768, 0);
  auto pieces = r10->MapRead(32768 + 8192, 8192);
  ASSERT_EQ(pieces.size(), 1u);
  ASSERT_EQ(pieces[0].copies.size(), 2u);
  EXPECT_EQ(pieces[0].copies[0].member, 2);
  EXPECT_EQ(pieces[0].copies[1].member, 3);
  EXPECT_EQ(r10->MapWrite(0, 8192).writes.size(), 2u);
  EXPECT_TRUE(r10->MapWrite(0, 8192).pre_reads.empty());
  auto r1 = Make(RaidLevel::kRaid1, 2, 32768, 0);
  EXPECT_EQ(r1->MapRead(0, 8192)[0].copies.size(), 2u);
}

TEST(RaidLayoutTest, Raid5SmallAndFullStripeWrites) {
  auto layout = Make(RaidLevel::kRaid5, 4, 65536, 0);
  WritePlan small = layout->MapWrite(8192, 8192);
  EXPECT_EQ(small.pre_reads.size(), 2u);
  EXPECT_EQ(small.writes.size(), 2u);
  WritePlan full = layout->MapWrite(3 * 3 * 65536, 3 * 65536);
  EXPECT_TRUE(full.pre_reads.empty());
  EXPECT_EQ(full.writes.size(), 4u);
  for (const MemberExtent& e : full.writes) EXPECT_EQ(e.length_bytes, 65536);
  auto r6 = Make(RaidLevel::kRaid6, 6, 65536, 0);
  WritePlan small6 = r6->MapWrite(0, 8192);
  EXPECT_EQ(small6.pre_reads.size(), 3u);
  EXPECT_EQ(small6.writes.size(), 3u);
  EXPECT_TRUE(r6->MapWrite(0, 4 * 65536).pre_reads.empty());
  EXPECT_TRUE(Make(RaidLevel::kRaid0, 4, 65536, 0)->MapWrite(0, 8192).pre_reads.empty());
}

TEST(RaidLayoutTest, InvalidGeometriesRefused) {
  auto refused = [](RaidLevel level, int members, int64_t unit, int span, const char* word) {
    ArrayGeometry g{level, members, unit, 1 << 20, span};
    auto r = RaidLayout::Create(g);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find(word), std::string::npos) << r.status().message();
  };
  refused(RaidLevel::kRaid10, 5, 65536, 0, "even");
  refused(RaidLevel::kRaid0, 4, 1000, 0, "512");
  refused(RaidLevel::kRaid5, 2, 65536, 0, "3 members");
  refused(RaidLevel::kRaid6, 3, 65536, 0, "4 members");
  refused(RaidLevel::kRaid50, 7, 65536, 3, "spans");
  refused(RaidLevel::kRaid1, 1, 65536, 0, "2 members");
}

// Spanned levels with their own span stripe: chunk k of the array goes to span
// k % spans; inside the span it maps as the span's level.
TEST(RaidLayoutTest, NestedSpansTakeChunksInTurn) {
  ArrayGeometry g{RaidLevel::kRaid100, 8, 65536, 0, 4, 1 << 20};
  auto layout = RaidLayout::Create(g);
  ASSERT_TRUE(layout.ok()) << layout.status().message();
  // Chunk 0 (first MiB) on span 0 (members 0-3): units alternate over its two pairs.
  EXPECT_EQ((*layout)->MapRead(0, 8192)[0].copies[0].member, 0);
  EXPECT_EQ((*layout)->MapRead(65536, 8192)[0].copies[0].member, 2);
  // Chunk 1 on span 1 (members 4-7) at span offset 0.
  auto second = (*layout)->MapRead(1 << 20, 8192)[0];
  EXPECT_EQ(second.copies[0].member, 4);
  EXPECT_EQ(second.copies[1].member, 5);
  EXPECT_EQ(second.copies[0].offset_bytes, 0);
  // Chunk 2 back on span 0, at span offset 1 MiB = row 8 of its pairs.
  auto third = (*layout)->MapRead(2 << 20, 8192)[0];
  EXPECT_EQ(third.copies[0].member, 0);
  EXPECT_EQ(third.copies[0].offset_bytes, 8 * 65536);
  // A write crossing two chunks is cut at the chunk boundary too.
  WritePlan plan = (*layout)->MapWrite((1 << 20) - 4096, 8192);
  EXPECT_EQ(plan.writes.size(), 4u);  // Two pieces x two mirror copies.
  EXPECT_TRUE(plan.pre_reads.empty());
  // RAID 50 with a span stripe of a whole span row: small writes still read-modify-write
  // inside their span, a full span row is a full-stripe write.
  ArrayGeometry g50{RaidLevel::kRaid50, 8, 65536, 0, 4, 3 * 65536};
  auto r50 = RaidLayout::Create(g50);
  ASSERT_TRUE(r50.ok());
  EXPECT_EQ((*r50)->MapWrite(8192, 8192).pre_reads.size(), 2u);
  WritePlan full = (*r50)->MapWrite(3 * 65536, 3 * 65536);  // Span 1's first row.
  EXPECT_TRUE(full.pre_reads.empty());
  EXPECT_EQ(full.writes.size(), 4u);
  for (const MemberExtent& e : full.writes) EXPECT_GE(e.member, 4);
}

// period_bytes(): offsets x and x + period land on the same members at the same
// in-unit offsets, for every level with a period.
TEST(RaidLayoutTest, MappingRepeatsAfterItsPeriod) {
  Random rng(11);
  for (const Case& c : kCases) {
    if (c.level == RaidLevel::kJbod) continue;
    SCOPED_TRACE(RaidLevelName(c.level));
    ArrayGeometry g{c.level, c.members, 16384, 0, c.span, c.span ? 3 * 16384 : 0};
    auto layout = RaidLayout::Create(g);
    ASSERT_TRUE(layout.ok()) << layout.status().message();
    const int64_t period = (*layout)->period_bytes();
    ASSERT_GT(period, 0);
    for (int i = 0; i < 200; ++i) {
      const int64_t x = rng.UniformInt(0, 4 * period / 512 - 1) * 512;
      auto a = (*layout)->MapWrite(x, 8192), b = (*layout)->MapWrite(x + 3 * period, 8192);
      ASSERT_EQ(a.writes.size(), b.writes.size());
      ASSERT_EQ(a.pre_reads.size(), b.pre_reads.size());
      for (size_t k = 0; k < a.writes.size(); ++k) {
        EXPECT_EQ(a.writes[k].member, b.writes[k].member);
        EXPECT_EQ(a.writes[k].offset_bytes % 16384, b.writes[k].offset_bytes % 16384);
      }
    }
  }
}

TEST(RaidLayoutTest, MemberBytesForHoldsTheVolume) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(RaidLevelName(c.level));
    ArrayGeometry g{c.level, c.members, 65536, 0, c.span, 0};
    for (int64_t volume : {int64_t{1}, int64_t{5} << 20, int64_t{123456789}}) {
      const int64_t member = MemberBytesFor(g, volume);
      EXPECT_EQ(member % 65536, 0);
      g.member_size_bytes = member;
      EXPECT_GE(RaidLayout::Create(g).value()->capacity_bytes(), volume);
      g.member_size_bytes = member - 65536;
      if (g.member_size_bytes > 0) {
        EXPECT_LT(RaidLayout::Create(g).value()->capacity_bytes(), volume);
      }
      g.member_size_bytes = 0;
    }
  }
}

TEST(RaidLayoutTest, ValidityProblemsNameTheirField) {
  auto field_of = [](ArrayGeometry g) {
    GeometryField f = GeometryField::kLevel;
    EXPECT_FALSE(CheckArrayGeometry(g, &f).ok());
    return f;
  };
  EXPECT_EQ(field_of({RaidLevel::kRaid6, 3, 65536, 0, 0, 0}), GeometryField::kMembers);
  EXPECT_EQ(field_of({RaidLevel::kRaid0, 4, 1000, 0, 0, 0}), GeometryField::kStripeUnit);
  EXPECT_EQ(field_of({RaidLevel::kRaid100, 8, 65536, 0, 3, 0}), GeometryField::kSpanMembers);
  EXPECT_EQ(field_of({RaidLevel::kRaid100, 10, 65536, 0, 4, 0}), GeometryField::kMembers);
  EXPECT_EQ(field_of({RaidLevel::kRaid10, 4, 65536, 0, 0, 1 << 20}), GeometryField::kSpanStripe);
  EXPECT_EQ(field_of({RaidLevel::kJbod, 2, 65536, 0, 0, 0}), GeometryField::kMemberSize);
  EXPECT_TRUE(CheckArrayGeometry({RaidLevel::kRaid1, 3, 65536, 0, 0, 0}, nullptr).ok());
  EXPECT_EQ(DataMembers({RaidLevel::kRaid60, 12, 65536, 0, 6, 0}), 8);
  EXPECT_EQ(DataMembers({RaidLevel::kRaid100, 12, 65536, 0, 4, 0}), 6);
  EXPECT_EQ(DataCopies({RaidLevel::kRaid100, 12, 65536, 0, 4, 0}), 2);
  EXPECT_EQ(DataCopies({RaidLevel::kRaid1, 3, 65536, 0, 0, 0}), 3);
}

// The count is the layout's own: the member writes it plans for one unit of data.
TEST(RaidLayoutTest, MemberWritesPerUnitWriteAreTheLayoutsPlan) {
  const ArrayGeometry geometries[] = {
      {RaidLevel::kRaid0, 4, 65536, 1 << 30, 0, 0},
      {RaidLevel::kRaid1, 3, 65536, 1 << 30, 0, 0},
      {RaidLevel::kRaid10, 8, 65536, 1 << 30, 0, 0},
      {RaidLevel::kRaid5, 6, 65536, 1 << 30, 0, 0},
      {RaidLevel::kRaid6, 8, 65536, 1 << 30, 0, 0},
      {RaidLevel::kRaid50, 12, 65536, 1 << 30, 6, 0},
      {RaidLevel::kRaid60, 12, 65536, 1 << 30, 6, 0},
      {RaidLevel::kRaid100, 12, 65536, 1 << 30, 4, 0},
  };
  const int expected[] = {1, 3, 2, 2, 3, 2, 3, 2};
  for (size_t i = 0; i < std::size(geometries); ++i) {
    auto layout = RaidLayout::Create(geometries[i]);
    ASSERT_TRUE(layout.ok()) << layout.status().message();
    const WritePlan plan = (*layout)->MapWrite(3 * 65536, 65536);
    EXPECT_EQ(static_cast<int>(plan.writes.size()), expected[i]) << i;
    EXPECT_EQ(MemberWritesPerUnitWrite(geometries[i]), expected[i]) << i;
  }
}

TEST(RaidLayoutTest, ParsesLevelNames) {
  EXPECT_EQ(ParseRaidLevel("raid100").value(), RaidLevel::kRaid100);
  EXPECT_EQ(ParseRaidLevel("RAID-10").value(), RaidLevel::kRaid10);
  EXPECT_EQ(ParseRaidLevel("5").value(), RaidLevel::kRaid5);
  EXPECT_EQ(ParseRaidLevel("raid60").value(), RaidLevel::kRaid60);
  EXPECT_STREQ(RaidLevelName(RaidLevel::kRaid50), "raid50");
  EXPECT_FALSE(ParseRaidLevel("raid7").ok());
}

// A 64 KiB block behind a 63-sector offset on a 32 KiB RAID 10 covers units k, k+1,
// k+2; k and k+2 lie back to back on the same pair, so the host's I/O is one per disk.
TEST(RaidLayoutTest, MergeContiguousOnMembersJoinsPiecesBackToBackOnAMember) {
  ArrayGeometry g;
  g.level = RaidLevel::kRaid10;
  g.members = 4;
  g.stripe_unit_bytes = 32 << 10;
  auto layout = RaidLayout::Create(g);
  ASSERT_TRUE(layout.ok());
  std::vector<MemberExtent> writes = (*layout)->MapWrite(32256, 65536).writes;
  ASSERT_EQ(writes.size(), 6u);  // Three pieces, two copies each.
  MergeContiguousOnMembers(&writes);
  ASSERT_EQ(writes.size(), 4u);
  int64_t bytes = 0;
  std::vector<int> per_member(4, 0);
  for (const MemberExtent& e : writes) {
    bytes += e.length_bytes;
    ++per_member[e.member];
  }
  EXPECT_EQ(bytes, 2 * 65536);  // Nothing lost or doubled.
  EXPECT_EQ(per_member, std::vector<int>({1, 1, 1, 1}));
  for (const MemberExtent& e : writes) {
    if (e.member < 2) {
      EXPECT_EQ(e.length_bytes, 32768) << "pair 0: 512 + 32256 bytes";
    }
  }
}

TEST(RaidLayoutTest, MergeContiguousOnMembersKeepsSeparateRanges) {
  std::vector<MemberExtent> extents = {{0, 0, 4096}, {1, 4096, 4096}, {0, 8192, 4096}};
  MergeContiguousOnMembers(&extents);
  EXPECT_EQ(extents.size(), 3u);  // Other member, or a gap on the same one.
}

}  // namespace
}  // namespace pgstorsim
