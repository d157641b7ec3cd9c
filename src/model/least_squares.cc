#include "model/least_squares.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

namespace pgstorsim {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

VectorXd Eval(const ResidualFunction& f, const VectorXd& p) {
  std::vector<double> r = f(std::vector<double>(p.data(), p.data() + p.size()));
  return Eigen::Map<VectorXd>(r.data(), static_cast<Eigen::Index>(r.size()));
}

VectorXd Clamp(VectorXd p, const VectorXd& lo, const VectorXd& hi) {
  return p.cwiseMax(lo).cwiseMin(hi);
}

MatrixXd Jacobian(const ResidualFunction& f, const VectorXd& p, const VectorXd& r0,
                  const VectorXd& lo, const VectorXd& hi, double rel_step) {
  MatrixXd j(r0.size(), p.size());
  for (Eigen::Index k = 0; k < p.size(); ++k) {
    double h = std::max(1e-8, rel_step * std::fabs(p[k]));
    VectorXd q = p;
    if (q[k] + h > hi[k]) h = -h;  // Step inward at an upper bound.
    q[k] += h;
    j.col(k) = (Eval(f, q) - r0) / h;
  }
  return j;
}

std::vector<double> StandardErrors(const MatrixXd& j, double cost, double floor) {
  const Eigen::Index m = j.rows(), n = j.cols();
  double s2 = m > n ? cost / static_cast<double>(m - n) : (floor > 0 ? 0 : cost);
  s2 = std::max(s2, floor * floor);
  MatrixXd jtj = j.transpose() * j;
  Eigen::FullPivLU<MatrixXd> lu(jtj);
  std::vector<double> se(n, std::numeric_limits<double>::quiet_NaN());
  if (!lu.isInvertible()) return se;
  MatrixXd cov = lu.inverse() * s2;
  for (Eigen::Index k = 0; k < n; ++k) se[k] = std::sqrt(std::max(0.0, cov(k, k)));
  return se;
}

}  // namespace

Identifiability AnalyseIdentifiability(const ResidualFunction& f, const std::vector<double>& params,
                                       const std::vector<double>& lower,
                                       const std::vector<double>& upper,
                                       const std::vector<double>& scale, double tolerance,
                                       const LeastSquaresOptions& options) {
  const auto n = static_cast<Eigen::Index>(params.size());
  const VectorXd p = Eigen::Map<const VectorXd>(params.data(), n);
  const VectorXd lo = Eigen::Map<const VectorXd>(lower.data(), n);
  const VectorXd hi = Eigen::Map<const VectorXd>(upper.data(), n);
  MatrixXd j = Jacobian(f, p, Eval(f, p), lo, hi, options.relative_step);
  for (Eigen::Index k = 0; k < n; ++k) j.col(k) *= scale[k];
  Identifiability out;
  out.independent_effect.assign(n, 0.0);
  out.column_norm.assign(n, 0.0);
  for (Eigen::Index k = 0; k < n; ++k) out.column_norm[k] = j.col(k).norm();
  Eigen::ColPivHouseholderQR<MatrixXd> qr(j);
  const MatrixXd r = qr.matrixR().triangularView<Eigen::Upper>();
  const Eigen::Index diag = std::min(j.rows(), n);
  const double first = diag > 0 ? std::fabs(r(0, 0)) : 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const int col = qr.colsPermutation().indices()[i];
    out.order.push_back(col);
    // |R_ii| is the part of the column the earlier pivots do not explain.
    const double independent = i < diag ? std::fabs(r(i, i)) : 0;
    out.independent_effect[col] = first > 0 ? independent / first : 0;
    if (first > 0 && independent > tolerance * first) out.rank = static_cast<int>(i) + 1;
  }
  return out;
}

StatusOr<LeastSquaresResult> LevenbergMarquardt(const ResidualFunction& f,
                                                const std::vector<double>& initial,
                                                const std::vector<double>& lower,
                                                const std::vector<double>& upper,
                                                const LeastSquaresOptions& options) {
  const size_t n = initial.size();
  if (n == 0 || lower.size() != n || upper.size() != n) {
    return Status::Error("least squares: parameter and bound vectors differ in size");
  }
  VectorXd lo = Eigen::Map<const VectorXd>(lower.data(), n);
  VectorXd hi = Eigen::Map<const VectorXd>(upper.data(), n);
  VectorXd p = Clamp(Eigen::Map<const VectorXd>(initial.data(), n), lo, hi);
  VectorXd r = Eval(f, p);
  if (!r.allFinite()) return Status::Error("least squares: residuals not finite at start");
  double cost = r.squaredNorm(), lambda = 1e-3;
  LeastSquaresResult out;
  for (out.iterations = 0; out.iterations < options.max_iterations; ++out.iterations) {
    MatrixXd j = Jacobian(f, p, r, lo, hi, options.relative_step);
    MatrixXd jtj = j.transpose() * j;
    VectorXd g = j.transpose() * r;
    bool improved = false;
    while (lambda < 1e12) {
      MatrixXd a = jtj;
      a.diagonal() += lambda * (jtj.diagonal().array() + 1e-12).matrix();
      VectorXd q = Clamp(p - a.ldlt().solve(g), lo, hi);
      VectorXd rq = Eval(f, q);
      double cq = rq.allFinite() ? rq.squaredNorm() : std::numeric_limits<double>::infinity();
      if (cq < cost) {
        const double rel = (cost - cq) / std::max(cost, 1e-300);
        p = q, r = rq, cost = cq, lambda = std::max(lambda / 10, 1e-12), improved = true;
        if (rel < options.tolerance) out.converged = true;
        break;
      }
      lambda *= 10;
    }
    if (!improved || out.converged || cost < 1e-30) {
      out.converged = true;
      break;
    }
  }
  MatrixXd j = Jacobian(f, p, r, lo, hi, options.relative_step);
  out.params.assign(p.data(), p.data() + n);
  out.residuals.assign(r.data(), r.data() + r.size());
  out.standard_errors = StandardErrors(j, cost, options.residual_sigma_floor);
  out.cost = cost;
  return out;
}

}  // namespace pgstorsim
