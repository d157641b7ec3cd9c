#include "sim/hdd_mechanics.h"

#include <algorithm>
#include <cmath>

namespace pgstorsim {
namespace sim {
namespace {

// Seek ns per sqrt(byte) of distance: the curve passes through the average seek at
// one third of the stroke.
double SeekPerRoot(const SimDiskConfig& c, int64_t avg_seek_ns) {
  return static_cast<double>(avg_seek_ns - c.track_to_track_ns) * c.seek_scale /
         std::sqrt(static_cast<double>(c.capacity_bytes) / 3.0);
}

}  // namespace

HddMechanics::HddMechanics(const SimDiskConfig& c)
    : rotation_ns_(static_cast<int64_t>(60e9 / c.rpm)),
      track_bytes_(static_cast<int64_t>(c.sustained_bytes_per_s * 60.0 / c.rpm)),
      track_to_track_ns_(c.track_to_track_ns),
      command_overhead_ns_(c.command_overhead_ns),
      read_seek_per_root_(SeekPerRoot(c, c.avg_seek_ns)),
      write_seek_per_root_(SeekPerRoot(c, c.avg_write_seek_ns)),
      max_seek_turns_(static_cast<int>(
          std::max(SeekNs(c.capacity_bytes, IoOp::kRead), SeekNs(c.capacity_bytes, IoOp::kWrite)) /
              rotation_ns_ +
          1)) {}

int64_t HddMechanics::SeekNs(int64_t distance_bytes, IoOp op) const {
  if (distance_bytes <= track_bytes_) return 0;
  const double root = std::sqrt(static_cast<double>(distance_bytes));
  return track_to_track_ns_ + static_cast<int64_t>(root * PerRoot(op));
}

int64_t HddMechanics::PositionNs(int64_t head_bytes, int64_t offset_bytes, IoOp op,
                                 int64_t now_ns) const {
  const int64_t seek_ns = SeekNs(std::llabs(offset_bytes - head_bytes), op);
  const int64_t head_ns = (now_ns + seek_ns + command_overhead_ns_) % rotation_ns_;
  const int64_t wait_ns = AngleNs(offset_bytes) - head_ns;
  return seek_ns + (wait_ns >= 0 ? wait_ns : wait_ns + rotation_ns_);
}

}  // namespace sim
}  // namespace pgstorsim
