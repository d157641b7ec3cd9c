// Levenberg-Marquardt non-linear least squares with a numeric (forward-difference)
// Jacobian, on Eigen (kept out of this header).
//
// Minimises sum_i r_i(p)^2 over parameters p within [lower, upper] bounds (projected
// steps). Residuals should be scaled by the caller (e.g. relative errors). Reports the
// parameter standard errors from (J^T J)^-1 * s^2 (s: LeastSquaresOptions); NaN where
// J^T J is singular (callers fit identifiable parameters only: AnalyseIdentifiability).
// Thread safety: pure; the residual function is called serially.
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
  // The residuals' own error (same units as the residuals) below which the fit's
  // scatter is not believed: s = max(sqrt(SSR / (m - n)), floor), and s = floor when
  // m == n (an exact fit says nothing about the scatter). 0 = the residuals only.
  double residual_sigma_floor = 0;
};

struct LeastSquaresResult {
  std::vector<double> params;
  std::vector<double> residuals;
  std::vector<double> standard_errors;  // NaN where not identifiable.
  double cost = 0;                      // Sum of squared residuals.
  int iterations = 0;
  bool converged = false;
};

// Which parameters the residuals can tell apart at `params`: a column-pivoted QR of the
// Jacobian whose column k is scaled by scale[k] (a parameter's typical size, so units
// do not matter). Columns in pivot order (the largest independent effect first);
// `independent_effect[k]` is the part of column k that the columns before it in `order`
// do not explain (|R_kk|), relative to the first column's (the strongest); `rank` counts
// the columns whose independent effect exceeds `tolerance`; `column_norm[k]` is the
// scaled column's norm (0: moves no residual).
struct Identifiability {
  int rank = 0;
  std::vector<int> order;
  std::vector<double> independent_effect;
  std::vector<double> column_norm;
};
Identifiability AnalyseIdentifiability(const ResidualFunction& f, const std::vector<double>& params,
                                       const std::vector<double>& lower,
                                       const std::vector<double>& upper,
                                       const std::vector<double>& scale, double tolerance,
                                       const LeastSquaresOptions& options = {});

// REQUIRES: initial, lower, upper have equal sizes; lower <= initial <= upper.
StatusOr<LeastSquaresResult> LevenbergMarquardt(const ResidualFunction& f,
                                                const std::vector<double>& initial,
                                                const std::vector<double>& lower,
                                                const std::vector<double>& upper,
                                                const LeastSquaresOptions& options = {});

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_LEAST_SQUARES_H_
