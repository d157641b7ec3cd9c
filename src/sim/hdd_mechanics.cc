#include "sim/hdd_mechanics.h"

#include <algorithm>
#include <cmath>

#include "device/hdd_positioning.h"

namespace pgstorsim {
namespace sim {
namespace {

// The drive's seek curve for one direction (device/hdd_positioning.h).
HddSeekCurve CurveOf(const SimDiskConfig& c, int64_t avg_seek_ns) {
  HddDatasheet d;
  d.rpm = c.rpm;
  d.sustained_bytes_per_s = c.sustained_bytes_per_s;
  d.track_to_track_ns = c.track_to_track_ns;
  d.avg_seek_ns = avg_seek_ns;
  d.capacity_bytes = c.capacity_bytes;
  d.seek_scale = c.seek_scale;
  return HddSeekCurve(d);
}

}  // namespace

HddMechanics::HddMechanics(const SimDiskConfig& c)
    : read_curve_(CurveOf(c, c.avg_seek_ns)),
      write_curve_(CurveOf(c, c.avg_write_seek_ns)),
      rotation_ns_(read_curve_.rotation_ns()),
      track_bytes_(read_curve_.track_bytes()),
      command_overhead_ns_(c.command_overhead_ns),
      max_seek_turns_(static_cast<int>(
          std::max(SeekNs(c.capacity_bytes, IoOp::kRead), SeekNs(c.capacity_bytes, IoOp::kWrite)) /
              rotation_ns_ +
          1)) {}

int64_t HddMechanics::PositionNs(int64_t head_bytes, int64_t offset_bytes, IoOp op,
                                 int64_t now_ns) const {
  const int64_t seek_ns = SeekNs(std::llabs(offset_bytes - head_bytes), op);
  const int64_t head_ns = (now_ns + seek_ns + command_overhead_ns_) % rotation_ns_;
  const int64_t wait_ns = AngleNs(offset_bytes) - head_ns;
  return seek_ns + (wait_ns >= 0 ? wait_ns : wait_ns + rotation_ns_);
}

}  // namespace sim
}  // namespace pgstorsim
