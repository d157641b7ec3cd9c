#include "device/throttle_slice.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(ThrottleSliceTest, SliceIsTheKernelsRotationalSlice) {
  EXPECT_EQ(kThrottleSliceNs, 100'000'000);  // DFL_THROTL_SLICE_HD = HZ / 10.
}

TEST(ThrottleSliceTest, BudgetIsWholeIosPerSlice) {
  EXPECT_EQ(ThrottleSliceBudget(150), 15);
  EXPECT_EQ(ThrottleSliceBudget(600), 60);
  EXPECT_EQ(ThrottleSliceBudget(155), 15);  // The kernel's integer floor.
  EXPECT_EQ(ThrottleSliceBudget(19.9), 1);
}

TEST(ThrottleSliceTest, BudgetIsAtLeastOneIo) {
  EXPECT_EQ(ThrottleSliceBudget(5), 1);
  EXPECT_EQ(ThrottleSliceBudget(0.5), 1);
}

}  // namespace
}  // namespace pgstorsim
