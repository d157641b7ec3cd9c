#include "model/least_squares.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/random.h"

namespace pgstorsim {
namespace {

TEST(LevenbergMarquardt, RecoversExponentialDecayParameters) {
  // y = a exp(-b t) + c with small deterministic noise.
  const double a = 3.0, b = 0.7, c = 0.5;
  Random rng(42);
  std::vector<double> t, y;
  for (int i = 0; i < 40; ++i) {
    t.push_back(0.25 * i);
    y.push_back(a * std::exp(-b * t.back()) + c + 0.002 * (rng.UniformDouble() - 0.5));
  }
  auto f = [&](const std::vector<double>& p) {
    std::vector<double> r;
    for (size_t i = 0; i < t.size(); ++i) r.push_back(p[0] * std::exp(-p[1] * t[i]) + p[2] - y[i]);
    return r;
  };
  auto fit = LevenbergMarquardt(f, {1, 0.1, 0}, {0, 0, -5}, {10, 5, 5});
  ASSERT_TRUE(fit.ok());
  EXPECT_TRUE(fit->converged);
  EXPECT_NEAR(fit->params[0], a, 0.01);
  EXPECT_NEAR(fit->params[1], b, 0.01);
  EXPECT_NEAR(fit->params[2], c, 0.01);
  for (double se : fit->standard_errors) {
    EXPECT_GT(se, 0);
    EXPECT_LT(se, 0.01);
  }
}

TEST(LevenbergMarquardt, RespectsBounds) {
  auto f = [](const std::vector<double>& p) { return std::vector<double>{p[0] - 5.0}; };
  auto fit = LevenbergMarquardt(f, {1}, {0}, {2});
  ASSERT_TRUE(fit.ok());
  EXPECT_NEAR(fit->params[0], 2.0, 1e-9);
}

TEST(LevenbergMarquardt, RejectsMismatchedBounds) {
  auto f = [](const std::vector<double>& p) { return p; };
  EXPECT_FALSE(LevenbergMarquardt(f, {1, 2}, {0}, {3, 3}).ok());
}

}  // namespace
}  // namespace pgstorsim
