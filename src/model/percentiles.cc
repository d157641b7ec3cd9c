// Statement and transaction latency percentiles (percentiles.h): each statement's
// random part as a probability mass on a common grid of kBins steps, convolved.
#include "model/percentiles.h"

#include <algorithm>
#include <cmath>
#include <unsupported/Eigen/SpecialFunctions>
#include <utility>
#include <vector>

namespace pgstorsim {
namespace {

constexpr int kBins = 1024;
constexpr int kMaxReads = 8;         // Reads per statement beyond this are folded in.
constexpr double kMinBusy = 0.05;    // A station's share of time busy, floored.
constexpr double kTailMass = 1e-5;   // The grid reaches each part's 1 - kTailMass quantile.
constexpr double kMaxCommands = 64;  // A wait's gamma shape is capped here (near-fixed).

// The random part of a statement: n visits, each present with probability q, each a
// fixed service plus a wait that occurs with probability `busy`, gamma-distributed of
// mean wait_ms / busy (so the wait's mean is wait_ms) and squared coefficient of
// variation `scv` (1: exponential).
struct Part {
  int n = 0;
  double q = 0;
  double service_ms = 0;
  double wait_ms = 0;
  double busy = 1;
  double scv = 1;
  bool stall = false;  // A rare stall: probability busy, exactly wait / busy long.
};

// A read's wait given that it waits, of mean `wait_ms`: exponential behind an open
// destage stream; in the saturated share, the destage commands queued ahead of it
// (wait_ms / command_ms of them, a gamma of that shape).
double ReadWaitScv(const StatementShape& s, double wait_ms) {
  const double saturated = std::clamp(s.saturated, 0.0, 1.0);
  if (!(saturated > 0) || !(s.command_ms > 0)) return 1;
  const double commands = std::clamp(wait_ms / s.command_ms, 1.0, kMaxCommands);
  return (1 - saturated) + saturated / commands;
}

// A wait of mean `mean_ms` per execution that comes as stalls exactly `length_ms`
// long: an execution waits in a Poisson number of them, mean / length on average
// (`busy` holds that mean; StallMix). REQUIRES: both > 0.
Part Stall(double mean_ms, double length_ms) {
  Part p;
  p.n = 1;
  p.q = 1;
  p.wait_ms = mean_ms;
  p.busy = mean_ms / length_ms;
  p.stall = true;
  return p;
}

// A statement's random parts: its reads (waits as above, as much of the excess as r
// reads at S / (1 - U) explain), its wait for cache room, its checkpoint-burst stalls,
// its wait for the WAL flush in progress, the rest a wait: rare stalls of `stall_ms` where the
// shape has them, else an exponential wait.
std::vector<Part> PartsOf(const StatementShape& s) {
  std::vector<Part> parts;
  double excess = std::max(0.0, s.mean_ms - s.fixed_ms);
  if (!(excess > 0)) return parts;
  if (s.reads > 1e-3) {
    Part reads;
    reads.busy = std::clamp(s.busy, kMinBusy, 1.0);
    const double residence = s.read_service_ms / std::max(1e-3, 1 - reads.busy);
    const double per_read = std::min(excess / s.reads, residence);
    reads.n = std::min(kMaxReads, static_cast<int>(std::ceil(s.reads)));
    reads.q = std::min(1.0, s.reads / reads.n);
    reads.service_ms = std::min(s.read_service_ms, per_read);
    reads.wait_ms = per_read - reads.service_ms;
    reads.scv = ReadWaitScv(s, reads.wait_ms / reads.busy);
    parts.push_back(reads);
    excess -= per_read * s.reads;
  }
  if (s.room_ms > 0 && s.room_busy > 0 && excess > 1e-9) {
    Part room;
    room.n = 1;
    room.q = 1;
    room.busy = std::min(1.0, s.room_busy);
    room.wait_ms = std::min(excess, s.room_ms);
    room.scv = 1 / std::clamp(s.room_commands, 1.0, kMaxCommands);
    parts.push_back(room);
    excess -= room.wait_ms;
  }
  if (s.burst_ms > 0 && s.burst_mean_ms > 0 && excess > 1e-9) {
    parts.push_back(Stall(std::min(excess, s.burst_mean_ms), s.burst_ms));
    excess -= parts.back().wait_ms;
  }
  if (s.flush_wait_ms > 0 && s.flush_ms > 0 && excess > 1e-9) {
    Part flush;
    flush.n = 1;
    flush.q = 1;
    flush.wait_ms = std::min(excess, s.flush_wait_ms);
    flush.busy = std::min(1.0, 2 * s.flush_wait_ms / s.flush_ms);
    flush.scv = 1.0 / 3;  // What is left of a flush: uniform over it.
    parts.push_back(flush);
    excess -= flush.wait_ms;
  }
  if (excess > 1e-9 && s.stall_ms > excess) {
    parts.push_back(Stall(excess, s.stall_ms));
  } else if (excess > 1e-9) {
    Part wait;
    wait.n = 1;
    wait.q = 1;
    wait.wait_ms = excess;
    parts.push_back(wait);
  }
  return parts;
}

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

// A grid mass (bin i spread evenly over [(i - 1/2) step, (i + 1/2) step], bin 0 over
// [0, step / 2]) mixed with the stalls (each bin's value delayed by k of them, with
// P(K = k)), shifted by `fixed_ms`; its CDF is a prefix-sum lookup. `span` is the
// grid's reach; the value lies within it plus one stall per count term.
class Distribution {
 public:
  Distribution(const Pmf& pmf, double step, const StallMix& stall, double span, double fixed_ms)
      : step_(step),
        stall_ms_(stall.ms),
        counts_(stall.mean > 0 ? stall.Counts() : std::vector<double>{1.0}),
        span_(span + static_cast<double>(counts_.size()) * stall.ms),
        fixed_ms_(fixed_ms),
        below_(kBins + 1, 0.0) {
    for (int i = 0; i < kBins; ++i) below_[i + 1] = below_[i] + pmf[i];
  }

  // P(value <= v), the fixed part included; the value lies in [lowest, highest].
  double CdfAt(double v) const { return Cdf(v - fixed_ms_); }
  double lowest() const { return fixed_ms_; }
  double highest() const { return fixed_ms_ + span_; }

 private:
  // P(random part <= t).
  double Cdf(double t) const {
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
  // Mass of the bins up to t, the bin holding t in proportion.
  double BinsUpTo(double t) const {
    if (t <= 0) return 0;
    if (t < step_ / 2) return below_[1] * t / (step_ / 2);
    const double x = t / step_ + 0.5;  // Bin i covers x in [i, i + 1).
    if (x >= kBins) return below_[kBins];
    const int i = static_cast<int>(x);
    return below_[i] + (below_[i + 1] - below_[i]) * (x - i);
  }

  double step_;
  double stall_ms_;
  std::vector<double> counts_;  // P(k stalls), k = 0..
  double span_, fixed_ms_;
  std::vector<double> below_;  // below_[i]: mass of bins 0..i-1.
};

Distribution DistributionOf(const std::vector<Part>& parts, double fixed_ms) {
  const StallMix stall = StallsOf(parts);
  double reach = 0;
  for (const Part& p : parts) {
    if (!p.stall) reach += PartReach(p);
  }
  if (!(reach > 0) && !(stall.mean > 0)) return Distribution(Delta(), 1e-12, stall, 0, fixed_ms);
  const double step = reach > 0 ? reach / (kBins - 1) : 1e-12;  // Else one atom at 0.
  Pmf total = Delta();
  for (const Part& p : parts) {
    if (p.n > 0 && !p.stall) total = Convolve(total, PartPmf(p, step));
  }
  return Distribution(total, step, stall, reach, fixed_ms);
}

// A mixture of distributions, each with its share of the mass (shares sum to 1); one
// with share 1 is that distribution.
using Mixture = std::vector<std::pair<double, Distribution>>;

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

// The values below which `fractions` (ascending) of the mixture's mass lie.
std::vector<double> QuantilesAt(const Mixture& mix, const std::vector<double>& fractions) {
  double lo = mix.front().second.lowest(), hi = mix.front().second.highest();
  for (const auto& [share, d] : mix) lo = std::min(lo, d.lowest()), hi = std::max(hi, d.highest());
  std::vector<double> out(fractions.size());
  Bisect(mix, fractions, 0, fractions.size(), lo, hi, 0, 1e-6 * (hi - lo), &out);
  return out;
}

LatencyPercentiles Percentiles(const Mixture& mix) {
  const std::vector<double> q = QuantilesAt(mix, {0.50, 0.95, 0.99});
  return {q[0], q[1], q[2]};
}

std::vector<double> Quantiles(const Mixture& mix, int n) {
  std::vector<double> fractions(n);
  for (int k = 1; k <= n; ++k) fractions[k - 1] = (k - 0.5) / n;
  return QuantilesAt(mix, fractions);
}

Mixture One(Distribution d) { return {{1.0, std::move(d)}}; }

Mixture MixtureOf(const std::vector<std::pair<double, StatementShape>>& shapes) {
  Mixture mix;
  for (const auto& [share, shape] : shapes) {
    if (share > 0) mix.emplace_back(share, DistributionOf(PartsOf(shape), shape.fixed_ms));
  }
  return mix;
}

// The transaction's parts: every statement's, its statements independent.
std::vector<Part> TransactionParts(const std::map<std::string, StatementShape>& shapes) {
  std::vector<Part> parts;
  for (const auto& [name, shape] : shapes) {
    for (const Part& p : PartsOf(shape)) parts.push_back(p);
  }
  return parts;
}

double TransactionFixedMs(const std::map<std::string, StatementShape>& shapes) {
  double fixed_ms = 0;
  for (const auto& [name, shape] : shapes) fixed_ms += shape.fixed_ms;
  return fixed_ms;
}

}  // namespace

LatencyPercentiles StatementPercentiles(const StatementShape& shape) {
  return Percentiles(One(DistributionOf(PartsOf(shape), shape.fixed_ms)));
}

LatencyPercentiles TransactionPercentiles(const std::map<std::string, StatementShape>& shapes) {
  return Percentiles(One(DistributionOf(TransactionParts(shapes), TransactionFixedMs(shapes))));
}

std::vector<double> StatementQuantiles(const StatementShape& shape, int n) {
  return Quantiles(One(DistributionOf(PartsOf(shape), shape.fixed_ms)), n);
}

std::vector<double> TransactionQuantiles(const std::map<std::string, StatementShape>& shapes,
                                         int n) {
  return Quantiles(One(DistributionOf(TransactionParts(shapes), TransactionFixedMs(shapes))), n);
}

double StalledShare(const std::map<std::string, StatementShape>& shapes) {
  return 1 - std::exp(-StallsOf(TransactionParts(shapes)).mean);
}

LatencyPercentiles MixturePercentiles(
    const std::vector<std::pair<double, StatementShape>>& shapes) {
  const Mixture mix = MixtureOf(shapes);
  return mix.empty() ? LatencyPercentiles{} : Percentiles(mix);
}

std::vector<double> MixtureQuantiles(const std::vector<std::pair<double, StatementShape>>& shapes,
                                     int n) {
  const Mixture mix = MixtureOf(shapes);
  return mix.empty() ? std::vector<double>(n, 0.0) : Quantiles(mix, n);
}

std::vector<std::pair<double, StatementShape>> RequestMix(const Prediction& prediction) {
  std::vector<std::pair<double, StatementShape>> mix;
  for (const auto& [name, shape] : prediction.statement_shapes) {
    auto share = prediction.statement_shares.find(name);
    mix.emplace_back(share == prediction.statement_shares.end() ? 0 : share->second, shape);
  }
  return mix;
}

}  // namespace pgstorsim
