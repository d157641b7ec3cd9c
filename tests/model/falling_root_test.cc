// Regula falsi on a falling function (falling_root.h): the root to the tolerance asked,
// each stopping rule, the last evaluation as the answer, errors passed on.
#include "model/falling_root.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pgstorsim {
namespace {

// Falls on [0, 4]; root 2 (a curved function, so plain regula falsi would keep one end).
double Curved(double x) { return 8 / (1 + x * x * x) - 8.0 / 9; }

TEST(FallingRoot, FindsTheRootToTheAbsoluteTolerance) {
  std::vector<double> evaluated;
  auto f = [&](double x) -> StatusOr<double> {
    evaluated.push_back(x);
    return Curved(x);
  };
  RootStop stop;
  stop.f_abs = 1e-12;
  auto root = FallingRoot(f, 0, Curved(0), 4, Curved(4), stop);
  ASSERT_TRUE(root.ok());
  EXPECT_NEAR(*root, 2, 1e-10);
  EXPECT_EQ(*root, evaluated.back());
  EXPECT_LE(evaluated.size(), 20u);  // Illinois closes the bracket from both sides.
}

TEST(FallingRoot, StopsOnTheRelativeToleranceOrTheStepCount) {
  auto f = [](double x) -> StatusOr<double> { return Curved(x); };
  RootStop loose;
  loose.f_rel = 1e-3;
  auto coarse = FallingRoot(f, 0, Curved(0), 4, Curved(4), loose);
  ASSERT_TRUE(coarse.ok());
  EXPECT_LE(std::fabs(Curved(*coarse)), 1e-3 * *coarse);
  int calls = 0;
  RootStop one;
  one.max_steps = 1;
  auto first = FallingRoot(
      [&](double x) -> StatusOr<double> {
        ++calls;
        return Curved(x);
      },
      0, Curved(0), 4, Curved(4), one);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(calls, 1);
  // The chord's zero from (0, 8 - 8/9) to (4, 8/65 - 8/9).
  const double f0 = Curved(0), f4 = Curved(4);
  EXPECT_DOUBLE_EQ(*first, -4 * f0 / (f4 - f0));
}

TEST(FallingRoot, PassesErrorsOn) {
  auto failed = FallingRoot([](double) -> StatusOr<double> { return Status::Error("no solve"); }, 0,
                            1, 1, -1, RootStop());
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "no solve");
}

}  // namespace
}  // namespace pgstorsim
