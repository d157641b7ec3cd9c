#include "replay/member_merge.h"

#include <gtest/gtest.h>

#include <vector>

namespace pgstorsim {
namespace {

IoRequest Req(int target, IoDirection d, int64_t offset, int64_t length, uint8_t* buffer) {
  return IoRequest{target, d, offset, length, buffer};
}

TEST(MemberMergerTest, ContinuingPiecesOnOneTargetBecomeOneScatterRequest) {
  uint8_t buf[4 * 4096];
  // Pieces in logical order: target 0 gets [1000..1512) and [1512..5608) from buffer
  // positions 0 and 8704 (not adjacent in memory), target 1 one piece in between.
  std::vector<IoRequest> r = {Req(0, IoDirection::kRead, 1000 * 512, 512, buf),
                              Req(1, IoDirection::kRead, 0, 8192, buf + 512),
                              Req(0, IoDirection::kRead, 1001 * 512, 4096, buf + 8704)};
  MemberMerger merger;
  merger.Merge(&r);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].target, 0);
  EXPECT_EQ(r[0].offset_bytes, 1000 * 512);
  EXPECT_EQ(r[0].length_bytes, 512 + 4096);
  ASSERT_EQ(r[0].segment_count, 2);
  EXPECT_EQ(r[0].segments[0].iov_base, buf);
  EXPECT_EQ(r[0].segments[0].iov_len, 512u);
  EXPECT_EQ(r[0].segments[1].iov_base, buf + 8704);
  EXPECT_EQ(r[0].segments[1].iov_len, 4096u);
  EXPECT_EQ(r[1].target, 1);
  EXPECT_EQ(r[1].segment_count, 0);
  EXPECT_EQ(r[1].buffer, buf + 512);
}

TEST(MemberMergerTest, AdjacentBuffersMergeWithoutSegments) {
  uint8_t buf[3 * 4096];
  // Given out of order: merged in target order, buffer = the lowest piece's.
  std::vector<IoRequest> r = {Req(2, IoDirection::kWrite, 8192, 4096, buf + 8192),
                              Req(2, IoDirection::kWrite, 0, 4096, buf),
                              Req(2, IoDirection::kWrite, 4096, 4096, buf + 4096)};
  MemberMerger merger;
  merger.Merge(&r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].offset_bytes, 0);
  EXPECT_EQ(r[0].length_bytes, 3 * 4096);
  EXPECT_EQ(r[0].buffer, buf);
  EXPECT_EQ(r[0].segment_count, 0);
}

TEST(MemberMergerTest, GapsDirectionsTargetsAndFsyncsStaySeparate) {
  uint8_t buf[8192];
  std::vector<IoRequest> r = {Req(0, IoDirection::kRead, 0, 512, buf),
                              Req(0, IoDirection::kRead, 1024, 512, buf + 512),   // gap
                              Req(0, IoDirection::kWrite, 512, 512, buf + 1024),  // other dir
                              Req(1, IoDirection::kRead, 512, 512, buf + 1536),   // other target
                              Req(0, IoDirection::kFsync, 0, 0, nullptr),
                              Req(0, IoDirection::kFsync, 0, 0, nullptr)};
  MemberMerger merger;
  merger.Merge(&r);
  EXPECT_EQ(r.size(), 6u);
  for (const IoRequest& q : r) EXPECT_EQ(q.segment_count, 0);
}

TEST(MemberMergerTest, KeepsTheOrderOfFirstPiecesAndCapsSegments) {
  static uint8_t buf[(kMaxIoSegments + 2) * 1024];
  std::vector<IoRequest> r = {Req(1, IoDirection::kRead, 0, 512, buf)};
  for (int i = 0; i < kMaxIoSegments + 1; ++i) {
    // Every piece continues the previous one on target 0, buffers 1 KiB apart.
    r.push_back(Req(0, IoDirection::kRead, i * 512, 512, buf + 1024 * (i + 1)));
  }
  MemberMerger merger;
  merger.Merge(&r);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].target, 1);
  EXPECT_EQ(r[1].segment_count, kMaxIoSegments);
  EXPECT_EQ(r[1].length_bytes, kMaxIoSegments * 512);
  EXPECT_EQ(r[2].offset_bytes, kMaxIoSegments * 512);
  EXPECT_EQ(r[2].segment_count, 0);
  EXPECT_EQ(r[2].buffer, buf + 1024 * (kMaxIoSegments + 1));
}

}  // namespace
}  // namespace pgstorsim
