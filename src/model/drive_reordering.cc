#include "model/drive_reordering.h"

#include <algorithm>
#include <cmath>

#include "device/hdd_positioning.h"
#include "model/destage_cost.h"

namespace pgstorsim {

bool DrivesReorderQueue(const Scenario& s, const ModelParams& p) {
  if (s.io.queue_depth <= 1) return false;
  if (s.disks.type != DiskType::kHdd) return true;
  const auto& values = s.calibration.values;
  return p.read_seek_scale == 1.0 && !(p.destage_position_ms > 0) &&
         !values.count("destage_position_ms") && !values.count("destage_queue_depth");
}

ReadReorderGain::ReadReorderGain(const Scenario& s, double footprint_bytes, int max_candidates)
    : ratio_(NearestOfPositionRatios(SeekCurveOf(s.disks, false, 1),
                                     std::max(1.0, MemberSpanBytes(s, footprint_bytes)),
                                     max_candidates)) {}

double ReadReorderGain::Scale(double candidates) const {
  if (!active()) return 1;
  const double n = std::clamp(candidates, 1.0, static_cast<double>(ratio_.size()));
  const size_t below = static_cast<size_t>(std::floor(n));
  if (below >= ratio_.size()) return ratio_.back();
  const double frac = n - static_cast<double>(below);
  return ratio_[below - 1] + frac * (ratio_[below] - ratio_[below - 1]);
}

double ReadsQueuedAtPick(double reads_present, const std::vector<double>& read_ms_per_member,
                         int in_flight) {
  const double serving = static_cast<double>(std::count_if(
      read_ms_per_member.begin(), read_ms_per_member.end(), [](double ms) { return ms > 0; }));
  if (!(serving > 0) || in_flight <= 1) return 1;
  return reads_present / serving * (in_flight - 1) / in_flight;
}

ReadReorderGain ReadReorderGainFor(const Scenario& s, const ModelParams& p, double footprint_bytes,
                                   int in_flight) {
  if (s.disks.type != DiskType::kHdd || !DrivesReorderQueue(s, p)) return {};
  return ReadReorderGain(s, footprint_bytes, std::min(s.io.queue_depth, std::max(1, in_flight)));
}

}  // namespace pgstorsim
