#include "device/hdd_positioning.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/units.h"

namespace pgstorsim {
namespace {

// Integration steps per turn of the disk.
constexpr int kStepsPerTurn = 512;

// E[min] over the first `count` candidates (count >= 1).
double EarliestOfMs(const HddSeekCurve& c, double gap_bytes, int count) {
  const double turn = c.rotation_ms();
  double deterministic_ms = -1;  // The nearest candidate within the track, if any.
  std::vector<double> seeks;     // Candidates beyond the track.
  for (int i = 1; i <= count; ++i) {
    const double distance = i * gap_bytes;
    if (distance <= static_cast<double>(c.track_bytes())) {
      if (deterministic_ms < 0) deterministic_ms = turn * distance / c.track_bytes();
    } else {
      seeks.push_back(c.SeekMs(distance));
    }
  }
  if (seeks.empty()) return deterministic_ms;
  double end = *std::max_element(seeks.begin(), seeks.end()) + turn;
  if (deterministic_ms >= 0) end = std::min(end, deterministic_ms);
  const double dt = turn / kStepsPerTurn;
  // P(no candidate reached by t) = product over the far candidates of
  // P(seek + U x turn > t), U uniform on [0, 1).
  auto survival = [&](double t) {
    double p = 1;
    for (double s : seeks) {
      if (t > s) p *= std::max(0.0, 1 - (t - s) / turn);
    }
    return p;
  };
  double sum = 0;
  double prev = survival(0);
  for (double t = dt; t < end + dt / 2; t += dt) {
    const double now = survival(std::min(t, end));
    sum += (prev + now) / 2 * (std::min(t, end) - (t - dt));
    prev = now;
  }
  return sum;
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
