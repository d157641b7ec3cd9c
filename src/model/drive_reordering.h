// Drives that serve the queued command they reach first (SATF): when a scenario's
// drives do, in both models, and what it gains a read in the analytic model.
// A drive reorders when io.queue_depth > 1, unless on HDDs a calibrated cost holds the
// gain already (the fitted costs are effective ones, reordering included): a
// read_seek_scale other than 1, or destage_position_ms or destage_queue_depth in
// [calibration]; the drives then serve in order. The simulator's scheduler
// (sim/sim_config.cc) and the model's read positioning (storage_point.cc) follow the
// same rule; calibrate holds the keys it fits in the scenarios it fits to.
// Units: bytes, ms. Thread safety: immutable after construction.
#ifndef PGSTORSIM_MODEL_DRIVE_REORDERING_H_
#define PGSTORSIM_MODEL_DRIVE_REORDERING_H_

#include <vector>

#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// True when the scenario's drives reorder their queue (above), its calibrated values
// being `p` (ParamsFromScenario(s) outside a fit).
bool DrivesReorderQueue(const Scenario& s, const ModelParams& p);

// A read's positioning on a reordering HDD as a multiple of one served in order, by
// the number of reads queued at the drive when it picks (device/hdd_positioning.h
// NearestOfPositionRatios over the span the workload's data covers on a member).
class ReadReorderGain {
 public:
  ReadReorderGain() = default;  // No reordering: Scale() is 1.
  // `footprint_bytes`: the volume data the reads spread over; `max_candidates`: the most
  // reads a drive can hold (the queue depth, at most the requests in flight).
  ReadReorderGain(const Scenario& s, double footprint_bytes, int max_candidates);

  bool active() const { return ratio_.size() > 1; }
  // REQUIRES: candidates >= 0. Fewer than one counts as one; more than the most as the
  // most; fractional counts interpolate.
  double Scale(double candidates) const;

 private:
  std::vector<double> ratio_;  // ratio_[n - 1]: n candidates.
};

// Reads queued at a member when its drive picks the next command, from the reads
// present at the members (Little's law: throughput x their residence) shared over the
// members that serve reads (those with `read_ms_per_member` > 0, any per-member read
// load): a departing read leaves what an arriving one finds, the queue of the network
// with one of the `in_flight` requests fewer.
double ReadsQueuedAtPick(double reads_present, const std::vector<double>& read_ms_per_member,
                         int in_flight);

// The network solved where a read's positioning s (x one served in order) and the reads
// it leaves queued agree: s = gain.Scale(queued(solve(s))). Faster reads leave fewer
// queued, so h(s) = Scale(queued(s)) - s falls as s grows, from h >= 0 at
// Scale(queued(1)) to h(1) <= 0: one root, found by regula falsi (Illinois) to 1e-4 of
// a positioning. `solve(double s)` returns a solution; `queued(const Solution&)` its
// reads queued at a pick. Without a gain, solve(1).
template <typename SolveAt, typename Queued>
auto SolveWithReorderGain(const ReadReorderGain& gain, SolveAt solve, Queued queued) {
  auto hi_pt = solve(1.0);
  if (!gain.active()) return hi_pt;
  constexpr double kTolerance = 1e-4;
  double hi = 1, h_hi = gain.Scale(queued(hi_pt)) - hi;
  if (h_hi >= -kTolerance) return hi_pt;
  double lo = 1 + h_hi;
  auto lo_pt = solve(lo);
  double h_lo = gain.Scale(queued(lo_pt)) - lo;
  int side = 0;
  for (int it = 0; it < 30 && h_lo > kTolerance; ++it) {
    const double scale = (lo * h_hi - hi * h_lo) / (h_hi - h_lo);
    auto pt = solve(scale);
    const double h = gain.Scale(queued(pt)) - scale;
    if (h > -kTolerance && h < kTolerance) return pt;
    if (h > 0) {
      lo = scale, h_lo = h, lo_pt = pt;
      if (side == -1) h_hi /= 2;
      side = -1;
    } else {
      hi = scale, h_hi = h;
      if (side == 1) h_lo /= 2;
      side = 1;
    }
  }
  return lo_pt;
}

// The gain for the scenario's reads (empty unless its drives are HDDs that reorder);
// `in_flight`: the requests the clients keep outstanding.
ReadReorderGain ReadReorderGainFor(const Scenario& s, const ModelParams& p, double footprint_bytes,
                                   int in_flight);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_DRIVE_REORDERING_H_
