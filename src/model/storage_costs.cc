// The analytic model's costs and demands of one scenario (storage_network.h).
#include <algorithm>
#include <cmath>

#include "device/throttle_slice.h"
#include "model/storage_network.h"

namespace pgstorsim::storage_network {
namespace {

// Busy ms of `commands` I/Os moving `bytes` under a cap of `iops` and `bytes_per_s`
// (0 = none): the caps are independent, so the slower one sets the pace.
double CapMs(double commands, double bytes, double iops, int64_t bytes_per_s) {
  double ms = commands * 1000 / iops;
  if (bytes_per_s > 0) ms = std::max(ms, bytes * 1000 / static_cast<double>(bytes_per_s));
  return ms;
}

}  // namespace

double SsdLanes(const Scenario& s) {
  return s.disks.type == DiskType::kSsd ? std::max(1, std::min(s.disks.channels, s.io.queue_depth))
                                        : 1;
}

DiskCosts CostsFor(const Scenario& s, const ModelParams& p, double footprint_fraction) {
  const DiskConfig& d = s.disks;
  DiskCosts c;
  c.bytes_per_ms = static_cast<double>(d.transfer_rate_bytes_per_s) / 1000.0;
  if (d.type == DiskType::kThrottled) {  // For the reported mean command costs only.
    c.read_position_ms = 1000 / d.read_iops;
    c.destage_position_ms = 1000 / d.write_iops;
    c.bytes_per_ms = 1e12;
    return c;
  }
  if (d.type == DiskType::kSsd) {
    const double lanes = SsdLanes(s);
    c.read_position_ms = d.read_latency_ns / 1e6 / lanes;
    c.destage_position_ms = d.write_latency_ns / 1e6 / lanes;
    // Pieces of a block that does not start on a flash page read the page first.
    const int64_t page = std::max<int64_t>(1, d.page_size_bytes);
    if (s.filesystem.partition_offset_bytes % page != 0 ||
        s.filesystem.block_size_bytes % page != 0)
      c.destage_position_ms += d.read_latency_ns / 1e6 / lanes;
    c.bytes_per_ms *= lanes;
    return c;
  }
  const double rotation_ms = 30000.0 / d.rpm;  // Half a revolution.
  const double t2t_ms = d.track_to_track_ns / 1e6;
  const double band = std::sqrt(std::clamp(footprint_fraction, 0.0, 1.0));
  const double read_seek = t2t_ms + (d.avg_read_seek_ns / 1e6 - t2t_ms) * band * p.read_seek_scale;
  c.read_position_ms = rotation_ms + read_seek;
  if (s.controller.EffectiveWriteBack()) {
    c.destage_position_ms = p.destage_position_ms;
  } else {
    c.destage_position_ms =
        rotation_ms + t2t_ms + (d.avg_write_seek_ns / 1e6 - t2t_ms) * band * p.read_seek_scale;
  }
  return c;
}

double SliceCommitGroup(const Scenario& s) {
  if (s.disks.type != DiskType::kThrottled || !s.postgres.wal_on_data_volume ||
      !s.postgres.synchronous_commit) {
    return 1;
  }
  const double budget = ThrottleSliceBudget(s.disks.write_iops);
  return (budget - 1 + std::max(1, s.workload.clients)) / budget;
}

double ThrottledWrites(const OpLoad& load) {
  return load.writes_per_op + load.wal_writes_per_op + load.background_wal_writes_per_op;
}

void ThrottledDemands(const Network& net, double reads, double writes, Demands* d) {
  const DiskConfig& disk = net.s->disks;
  const size_t members = net.geometry.members.size();
  d->read_ms.assign(2 * members, 0);
  d->write_ms.assign(2 * members, 0);
  for (size_t m = 0; m < members; ++m) {
    const MemberWork& w = net.geometry.members[m];
    d->read_ms[m] = reads * CapMs(w.read_commands, w.read_bytes, disk.read_iops,
                                  disk.read_bandwidth_bytes_per_s) +
                    writes * CapMs(w.pre_read_commands, w.pre_read_bytes, disk.read_iops,
                                   disk.read_bandwidth_bytes_per_s);
    d->write_ms[members + m] = writes * CapMs(w.host_write_commands, w.write_bytes, disk.write_iops,
                                              disk.write_bandwidth_bytes_per_s);
  }
}

}  // namespace pgstorsim::storage_network
