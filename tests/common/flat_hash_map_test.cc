#include "common/flat_hash_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>

namespace pgstorsim {
namespace {

struct IdentityHash {
  uint64_t operator()(int64_t k) const { return static_cast<uint64_t>(k); }
};
using Map = FlatHashMap<int64_t, int32_t, IdentityHash>;

TEST(FlatHashMap, FindsWhatWasInsertedAndNothingElse) {
  Map m(-1);
  EXPECT_EQ(m.Find(7), nullptr);
  bool inserted = false;
  *m.Get(7, &inserted) = 70;
  EXPECT_TRUE(inserted);
  *m.Get(7, &inserted) += 1;
  EXPECT_FALSE(inserted);
  ASSERT_NE(m.Find(7), nullptr);
  EXPECT_EQ(*m.Find(7), 71);
  EXPECT_EQ(m.Find(8), nullptr);
  EXPECT_EQ(m.size(), 1u);
  m.Erase(8);  // Absent: no effect.
  m.Erase(7);
  EXPECT_EQ(m.Find(7), nullptr);
  EXPECT_EQ(m.size(), 0u);
}

// Random inserts and erases, with keys that collide in the low and high bits, give the
// same answers as std::map at every step (backward-shift deletion keeps probe runs whole).
TEST(FlatHashMap, AgreesWithStdMapUnderChurn) {
  Map m(-1);
  std::map<int64_t, int32_t> ref;
  std::mt19937_64 rng(5);
  for (int step = 0; step < 200000; ++step) {
    const int64_t key =
        static_cast<int64_t>(rng() % 3000) * (step % 2 == 0 ? 1 : (int64_t{1} << 40));
    switch (rng() % 3) {
      case 0:
      case 1:
        *m.Get(key) = step;
        ref[key] = step;
        break;
      default:
        m.Erase(key);
        ref.erase(key);
    }
    if (step % 97 == 0) {
      const int64_t probe =
          static_cast<int64_t>(rng() % 3000) * (step % 3 == 0 ? 1 : (int64_t{1} << 40));
      const int32_t* v = m.Find(probe);
      auto it = ref.find(probe);
      ASSERT_EQ(v != nullptr, it != ref.end()) << "step " << step << " key " << probe;
      if (v != nullptr) {
        ASSERT_EQ(*v, it->second);
      }
    }
  }
  ASSERT_EQ(m.size(), ref.size());
  for (const auto& [k, v] : ref) {
    ASSERT_NE(m.Find(k), nullptr) << k;
    EXPECT_EQ(*m.Find(k), v);
  }
}

TEST(FlatHashMap, ClearEmptiesAndTheMapIsReusable) {
  Map m(-1);
  for (int64_t k = 0; k < 1000; ++k) *m.Get(k) = 1;
  m.Clear();
  EXPECT_EQ(m.size(), 0u);
  for (int64_t k = 0; k < 1000; ++k) EXPECT_EQ(m.Find(k), nullptr);
  *m.Get(5) = 2;
  EXPECT_EQ(*m.Find(5), 2);
}

// A table past the allocator's 2 MiB (huge-page) threshold, reached by growth from
// small tables and by Reserve, holds every entry, erases and clears like a small one;
// Prefetch changes nothing.
TEST(FlatHashMap, LargeTablesHoldEveryEntry) {
  Map grown(-1);
  Map reserved(-1);
  reserved.Reserve(300000);  // 512 Ki slots of 16 bytes: 8 MiB.
  constexpr int64_t kEntries = 300000;
  for (int64_t k = 0; k < kEntries; ++k) {
    grown.Prefetch(k * 7);
    *grown.Get(k * 7) = static_cast<int32_t>(k);
    *reserved.Get(k * 7) = static_cast<int32_t>(k);
  }
  ASSERT_EQ(grown.size(), static_cast<size_t>(kEntries));
  for (int64_t k = 0; k < kEntries; k += 997) {
    ASSERT_NE(grown.Find(k * 7), nullptr) << k;
    EXPECT_EQ(*grown.Find(k * 7), k);
    ASSERT_NE(reserved.Find(k * 7), nullptr) << k;
    EXPECT_EQ(*reserved.Find(k * 7), k);
    EXPECT_EQ(grown.Find(k * 7 + 1), nullptr);
    grown.Erase(k * 7);
    EXPECT_EQ(grown.Find(k * 7), nullptr);
  }
  EXPECT_EQ(grown.size(), static_cast<size_t>(kEntries - (kEntries + 996) / 997));
  reserved.Clear();
  EXPECT_EQ(reserved.size(), 0u);
  EXPECT_EQ(reserved.Find(7), nullptr);
  reserved.Prefetch(7);
  EXPECT_EQ(reserved.size(), 0u);
}

// Prefetch on an empty map (no slots yet) is allowed and inserts nothing.
TEST(FlatHashMap, PrefetchOfAnEmptyMapInsertsNothing) {
  Map m(-1);
  m.Prefetch(42);
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.Find(42), nullptr);
}

// Arrays from 128 KiB are 2 MiB-aligned (offered for huge pages); smaller ones are
// ordinary allocations. Both are usable over their whole length.
TEST(SlotAllocator, ArraysFrom128KiBAreAlignedTo2MiB) {
  SlotAllocator<uint64_t> alloc;
  const size_t big = (size_t{128} << 10) / sizeof(uint64_t);
  uint64_t* p = alloc.allocate(big);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (size_t{2} << 20), 0u);
  for (size_t i = 0; i < big; ++i) p[i] = i;
  EXPECT_EQ(p[big - 1], big - 1);
  alloc.deallocate(p, big);
  uint64_t* small = alloc.allocate(16);
  for (size_t i = 0; i < 16; ++i) small[i] = i;
  EXPECT_EQ(small[15], 15u);
  alloc.deallocate(small, 16);
}

// A table whose slots take 128 KiB or more is in 2 MiB allocations and uses all of the
// slots one holds (a power of two): 24-byte slots grow from 4096 straight to 65536 (1.5
// MiB), and every entry is still found.
TEST(FlatHashMap, ATableInHugePagesUsesTheirWholeSize) {
  struct Value24 {
    int64_t a = 0;
    int64_t b = 0;
  };
  FlatHashMap<int64_t, Value24, IdentityHash> m(-1);
  for (int64_t k = 0; k < 3072; ++k) m.Get(k)->a = k;
  EXPECT_EQ(m.slot_count(), 4096u);  // 96 KiB: an ordinary allocation.
  m.Get(3072)->a = 3072;
  EXPECT_EQ(m.slot_count(), 65536u);
  for (int64_t k = 3073; k < 49152; ++k) m.Get(k)->a = k;
  EXPECT_EQ(m.slot_count(), 65536u);
  for (int64_t k = 0; k < 49152; ++k) ASSERT_EQ(m.Find(k)->a, k);
  m.Get(49152);
  EXPECT_EQ(m.slot_count(), 131072u);  // 3 MiB: two huge pages' 4 MiB hold no more.
}

}  // namespace
}  // namespace pgstorsim
