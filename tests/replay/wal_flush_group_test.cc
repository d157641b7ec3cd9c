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

const Volume* const kVolume = reinterpret_cast<const Volume*>(0x1000);

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

TEST(WalFlushGroup, ALoneCommitFlushesItsOwnWal) {
  WalFlushGroup group;
  Flushes flushes;
  bool led = false;
  const AccessOutcome o = group.Commit(
      {{kVolume, 0, 8192}}, [&](const auto& r) { return flushes.Flush(r); }, &led);
  EXPECT_TRUE(led);
  EXPECT_EQ(o.member_requests, 2);  // One write and the fsync.
  ASSERT_EQ(flushes.seen().size(), 1u);
  EXPECT_EQ(flushes.seen()[0][0].begin, 0);
  EXPECT_EQ(flushes.seen()[0][0].end, 8192);
  EXPECT_EQ(group.commits(), 1u);
  EXPECT_EQ(group.flushes(), 1u);
}

// Commits that arrive while a flush is in progress wait for it, then one of them
// flushes for both: three commits, two flushes, the second writing the two later
// commits' adjacent WAL as one range.
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
  std::thread a([&] { group.Commit({{kVolume, 0, 8192}}, first_flush, &led_a); });
  ASSERT_TRUE(PollUntil([&] { return in_first.load(); }));
  std::thread b([&] { group.Commit({{kVolume, 8192, 16384}}, flush, &led_b); });
  std::thread c([&] { group.Commit({{kVolume, 16384, 24576}}, flush, &led_c); });
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
  ASSERT_EQ(seen[1].size(), 1u);
  EXPECT_EQ(seen[1][0].begin, 8192);
  EXPECT_EQ(seen[1][0].end, 24576);
}

// Ranges that neither touch nor overlap (the WAL file wrapped, another volume) stay
// separate writes; touching and overlapping ones (a partial last page written again)
// join.
TEST(WalFlushGroup, PendingRangesJoinOnlyWhereTheyTouch) {
  WalFlushGroup group;
  Flushes flushes;
  std::atomic<bool> in_first{false}, release{false};
  auto first_flush = [&](const std::vector<WalRange>& r) {
    in_first = true;
    EXPECT_TRUE(PollUntil([&] { return release.load(); }));
    return flushes.Flush(r);
  };
  auto flush = [&](const std::vector<WalRange>& r) { return flushes.Flush(r); };
  const Volume* other = reinterpret_cast<const Volume*>(0x2000);
  bool led = false;
  std::thread a([&] { group.Commit({{kVolume, 0, 8192}}, first_flush, &led); });
  ASSERT_TRUE(PollUntil([&] { return in_first.load(); }));
  std::vector<std::thread> later;
  const std::vector<std::vector<WalRange>> commits = {
      {{kVolume, 1 << 20, (1 << 20) + 8192}},
      {{kVolume, (1 << 20) + 4096, (1 << 20) + 16384}},  // Overlaps the one above.
      {{kVolume, 0, 8192}, {other, 0, 8192}}};           // Wrapped; another volume.
  for (size_t i = 0; i < commits.size(); ++i) {
    later.emplace_back([&, i] {
      bool l = false;
      group.Commit(commits[i], flush, &l);
    });
    ASSERT_TRUE(PollUntil([&] { return group.commits() == i + 2; }));
  }
  release = true;
  a.join();
  for (std::thread& t : later) t.join();
  const auto seen = flushes.seen();
  ASSERT_EQ(seen.size(), 2u);
  ASSERT_EQ(seen[1].size(), 3u);
  int joined = 0;
  for (const WalRange& r : seen[1]) {
    if (r.volume == kVolume && r.begin == (1 << 20)) {
      EXPECT_EQ(r.end, (1 << 20) + 16384);
      ++joined;
    }
  }
  EXPECT_EQ(joined, 1);
}

}  // namespace
}  // namespace pgstorsim
