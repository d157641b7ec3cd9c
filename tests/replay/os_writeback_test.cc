#include "replay/os_writeback.h"

#include <gtest/gtest.h>

#include "replay/pattern.h"
#include "replay/session.h"
#include "replay_test_util.h"

namespace pgstorsim {
namespace {

constexpr int64_t kPage = 8192;
constexpr int64_t kSecond = 1000LL * 1000 * 1000;

DirtyRange Page(int64_t i, uint32_t file = 0, int64_t t_ns = 0) {
  return {nullptr, file, i * kPage, kPage, t_ns};
}

TEST(OsWriteback, BackgroundThresholdThenWriterThrottling) {
  OsWriteback wb({100 * kPage});  // Background 10 pages, limit 20.
  DirtyRange d;
  for (int i = 0; i < 10; ++i) wb.MarkDirty(Page(i));
  EXPECT_FALSE(wb.TakeForFlusher(0, &d));  // At the threshold, not above.
  wb.MarkDirty(Page(10));
  ASSERT_TRUE(wb.TakeForFlusher(0, &d));
  EXPECT_EQ(d.volume_offset_bytes, 0);  // Oldest first.
  for (int i = 11; i < 21; ++i) wb.MarkDirty(Page(i));
  EXPECT_EQ(wb.dirty_bytes(), 20 * kPage);
  EXPECT_FALSE(wb.TakeThrottled(&d));  // At the limit, not above.
  wb.MarkDirty(Page(3));               // Already dirty: no change.
  EXPECT_EQ(wb.dirty_bytes(), 20 * kPage);
  wb.MarkDirty(Page(21));
  ASSERT_TRUE(wb.TakeThrottled(&d));
  EXPECT_EQ(d.volume_offset_bytes, 1 * kPage);
  EXPECT_FALSE(wb.TakeThrottled(&d));
}

TEST(OsWriteback, GivenThresholdsReplaceTheRatios) {
  OsWriteback wb({100 * kPage, 2 * kPage, 4 * kPage});  // host.dirty_background / _limit.
  EXPECT_EQ(wb.background_bytes(), 2 * kPage);
  EXPECT_EQ(wb.limit_bytes(), 4 * kPage);
  DirtyRange d;
  for (int i = 0; i < 3; ++i) wb.MarkDirty(Page(i));
  ASSERT_TRUE(wb.TakeForFlusher(0, &d));  // Above 2 pages.
  EXPECT_FALSE(wb.TakeThrottled(&d));
  for (int i = 3; i < 6; ++i) wb.MarkDirty(Page(i));
  EXPECT_TRUE(wb.TakeThrottled(&d));  // 5 pages dirty, above 4.
  // Thresholds above the cache (a machine's, over a cgroup's cache): the cache bounds them.
  OsWriteback cgroup({10 * kPage, 1000 * kPage, 2000 * kPage});
  EXPECT_EQ(cgroup.limit_bytes(), 10 * kPage);
}

TEST(OsWriteback, ExpiryAndFsyncOfOneFile) {
  OsWriteback wb({1000 * kPage});
  DirtyRange d;
  wb.MarkDirty(Page(1, 0, 0));
  wb.MarkDirty(Page(2, 1, kSecond));
  wb.MarkDirty(Page(3, 0, 2 * kSecond));
  EXPECT_FALSE(wb.TakeForFlusher(29 * kSecond, &d));
  ASSERT_TRUE(wb.TakeForFlusher(30 * kSecond, &d));
  EXPECT_EQ(d.volume_offset_bytes, 1 * kPage);
  ASSERT_TRUE(wb.TakeOfFile(0, &d));
  EXPECT_EQ(d.volume_offset_bytes, 3 * kPage);
  EXPECT_FALSE(wb.TakeOfFile(0, &d));
  EXPECT_EQ(wb.dirty_bytes(), kPage);  // File 1's page is left.
}

// Buffered replay: data writes stay in the emulated page cache (an OS cache far larger
// than what a short run dirties), where direct writes each reach the target.
TEST(OsWriteback, BufferedReplayLeavesWritesDirtyDirectWritesThemAll) {
  TempDir dir;
  const Trace t = Pattern("randwrite", 2 << 20, 2, 100, /*seed=*/1);
  for (bool buffered : {true, false}) {
    ReplayTargets targets;
    targets.target = dir.File(buffered ? "buffered" : "direct");
    ReplayOptions o;
    o.buffered_data_writes = buffered;
    o.os_cache_bytes = 64 << 20;
    PreparedReplay prepared;
    auto out = ReplayTrace(t.header, t.records, targets, o, &prepared);
    ASSERT_TRUE(out.ok()) << out.status().message();
    if (buffered) {
      EXPECT_EQ(out->devices[0].writes, 0u);
      EXPECT_GT(out->dirty_bytes_at_end, 0);
    } else {
      EXPECT_EQ(out->devices[0].writes, 200u);
      EXPECT_EQ(out->dirty_bytes_at_end, 0);
    }
  }
}

}  // namespace
}  // namespace pgstorsim
