// WalFlushGroup (replay/wal_flush_group.h): PostgreSQL's group commit for the replay's
// workers.
#include "replay/wal_flush_group.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace pgstorsim {
namespace {

using Clock = std::chrono::steady_clock;

// True once `done()` holds, polled until a 10 s deadline.
template <typename Done>
bool PollUntil(Done done) {
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

constexpr int64_t kPage = 8192;
constexpr int64_t kWalFileBytes = 16 * kPage;

// A commit of the WAL file 7 that adds `pages` whole pages.
WalCommit Adds(int pages) { return {7, kWalFileBytes, pages * kPage}; }

// The flushes a group asked for, in order.
class Flushes {
 public:
  AccessOutcome Flush(const std::vector<WalRange>& ranges) {
    std::lock_guard<std::mutex> lock(mu_);
    seen_.push_back(ranges);
    return {0, 0, static_cast<int>(ranges.size()) + 1, 0};
  }
  std::vector<std::vector<WalRange>> seen() {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_;
  }

 private:
  std::mutex mu_;
  std::vector<std::vector<WalRange>> seen_;
};

TEST(WalFlushGroup, ACommitAddsTheWholePagesItWroteBeyondThePartlyFilledOne) {
  EXPECT_EQ(WalFlushGroup::AdvanceBytes(kPage), 0);  // The same partly filled page.
  EXPECT_EQ(WalFlushGroup::AdvanceBytes(3 * kPage), 2 * kPage);
  EXPECT_EQ(WalFlushGroup::AdvanceBytes(0), 0);
}

// Alone, every commit flushes: the page it shares with the previous commit, and the
// pages it added.
TEST(WalFlushGroup, ALoneCommitFlushesItsOwnWal) {
  WalFlushGroup group;
  Flushes flushes;
  auto flush = [&](const auto& r) { return flushes.Flush(r); };
  bool led = false;
  const AccessOutcome o = group.Commit(Adds(0), flush, &led);
  EXPECT_TRUE(led);
  EXPECT_EQ(o.member_requests, 2);  // One write and the fsync.
  group.Commit(Adds(2), flush, &led);
  EXPECT_TRUE(led);
  const auto seen = flushes.seen();
  ASSERT_EQ(seen.size(), 2u);
  ASSERT_EQ(seen[0].size(), 1u);
  EXPECT_EQ(seen[0][0].file, 7u);
  EXPECT_EQ(seen[0][0].begin, 0);
  EXPECT_EQ(seen[0][0].end, kPage);
  ASSERT_EQ(seen[1].size(), 1u);
  EXPECT_EQ(seen[1][0].begin, 0);  // The partly filled page again, then two new ones.
  EXPECT_EQ(seen[1][0].end, 3 * kPage);
  EXPECT_EQ(group.commits(), 2u);
  EXPECT_EQ(group.flushes(), 2u);
}

// Commits that arrive while a flush is in progress wait for it, then one of them
// flushes for both: three commits, two flushes, the second writing from the first
// flush's last page to the end of what both later commits added, in one write.
TEST(WalFlushGroup, CommitsDuringAFlushShareTheNext) {
  WalFlushGroup group;
  Flushes flushes;
  std::atomic<bool> in_first{false}, release{false};
  auto first_flush = [&](const std::vector<WalRange>& r) {
    in_first = true;
    EXPECT_TRUE(PollUntil([&] { return release.load(); }));
    return flushes.Flush(r);
  };
  auto flush = [&](const std::vector<WalRange>& r) { return flushes.Flush(r); };
  bool led_a = false, led_b = false, led_c = false;
  std::thread a([&] { group.Commit(Adds(1), first_flush, &led_a); });
  ASSERT_TRUE(PollUntil([&] { return in_first.load(); }));
  std::thread b([&] { group.Commit(Adds(1), flush, &led_b); });
  std::thread c([&] { group.Commit(Adds(2), flush, &led_c); });
  // Both inserted (and waiting for the lock) before the first flush ends.
  EXPECT_TRUE(PollUntil([&] { return group.commits() == 3; }));
  release = true;
  a.join();
  b.join();
  c.join();
  EXPECT_TRUE(led_a);
  EXPECT_NE(led_b, led_c);  // One led the second flush, the other found itself in it.
  EXPECT_EQ(group.flushes(), 2u);
  const auto seen = flushes.seen();
  ASSERT_EQ(seen.size(), 2u);
  ASSERT_EQ(seen[0].size(), 1u);
  EXPECT_EQ(seen[0][0].end, 2 * kPage);
  ASSERT_EQ(seen[1].size(), 1u);
  EXPECT_EQ(seen[1][0].begin, kPage);
  EXPECT_EQ(seen[1][0].end, 5 * kPage);
}

// A flush past the end of the WAL file goes on at its start: two writes.
TEST(WalFlushGroup, AFlushWrapsRoundTheWalFile) {
  WalFlushGroup group;
  Flushes flushes;
  auto flush = [&](const auto& r) { return flushes.Flush(r); };
  bool led = false;
  group.Commit(Adds(14), flush, &led);  // Pages 0..14 of 16.
  group.Commit(Adds(3), flush, &led);   // Pages 14..17: 14, 15, then 0 and 1.
  const auto seen = flushes.seen();
  ASSERT_EQ(seen.size(), 2u);
  ASSERT_EQ(seen[1].size(), 2u);
  EXPECT_EQ(seen[1][0].begin, 14 * kPage);
  EXPECT_EQ(seen[1][0].end, kWalFileBytes);
  EXPECT_EQ(seen[1][1].begin, 0);
  EXPECT_EQ(seen[1][1].end, 2 * kPage);
}

}  // namespace
}  // namespace pgstorsim
