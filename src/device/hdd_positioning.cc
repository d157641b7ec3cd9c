#include "device/hdd_positioning.h"

#include <algorithm>
#include <cmath>
#include <vector>

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

}  // namespace pgstorsim
