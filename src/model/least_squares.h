// Levenberg-Marquardt non-linear least squares with a numeric (forward-difference)
// Jacobian, on Eigen (kept out of this header).
//
// Minimises sum_i r_i(p)^2 over parameters p within [lower, upper] bounds (projected
// steps). Residuals should be scaled by the caller (e.g. relative errors). Reports the
// parameter standard errors from (J^T J)^-1 * s^2, s^2 = SSR / max(1, m - n) (when m > n;
// when m <= n the standard errors use s^2 = SSR / 1 and are marked not identifiable if
// J^T J is singular). Thread safety: pure; the residual function is called serially.
#ifndef PGSTORSIM_MODEL_LEAST_SQUARES_H_
#define PGSTORSIM_MODEL_LEAST_SQUARES_H_

#include <functional>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

using ResidualFunction = std::function<std::vector<double>(const std::vector<double>& params)>;

struct LeastSquaresOptions {
  int max_iterations = 200;
  double tolerance = 1e-10;     // On the relative change of the cost.
  double relative_step = 1e-5;  // Finite-difference step, relative to |p| (min 1e-8).
};

struct LeastSquaresResult {
  std::vector<double> params;
  std::vector<double> residuals;
  std::vector<double> standard_errors;  // NaN where not identifiable.
  double cost = 0;                      // Sum of squared residuals.
  int iterations = 0;
  bool converged = false;
};

// REQUIRES: initial, lower, upper have equal sizes; lower <= initial <= upper.
StatusOr<LeastSquaresResult> LevenbergMarquardt(const ResidualFunction& f,
                                                const std::vector<double>& initial,
                                                const std::vector<double>& lower,
                                                const std::vector<double>& upper,
                                                const LeastSquaresOptions& options = {});

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_LEAST_SQUARES_H_
