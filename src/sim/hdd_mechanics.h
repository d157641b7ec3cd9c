// Internal to the simulator's HDD (sim/disk.cc): the positioning arithmetic of one
// drive (seek curve, sector angles, rotational wait) and its SATF choice, apart from
// the queueing so that tests can check the choice against the plain definition.
// Units: bytes, ns. Thread safety: none needed (const after construction).
#ifndef PGSTORSIM_SIM_HDD_MECHANICS_H_
#define PGSTORSIM_SIM_HDD_MECHANICS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "device/hdd_positioning.h"
#include "sim/disk.h"

namespace pgstorsim {
namespace sim {

class HddMechanics {
 public:
  // REQUIRES: ValidateDiskConfig(c).ok() with c.kind == kHdd.
  explicit HddMechanics(const SimDiskConfig& c);

  int64_t rotation_ns() const { return rotation_ns_; }
  int64_t track_bytes() const { return track_bytes_; }

  // The drive's seek for a distance in that direction (device/hdd_positioning.h).
  int64_t SeekNs(int64_t distance_bytes, IoOp op) const { return Curve(op).SeekNs(distance_bytes); }
  // The seek curve for that direction (owned by this object).
  const HddSeekCurve& Curve(IoOp op) const {
    return op == IoOp::kWrite ? write_curve_ : read_curve_;
  }
  // When, within a turn, the sector at `offset_bytes` passes under the head: in
  // [0, rotation_ns()). REQUIRES: offset_bytes >= 0.
  int64_t AngleNs(int64_t offset_bytes) const {
    return (offset_bytes % track_bytes_) * rotation_ns_ / track_bytes_;
  }
  // Seek plus rotational wait from `head_bytes`, for a command issued at `now_ns`
  // (the command overhead passes before the head moves' end is compared with the
  // sector's angle): the first time t >= seek at which the sector is under the head.
  int64_t PositionNs(int64_t head_bytes, int64_t offset_bytes, IoOp op, int64_t now_ns) const;

  // One request SATF may pick: where it is, and a fixed positioning cost if the
  // submitter set one (DiskOp::position_ns >= 0; then offset/angle are unused).
  struct Candidate {
    int64_t offset_bytes;
    int64_t angle_ns;  // AngleNs(offset_bytes).
    int64_t fixed_position_ns;
    IoOp op;
  };
  // SATF: the index of the candidate with the smallest positioning (fixed cost, or
  // PositionNs(head_bytes, offset, op, now_ns)); the first one on ties; 0 if n == 0.
  // `at(i)` returns candidate i (0 <= i < n). *position_ns = that positioning
  // (INT64_MAX if n == 0).
  template <typename At>
  size_t PickSatf(size_t n, At at, int64_t head_bytes, int64_t now_ns, int64_t* position_ns) const;

 private:
  // PositionNs of a mechanical candidate, with base_ns = (now + overhead) mod rotation.
  int64_t SatfPositionNs(const Candidate& c, int64_t head_bytes, int64_t base_ns) const;

  const HddSeekCurve read_curve_;
  const HddSeekCurve write_curve_;
  const int64_t rotation_ns_;
  const int64_t track_bytes_;
  const int64_t command_overhead_ns_;
  // Whole turns the longest seek (a full stroke) can span: bounds SatfPositionNs's
  // branch-free loop (a longer one, off the disk, takes a division).
  const int max_seek_turns_;
};

// Every candidate's positioning is computed in full, without data-dependent branches
// (the choice among a few requests is a coin toss for a branch predictor; a square
// root costs less than a mispredicted branch): with x = (angle - (now + overhead))
// mod rotation, a candidate's positioning is the first t >= seek with t == x (mod
// rotation), i.e. x plus as many whole turns as the seek needs.
template <typename At>
size_t HddMechanics::PickSatf(size_t n, At at, int64_t head_bytes, int64_t now_ns,
                              int64_t* position_ns) const {
  size_t best = 0;
  int64_t best_ns = INT64_MAX;
  const int64_t base_ns = (now_ns + command_overhead_ns_) % rotation_ns_;
  for (size_t i = 0; i < n; ++i) {
    const Candidate c = at(i);
    const int64_t ns =
        c.fixed_position_ns >= 0 ? c.fixed_position_ns : SatfPositionNs(c, head_bytes, base_ns);
    const bool better = ns < best_ns;
    best_ns = better ? ns : best_ns;
    best = better ? i : best;
  }
  *position_ns = best_ns;
  return best;
}

inline int64_t HddMechanics::SatfPositionNs(const Candidate& c, int64_t head_bytes,
                                            int64_t base_ns) const {
  const int64_t seek_ns = SeekNs(std::llabs(c.offset_bytes - head_bytes), c.op);
  int64_t ns = c.angle_ns - base_ns;
  ns += ns < 0 ? rotation_ns_ : 0;
  for (int turn = 0; turn < max_seek_turns_; ++turn) ns += ns < seek_ns ? rotation_ns_ : 0;
  if (ns < seek_ns) ns += (seek_ns - ns + rotation_ns_ - 1) / rotation_ns_ * rotation_ns_;
  return ns;
}

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_HDD_MECHANICS_H_
