#include "device/hdd_positioning.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "common/units.h"

namespace pgstorsim {
namespace {

// Integration steps per turn of the disk.
constexpr int kStepsPerTurn = 512;

// Distance bins and time steps per turn over which the nearest candidates are integrated.
constexpr int kDistanceBins = 400;
constexpr int kDestageStepsPerTurn = 64;

// Turns y of a platter swept from angle 0 that fall within the first `u` (0..1) of a
// turn: floor(y) u + min(frac(y), u).
double TurnsWithin(double y, double u) {
  const double whole = std::floor(y);
  return whole * u + std::min(y - whole, u);
}

// base^n for n >= 0, by squaring.
double PowerOf(double base, int n) {
  double result = 1;
  for (; n > 0; n >>= 1, base *= base) {
    if (n & 1) result *= base;
  }
  return result;
}

// E[min] over the first `count` (>= 1) dirty blocks ahead of the head, the blocks a
// Poisson stream of mean spacing `gap_bytes`. A block d bytes ahead is reached after
// its seek and then the turn to its angle: it passes under the head (d mod track) /
// track of a turn after the head's place (the simulator's HddMechanics). r(d, t): the
// share of the blocks about d that are reached by t, per bin of distances exact in
// the angle (the bin sweeps a range of angles). Given the count-th at x (Gamma(count,
// gap)), the others are uniform on [0, x), so none is reached by t with chance
// (1 - R(x, t) / x)^(count - 1) (1 - r(x, t)), R the integral of r over [0, x).
double IntegrateEarliestOfMs(const HddSeekCurve& c, double gap_bytes, int count) {
  const double reach = gap_bytes * (count + 5 * std::sqrt(count) + 5);  // Gamma tail < 1e-5.
  const double dx = reach / kDistanceBins;
  const double turn = c.rotation_ms();
  const double track = static_cast<double>(c.track_bytes());
  const double sweep = dx / track;  // Turns of angle a bin spans.
  std::vector<double> weight(kDistanceBins), x(kDistanceBins), seek_ms(kDistanceBins);
  double total = 0;
  for (int j = 0; j < kDistanceBins; ++j) {
    x[j] = (j + 0.5) * dx;
    seek_ms[j] = c.SeekMs(x[j]);
    weight[j] =
        std::exp((count - 1) * std::log(x[j] / gap_bytes) - x[j] / gap_bytes - std::lgamma(count));
    total += weight[j];
  }
  auto reached = [&](int j, double t) {
    const double u = std::clamp((t - seek_ms[j]) / turn, 0.0, 1.0);
    // The angles relative to where the head lands after the seek.
    const double from = j * sweep - seek_ms[j] / turn + 1;
    return (TurnsWithin(from + sweep, u) - TurnsWithin(from, u)) / sweep;
  };
  const double negligible = total * 1e-12;  // Bins whose count-th block never matters.
  auto survival = [&](double t) {
    double p = 0, below = 0;  // below: R at the bin's start.
    for (int j = 0; j < kDistanceBins; ++j) {
      const double r = reached(j, t);
      if (weight[j] > negligible) {
        const double none_before = std::clamp(1 - (below + r * dx / 2) / x[j], 0.0, 1.0);
        p += weight[j] * PowerOf(none_before, count - 1) * (1 - r);
      }
      below += r * dx;
    }
    return p / total;
  };
  const double end = c.SeekMs(reach) + turn;  // Every candidate reached by then.
  const double dt = turn / kDestageStepsPerTurn;
  double sum = 0;
  double prev = survival(0);
  for (double t = dt; t < end + dt / 2 && prev > 1e-9; t += dt) {
    const double now = survival(t);
    sum += (prev + now) / 2 * dt;
    prev = now;
  }
  return sum;
}

// IntegrateEarliestOfMs, remembered per thread: a prediction asks for the same few
// (drive, gap, count) many times (its bands and the calibration step the parameters,
// not the geometry).
double EarliestOfMs(const HddSeekCurve& c, double gap_bytes, int count) {
  using Key = std::tuple<int64_t, int64_t, int64_t, double, double, int>;
  thread_local std::map<Key, double> known;
  const Key key{c.rotation_ns(),      c.track_bytes(), c.track_to_track_ns(),
                c.ns_per_root_byte(), gap_bytes,       count};
  auto it = known.find(key);
  if (it != known.end()) return it->second;
  if (known.size() >= 4096) known.clear();
  return known[key] = IntegrateEarliestOfMs(c, gap_bytes, count);
}

// Head positions averaged over (midpoints of the span's first half: symmetric).
constexpr int kHeadPlaces = 16;

// P(seek <= sigma) for a command uniform over [0, span] from a head at `head`:
// the distance within which the seek fits, then the share of the span that close.
double SeekFitsWithin(const HddSeekCurve& c, double span, double head, double sigma_ms) {
  if (sigma_ms < 0) return 0;
  const double track = static_cast<double>(c.track_bytes());
  const double t2t_ms = NsToMs(c.track_to_track_ns());
  const double ms_per_root = c.ns_per_root_byte() / kNsPerMs;
  double reach = track;  // Seek 0 within the track.
  if (sigma_ms >= c.SeekMs(track * 1.0000001)) {
    reach = ms_per_root > 0 ? std::pow((sigma_ms - t2t_ms) / ms_per_root, 2) : span;
  }
  const double covered = std::min(head + reach, span) - std::max(head - reach, 0.0);
  return std::clamp(covered / span, 0.0, 1.0);
}

// The survival P(command not reached by t_i) for t_i = i x dt, i = 0..steps, for a
// head at `head` (dt = turn / kStepsPerTurn).
std::vector<double> Survival(const HddSeekCurve& c, double span, double head, int steps) {
  const double turn = c.rotation_ms();
  const double dt = turn / kStepsPerTurn;
  std::vector<double> integral(steps + 1, 0);  // C(t_i), trapezoid.
  double prev = SeekFitsWithin(c, span, head, 0);
  for (int i = 1; i <= steps; ++i) {
    const double now = SeekFitsWithin(c, span, head, i * dt);
    integral[i] = integral[i - 1] + (prev + now) / 2 * dt;
    prev = now;
  }
  std::vector<double> survival(steps + 1);
  for (int i = 0; i <= steps; ++i) {
    const double behind = i >= kStepsPerTurn ? integral[i - kStepsPerTurn] : 0;
    survival[i] = std::clamp(1 - (integral[i] - behind) / turn, 0.0, 1.0);
  }
  return survival;
}

}  // namespace

HddSeekCurve::HddSeekCurve(const HddDatasheet& d)
    : rotation_ns_(static_cast<int64_t>(60e9 / d.rpm)),
      track_bytes_(static_cast<int64_t>(d.sustained_bytes_per_s * 60.0 / d.rpm)),
      track_to_track_ns_(d.track_to_track_ns),
      ns_per_root_byte_(static_cast<double>(d.avg_seek_ns - d.track_to_track_ns) * d.seek_scale /
                        std::sqrt(static_cast<double>(d.capacity_bytes) / 3.0)) {}

double HddSeekCurve::SeekMs(double distance_bytes) const {
  if (distance_bytes <= static_cast<double>(track_bytes_)) return 0;
  return (static_cast<double>(track_to_track_ns_) + ns_per_root_byte_ * std::sqrt(distance_bytes)) /
         1e6;
}

double SortedDestagePositionMs(const HddSeekCurve& curve, double gap_bytes, double depth) {
  depth = std::max(1.0, depth);
  const int below = static_cast<int>(std::floor(depth));
  const double lower = EarliestOfMs(curve, gap_bytes, below);
  const double frac = depth - below;
  if (frac <= 0) return lower;
  return lower + frac * (EarliestOfMs(curve, gap_bytes, below + 1) - lower);
}

std::vector<double> NearestOfPositionRatios(const HddSeekCurve& curve, double span_bytes,
                                            int max_candidates) {
  const int n_max = std::max(1, max_candidates);
  const double dt = curve.rotation_ms() / kStepsPerTurn;
  // Every command is reached by the longest seek plus a turn.
  const int steps =
      static_cast<int>(std::ceil((curve.SeekMs(span_bytes) + curve.rotation_ms()) / dt)) + 1;
  std::vector<double> expected(n_max, 0);  // E[earliest of n] x kHeadPlaces / dt.
  std::vector<double> power(steps + 1);
  for (int k = 0; k < kHeadPlaces; ++k) {
    const double head = (k + 0.5) / kHeadPlaces * span_bytes / 2;
    const std::vector<double> survival = Survival(curve, span_bytes, head, steps);
    std::fill(power.begin(), power.end(), 1.0);
    for (int n = 0; n < n_max; ++n) {
      double sum = 0;
      for (int i = 0; i <= steps; ++i) {
        power[i] *= survival[i];
        sum += (i == 0 || i == steps ? 0.5 : 1.0) * power[i];
      }
      expected[n] += sum;
    }
  }
  std::vector<double> ratio(n_max, 1.0);
  for (int n = 1; n < n_max; ++n) ratio[n] = expected[0] > 0 ? expected[n] / expected[0] : 1;
  return ratio;
}

double RewriteWaitMs(double turn_ms, double since_ms) {
  if (!(since_ms > 0)) return turn_ms;
  // E[Y mod turn] for Y exponential with mean `since`: since - turn / (exp(turn / since) - 1);
  // for since >> turn its series, turn / 2 + turn^2 / (12 since), without the cancellation.
  if (since_ms > 100 * turn_ms) return turn_ms / 2 + turn_ms * turn_ms / (12 * since_ms);
  return turn_ms - since_ms + turn_ms / std::expm1(turn_ms / since_ms);
}

}  // namespace pgstorsim
