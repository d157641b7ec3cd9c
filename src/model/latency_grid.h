// Latency distributions on a grid (percentiles.h's machinery): a statement's random
// parts (visits of a fixed service plus a gamma-distributed wait, and rare stalls of a
// fixed length), each as a probability mass on a common grid of kBins steps, convolved
// into one distribution; mixtures of such distributions and their quantiles.
// Units: ms. Thread safety: immutable values, pure functions.
#ifndef PGSTORSIM_MODEL_LATENCY_GRID_H_
#define PGSTORSIM_MODEL_LATENCY_GRID_H_

#include <utility>
#include <vector>

namespace pgstorsim::latency_grid {

constexpr int kBins = 1024;

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

// A wait of mean `mean_ms` per execution that comes as stalls exactly `length_ms`
// long: an execution waits in a Poisson number of them, mean / length on average
// (`busy` holds that mean). REQUIRES: both > 0.
Part Stall(double mean_ms, double length_ms);

// The mean number of stalls an execution of `parts` waits in: the stall parts' counts
// added (they share one length).
double MeanStalls(const std::vector<Part>& parts);

// The sum of independent `parts` shifted by `fixed_ms`: the non-stall parts' masses on
// a grid (bin i spread evenly over [(i - 1/2) step, (i + 1/2) step], bin 0 over
// [0, step / 2]), each value delayed by k stalls with Poisson probability; its CDF is a
// prefix-sum lookup.
class Distribution {
 public:
  // P(value <= v), the fixed part included; the value lies in [lowest, highest].
  double CdfAt(double v) const { return Cdf(v - fixed_ms_); }
  double lowest() const { return fixed_ms_; }
  double highest() const { return fixed_ms_ + span_; }

 private:
  friend Distribution DistributionOf(const std::vector<Part>& parts, double fixed_ms);
  Distribution(const std::vector<double>& pmf, double step, double stall_ms,
               std::vector<double> counts, double span, double fixed_ms);
  double Cdf(double t) const;       // P(random part <= t).
  double BinsUpTo(double t) const;  // Mass of the bins up to t, t's bin in proportion.

  double step_;
  double stall_ms_;
  std::vector<double> counts_;  // P(k stalls), k = 0..
  double span_, fixed_ms_;
  std::vector<double> below_;  // below_[i]: mass of bins 0..i-1.
};

Distribution DistributionOf(const std::vector<Part>& parts, double fixed_ms);

// A mixture of distributions, each with its share of the mass (shares sum to 1); one
// with share 1 is that distribution.
using Mixture = std::vector<std::pair<double, Distribution>>;

// The values below which `fractions` (ascending, in (0, 1)) of the mixture's mass lie,
// each by bisection to 1e-6 of the mixture's span. REQUIRES: mix non-empty.
std::vector<double> QuantilesAt(const Mixture& mix, const std::vector<double>& fractions);

}  // namespace pgstorsim::latency_grid

#endif  // PGSTORSIM_MODEL_LATENCY_GRID_H_
