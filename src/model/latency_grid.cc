// Latency distributions on a grid (latency_grid.h).
#include "model/latency_grid.h"

#include <algorithm>
#include <cmath>
#include <unsupported/Eigen/SpecialFunctions>
#include <utility>
#include <vector>

namespace pgstorsim::latency_grid {
namespace {

constexpr double kTailMass = 1e-5;  // The grid reaches each part's 1 - kTailMass quantile.

// A value the part exceeds with probability below kTailMass (a bound, not a quantile).
double PartReach(const Part& p) {
  if (p.n == 0) return 0;
  const double tail =
      p.wait_ms > 0 ? p.wait_ms / p.busy * std::log(std::max(1.0, p.busy * p.n / kTailMass)) : 0;
  return p.n * (p.service_ms + tail);
}

// P(wait <= w) given that the part waits: a gamma of mean `mean_ms`, shape 1 / scv.
double WaitCdf(const Part& p, double mean_ms, double w) {
  if (p.scv >= 1) return 1 - std::exp(-w / mean_ms);
  const double shape = 1 / p.scv;
  return Eigen::numext::igamma(shape, w * shape / mean_ms);  // Regularised P(a, x).
}

using Pmf = std::vector<double>;  // Mass at bin i stands for i x step.

// (a * b), truncated to kBins (mass beyond lands in the last bin).
Pmf Convolve(const Pmf& a, const Pmf& b) {
  Pmf out(kBins, 0.0);
  size_t last_a = a.size(), last_b = b.size();
  while (last_a > 0 && a[last_a - 1] < 1e-15) --last_a;
  while (last_b > 0 && b[last_b - 1] < 1e-15) --last_b;
  for (size_t i = 0; i < last_a; ++i) {
    if (a[i] < 1e-15) continue;
    for (size_t j = 0; j < last_b; ++j) out[std::min<size_t>(i + j, kBins - 1)] += a[i] * b[j];
  }
  return out;
}

Pmf Delta() {
  Pmf d(kBins, 0.0);
  d[0] = 1;
  return d;
}

// One visit: the service shifted wait. Mass of bin i = P(value rounds to i x step).
Pmf VisitPmf(const Part& p, double step) {
  auto cdf = [&](double t) {
    const double w = t - p.service_ms;
    if (w < 0) return 0.0;
    if (!(p.wait_ms > 0)) return 1.0;
    return 1 - p.busy * (1 - WaitCdf(p, p.wait_ms / p.busy, w));
  };
  Pmf pmf(kBins, 0.0);
  double below = 0;
  for (int i = 0; i < kBins; ++i) {
    const double upto = i + 1 == kBins ? 1.0 : cdf((i + 0.5) * step);
    pmf[i] = upto - below;
    below = upto;
  }
  return pmf;
}

// The part's mass: sum over k of Binomial(n, q)(k) x visit^{*k}.
Pmf PartPmf(const Part& p, double step) {
  if (p.n == 0) return Delta();
  const Pmf visit = VisitPmf(p, step);
  Pmf out(kBins, 0.0), power = Delta();
  for (int k = 0; k <= p.n; ++k) {
    if (k > 0) power = Convolve(power, visit);
    const double weight =
        std::exp(std::lgamma(p.n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(p.n - k + 1.0)) *
        std::pow(p.q, k) * std::pow(1 - p.q, p.n - k);
    for (int i = 0; i < kBins; ++i) out[i] += weight * power[i];
  }
  return out;
}

// K stalls of exactly `ms` each are added, K Poisson of mean `mean`: rare independent
// events (a commit's own stall, a row-lock wait behind a stalled holder), so a share
// 1 - e^-mean waits in at least one, and where they are frequent (many clients) the
// stalls still add up to the parts' mean wait.
struct StallMix {
  double mean = 0, ms = 0;
  // P(K = k) for k = 0..: the terms up to where the rest is below 1e-9.
  std::vector<double> Counts() const {
    std::vector<double> pk{std::exp(-mean)};
    double rest = 1 - pk[0];
    while (rest > 1e-9 && pk.size() < 4096) {
      pk.push_back(pk.back() * mean / static_cast<double>(pk.size()));
      rest -= pk.back();
    }
    return pk;
  }
};

// The parts' stalls as one: they share one duration (a commit queued for cache room
// behind the OS's writes, or without a write-back cache its wait in checkpoint bursts;
// a shape has one or the other), and their mean counts add.
StallMix StallsOf(const std::vector<Part>& parts) {
  StallMix stall;
  for (const Part& p : parts) {
    if (!p.stall) continue;
    stall.mean += p.busy;
    stall.ms = p.wait_ms / p.busy;
  }
  return stall;
}

// P(K = k) for k = 0.. of `stall` (one term, 1, without stalls).
std::vector<double> CountsOf(const StallMix& stall) {
  return stall.mean > 0 ? stall.Counts() : std::vector<double>{1.0};
}

constexpr int kBisections = 60;

double CdfAt(const Mixture& mix, double v) {
  double cdf = 0;
  for (const auto& [share, d] : mix) cdf += share * d.CdfAt(v);
  return cdf;
}

// The values below which `fractions[first, last)` (ascending) of the mixture's mass lie,
// into out[first, last): each by bisection of [lo, hi] from iteration `it` on down to
// `tolerance`. The fractions that take the same halves share the CDF evaluations, so each
// value is the one its own bisection gives, at one evaluation per distinct interval.
void Bisect(const Mixture& mix, const std::vector<double>& fractions, size_t first, size_t last,
            double lo, double hi, int it, double tolerance, std::vector<double>* out) {
  if (first == last) return;
  if (it >= kBisections || !(hi - lo > tolerance)) {
    for (size_t i = first; i < last; ++i) (*out)[i] = (lo + hi) / 2;
    return;
  }
  const double mid = (lo + hi) / 2;
  const double cdf = CdfAt(mix, mid);
  // A fraction above the CDF at mid lies in the upper half; the others in the lower.
  const auto begin = fractions.begin();
  const size_t split =
      static_cast<size_t>(std::upper_bound(begin + static_cast<std::ptrdiff_t>(first),
                                           begin + static_cast<std::ptrdiff_t>(last), cdf) -
                          begin);
  Bisect(mix, fractions, first, split, lo, mid, it + 1, tolerance, out);
  Bisect(mix, fractions, split, last, mid, hi, it + 1, tolerance, out);
}

}  // namespace

Part Stall(double mean_ms, double length_ms) {
  Part p;
  p.n = 1;
  p.q = 1;
  p.wait_ms = mean_ms;
  p.busy = mean_ms / length_ms;
  p.stall = true;
  return p;
}

double MeanStalls(const std::vector<Part>& parts) { return StallsOf(parts).mean; }

Distribution::Distribution(const std::vector<double>& pmf, double step, double stall_ms,
                           std::vector<double> counts, double span, double fixed_ms)
    : step_(step),
      stall_ms_(stall_ms),
      counts_(std::move(counts)),
      span_(span + static_cast<double>(counts_.size()) * stall_ms),
      fixed_ms_(fixed_ms),
      below_(kBins + 1, 0.0) {
  for (int i = 0; i < kBins; ++i) below_[i + 1] = below_[i] + pmf[i];
}

double Distribution::Cdf(double t) const {
  double cdf = counts_[0] * BinsUpTo(t);
  // A value delayed by k >= 1 stalls is its bin's centre (bin 0: step / 4) + k stalls.
  for (size_t k = 1; k < counts_.size(); ++k) {
    const double c = t - static_cast<double>(k) * stall_ms_;
    if (c < step_ / 4) break;
    cdf +=
        counts_[k] * below_[static_cast<int>(std::min<double>(kBins, 1 + std::floor(c / step_)))];
  }
  return cdf;
}
double Distribution::BinsUpTo(double t) const {
  if (t <= 0) return 0;
  if (t < step_ / 2) return below_[1] * t / (step_ / 2);
  const double x = t / step_ + 0.5;  // Bin i covers x in [i, i + 1).
  if (x >= kBins) return below_[kBins];
  const int i = static_cast<int>(x);
  return below_[i] + (below_[i + 1] - below_[i]) * (x - i);
}

Distribution DistributionOf(const std::vector<Part>& parts, double fixed_ms) {
  const StallMix stall = StallsOf(parts);
  double reach = 0;
  for (const Part& p : parts) {
    if (!p.stall) reach += PartReach(p);
  }
  if (!(reach > 0) && !(stall.mean > 0))
    return Distribution(Delta(), 1e-12, stall.ms, CountsOf(stall), 0, fixed_ms);
  const double step = reach > 0 ? reach / (kBins - 1) : 1e-12;  // Else one atom at 0.
  Pmf total = Delta();
  for (const Part& p : parts) {
    if (p.n > 0 && !p.stall) total = Convolve(total, PartPmf(p, step));
  }
  return Distribution(total, step, stall.ms, CountsOf(stall), reach, fixed_ms);
}

std::vector<double> QuantilesAt(const Mixture& mix, const std::vector<double>& fractions) {
  double lo = mix.front().second.lowest(), hi = mix.front().second.highest();
  for (const auto& [share, d] : mix) lo = std::min(lo, d.lowest()), hi = std::max(hi, d.highest());
  std::vector<double> out(fractions.size());
  Bisect(mix, fractions, 0, fractions.size(), lo, hi, 0, 1e-6 * (hi - lo), &out);
  return out;
}

}  // namespace pgstorsim::latency_grid
