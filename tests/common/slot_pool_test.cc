#include "common/slot_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace pgstorsim {
namespace {

TEST(SlotPool, AppendsWhenNothingIsFree) {
  SlotPool<int> pool;
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_EQ(pool.Acquire(), 0u);
  EXPECT_EQ(pool.Acquire(), 1u);
  EXPECT_EQ(pool.Acquire(), 2u);
  EXPECT_EQ(pool.size(), 3u);
  EXPECT_EQ(pool.free_count(), 0u);
  EXPECT_EQ(pool[0], 0);  // New entries are value-initialized.
}

TEST(SlotPool, ReusesReleasedSlotsLastInFirstOut) {
  SlotPool<int> pool;
  for (int i = 0; i < 5; ++i) pool.Acquire();
  pool.Release(1);
  pool.Release(3);
  pool.Release(0);
  EXPECT_EQ(pool.free_count(), 3u);
  EXPECT_EQ(pool.Acquire(), 0u);
  EXPECT_EQ(pool.Acquire(), 3u);
  pool.Release(4);
  EXPECT_EQ(pool.Acquire(), 4u);
  EXPECT_EQ(pool.Acquire(), 1u);
  // Free list empty again: the next slot is a new one at the end.
  EXPECT_EQ(pool.free_count(), 0u);
  EXPECT_EQ(pool.Acquire(), 5u);
  EXPECT_EQ(pool.size(), 6u);
}

TEST(SlotPool, AcquiredSlotKeepsOldContentsAndEntriesAreAddressable) {
  SlotPool<std::vector<int>> pool;
  const uint32_t a = pool.Acquire();
  pool[a] = {1, 2, 3};
  pool.Release(a);
  const uint32_t b = pool.Acquire();
  ASSERT_EQ(b, a);
  EXPECT_EQ(pool[b], (std::vector<int>{1, 2, 3}));  // Caller overwrites; pool does not reset.
  const SlotPool<std::vector<int>>& view = pool;
  EXPECT_EQ(view[b].size(), 3u);
}

// Over a random sequence of acquires and releases, the pool gives the slots a plain
// free list gives (a vector of free indices, back reused first, else append).
TEST(SlotPool, MatchesReferenceFreeListOnMixedSequence) {
  SlotPool<int> pool;
  std::vector<uint32_t> ref_free;
  uint32_t ref_size = 0;
  std::vector<uint32_t> live;
  uint64_t state = 12345;
  for (int step = 0; step < 10000; ++step) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const bool release = !live.empty() && (state >> 33) % 3 == 0;
    if (release) {
      const size_t k = static_cast<size_t>((state >> 40) % live.size());
      const uint32_t slot = live[k];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      pool.Release(slot);
      ref_free.push_back(slot);
    } else {
      uint32_t expected;
      if (!ref_free.empty()) {
        expected = ref_free.back();
        ref_free.pop_back();
      } else {
        expected = ref_size++;
      }
      const uint32_t got = pool.Acquire();
      ASSERT_EQ(got, expected) << "step " << step;
      live.push_back(got);
    }
  }
  EXPECT_EQ(pool.size(), ref_size);
  EXPECT_EQ(pool.free_count(), ref_free.size());
}

}  // namespace
}  // namespace pgstorsim
