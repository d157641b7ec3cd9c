#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "common/random.h"

namespace pgstorsim {
namespace {

// SkipUniformInt leaves the stream where UniformInt leaves it, for a small range, the
// full 64-bit range (one draw, no rejection) and a range of 2^63 values, where half
// of the draws are rejected and drawn again.
TEST(RandomSkipTest, SkipUniformIntAdvancesLikeUniformInt) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t ranges[][2] = {{1, 200000000}, {-5000, 5000}, {kMin, kMax}, {0, kMax}, {7, 7}};
  for (const auto& range : ranges) {
    Random drawn(11), skipped(11);
    for (int i = 0; i < 2000; ++i) {
      drawn.UniformInt(range[0], range[1]);
      skipped.SkipUniformInt(range[0], range[1]);
      ASSERT_EQ(drawn.Next(), skipped.Next())
          << "range [" << range[0] << ", " << range[1] << "], draw " << i;
    }
  }
}

// The 2^63-value range really rejects draws (the loop above covers that path): 200
// calls take more than 200 draws.
TEST(RandomSkipTest, HalfRangeRejectsDraws) {
  Random r(3);
  int draws = 0;
  for (int i = 0; i < 200; ++i) {
    Random before = r;
    r.UniformInt(0, std::numeric_limits<int64_t>::max());
    for (int k = 0; k < 64; ++k) {  // Draws until `before` reaches r's state.
      before.Next();
      ++draws;
      if (Random(before).Next() == Random(r).Next()) break;
    }
  }
  EXPECT_GT(draws, 250);
}

}  // namespace
}  // namespace pgstorsim
