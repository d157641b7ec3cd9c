#include "model/destage_cost.h"

#include <algorithm>

#include "device/hdd_positioning.h"
#include "model/cache_misses.h"
#include "model/io_workload.h"
#include "pgmodel/host_scenario.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace {

// The WAL region on the data volume: none for an io workload.
int64_t WalRegionOnVolumeBytes(const Scenario& s) {
  if (s.workload.type == WorkloadKind::kIo) return 0;
  return pgmodel::WalRegionBytesOf(s.postgres);
}

}  // namespace

double PlacedSpanBytes(const Scenario& s, double data_bytes) {
  const int64_t segment = s.workload.type == WorkloadKind::kIo ? 0 : kRelationSegmentBytes;
  const FsGeometry fs = FsGeometryFor(s);
  const int64_t room =
      RoomForDataBytes(ArrayCapacityBytes(ArrayGeometryFor(s)), fs, WalRegionOnVolumeBytes(s));
  const int64_t data = static_cast<int64_t>(data_bytes);
  return static_cast<double>(FileSpread(fs, segment, data, room).SpanBytes(data));
}

double MemberSpanBytes(const Scenario& s, double footprint_bytes) {
  return PlacedSpanBytes(s, footprint_bytes) / DataMembers(ArrayGeometryFor(s));
}

HddSeekCurve SeekCurveOf(const DiskConfig& d, bool writes, double seek_scale) {
  HddDatasheet sheet;
  sheet.rpm = d.rpm;
  sheet.sustained_bytes_per_s = static_cast<double>(d.transfer_rate_bytes_per_s);
  sheet.track_to_track_ns = d.track_to_track_ns;
  sheet.avg_seek_ns = writes ? d.avg_write_seek_ns : d.avg_read_seek_ns;
  sheet.capacity_bytes = d.capacity_bytes;
  sheet.seek_scale = seek_scale;
  return HddSeekCurve(sheet);
}

double DestageQueueDepthOf(const Scenario& s) {
  const int writes = MemberWritesPerUnitWrite(ArrayGeometryFor(s));
  return std::min(ControllerConfig::kDestageLinesPerMember * writes, s.io.queue_depth);
}

double DestagePendingBytes(const Scenario& s) {
  return static_cast<double>(s.controller.WriteCacheBytes()) *
         ControllerConfig::kDestageStartFraction;
}

double DestagePositionMs(const Scenario& s, const ModelParams& p, double footprint_bytes,
                         const AccessGeometry& g) {
  if (p.destage_position_ms > 0) return p.destage_position_ms;
  double commands = 0, bytes = 0;
  for (const MemberWork& w : g.members) {
    commands += w.write_commands;
    bytes += w.write_bytes;
  }
  const double pending = DestagePendingBytes(s);
  const double per_command = commands > 0 ? bytes / commands : 0;
  // No destage stream, or nothing to sort: a random positioning over the stroke.
  const double stroke_third = static_cast<double>(s.disks.capacity_bytes) / 3;
  double gap = stroke_third;
  if (pending > 0 && per_command > 0 && footprint_bytes > 0) {
    gap = std::min(stroke_third, PlacedSpanBytes(s, footprint_bytes) * per_command / pending);
  }
  // A drive reorders no more commands than its queue holds.
  const double depth = std::min(p.destage_queue_depth, static_cast<double>(s.io.queue_depth));
  return SortedDestagePositionMs(SeekCurveOf(s.disks, true, p.read_seek_scale), gap, depth);
}

StatusOr<double> DestagePositionMsFor(const Scenario& s, const ModelParams& p) {
  if (s.workload.type == WorkloadKind::kIo) {
    const IoSpec spec = IoSpecFor(s, p);
    auto geometry = ComputeAccessGeometry(s, spec.io_bytes, spec.direct);
    if (!geometry.ok()) return geometry.status();
    return DestagePositionMs(s, p, static_cast<double>(spec.file_bytes), *geometry);
  }
  auto layout = LayoutForScale(s.workload.scale);
  if (!layout.ok()) return layout.status();
  auto geometry = ComputeAccessGeometry(s);
  if (!geometry.ok()) return geometry.status();
  return DestagePositionMs(s, p, static_cast<double>((*layout)->total_bytes()), *geometry);
}

}  // namespace pgstorsim
