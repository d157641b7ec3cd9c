// A hard disk's positioning arithmetic from its datasheet, shared by the simulator's
// HDD (sim/hdd_mechanics.cc) and the analytic model's costs (model/storage_costs.cc,
// storage_point.cc): the seek curve, the track, the expected positioning of a drive
// that picks the nearest of the destage writes a controller has queued to it in
// ascending block order (an elevator feeding a reordering drive), and the wait of a
// write to the place the previous one started (a log's last page written again).
// Units: bytes, ms (double) unless named _ns. Thread safety: constants and pure functions.
#ifndef PGSTORSIM_DEVICE_HDD_POSITIONING_H_
#define PGSTORSIM_DEVICE_HDD_POSITIONING_H_

#include <cmath>
#include <cstdint>
#include <vector>

namespace pgstorsim {

struct HddDatasheet {
  double rpm = 15000;
  double sustained_bytes_per_s = 160.0 * (1 << 20);
  int64_t track_to_track_ns = 200000;
  int64_t avg_seek_ns = 3400000;  // The direction asked for (read or write seek).
  int64_t capacity_bytes = 0;
  double seek_scale = 1;  // 1 = the datasheet curve.
};

// Seek and rotation of one drive. A seek within a track costs nothing; a longer one
// costs track-to-track plus a square-root curve through the average seek at one third
// of the stroke.
class HddSeekCurve {
 public:
  // REQUIRES: rpm > 0, sustained_bytes_per_s > 0, capacity_bytes > 0.
  explicit HddSeekCurve(const HddDatasheet& d);

  int64_t rotation_ns() const { return rotation_ns_; }
  double rotation_ms() const { return rotation_ns_ / 1e6; }
  int64_t track_bytes() const { return track_bytes_; }
  int64_t track_to_track_ns() const { return track_to_track_ns_; }
  // Seek ns per square root of a byte of distance (beyond track-to-track).
  double ns_per_root_byte() const { return ns_per_root_byte_; }
  // The seek for a distance: in ms for the analytic model; in whole ns (the curve's part
  // truncated) for the simulator, written as a select so that its SATF loop does not
  // branch on the distance.
  double SeekMs(double distance_bytes) const;
  int64_t SeekNs(int64_t distance_bytes) const {
    const int64_t far_ns =
        track_to_track_ns_ +
        static_cast<int64_t>(std::sqrt(static_cast<double>(distance_bytes)) * ns_per_root_byte_);
    return distance_bytes <= track_bytes_ ? 0 : far_ns;
  }

 private:
  int64_t rotation_ns_;
  int64_t track_bytes_;
  int64_t track_to_track_ns_;
  double ns_per_root_byte_;
};

// Expected positioning (seek + rotational wait, ms) of one destage write when the
// controller keeps `depth` (>= 1; fractional values interpolate) writes queued at the
// drive, taken in ascending block order from dirty data `gap_bytes` (> 0) apart on
// average on this drive, and the drive serves the one it reaches first. The dirty
// blocks lie at random (a Poisson stream ahead of the head); a block d bytes ahead
// costs its seek and then the turn to its angle, (d mod track) / track of a turn past
// the head's (the simulator's drive, sim/hdd_mechanics.h). Depth 1 far apart: the
// seek over an exponential distance plus half a turn; a small gap tends to the share
// of a turn the gap spans (a sweep along the track). Pure; results are remembered per
// thread, so repeated calls with the same drive and gap cost a lookup.
double SortedDestagePositionMs(const HddSeekCurve& curve, double gap_bytes, double depth);

// A drive that serves, among the commands queued to it, the one it reaches first
// (SATF): the expected positioning of that command when n are queued, divided by one
// command's (n = 1), for n = 1 .. max_candidates (result[n - 1]; result[0] = 1).
// The commands lie independently uniform over the first `span_bytes` (> 0) of the
// drive and the head at a uniformly random place in it; each costs its seek plus a
// uniformly random part of a turn (its sector's angle). For a head at h the chance
// that a command is not reached by t is 1 - (C(t) - C(t - turn)) / turn, C the
// integral of P(seek <= t); the earliest of n is the n-th power, integrated over t
// and averaged over h numerically.
std::vector<double> NearestOfPositionRatios(const HddSeekCurve& curve, double span_bytes,
                                            int max_candidates);

// Expected rotational wait (ms) of a write to the sectors the drive's previous write
// started at (a log whose last, partly filled page is written again with more records
// in it, as PostgreSQL's WAL flushes are), when the head has not left the track since:
// the first sector comes round a turn after the previous write started, so the wait is
// a turn less the time since then, modulo a turn. `since_ms` (>= 0) is the mean of that
// time (the previous write's transfer plus the idle time before this one), taken as
// exponentially distributed: turn - since + turn / (exp(turn / since) - 1), a turn for
// a write right after the previous one and half a turn for times much longer than a
// turn.
double RewriteWaitMs(double turn_ms, double since_ms);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DEVICE_HDD_POSITIONING_H_
