// The analytic model's costs and demands of one scenario, and the network's constant
// pieces (storage_network.h).
#include <algorithm>
#include <cmath>

#include "common/units.h"
#include "device/throttle_slice.h"
#include "layout/raid_layout.h"
#include "model/destage_cost.h"
#include "model/mva.h"
#include "model/storage_network.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim::storage_network {
namespace {

// Busy ms of `commands` I/Os moving `bytes` under a cap of `iops` and `bytes_per_s`
// (0 = none): the caps are independent, so the slower one sets the pace.
double CapMs(double commands, double bytes, double iops, int64_t bytes_per_s) {
  double ms = commands * 1000 / iops;
  if (bytes_per_s > 0) ms = std::max(ms, bytes * 1000 / static_cast<double>(bytes_per_s));
  return ms;
}

// An SSD's channels' delays (Seidmann, CostsFor): a block write's time on the commit
// path (its slowest piece) and a block read's delay beyond its queueing demand (the
// waited share of it, read_waited).
void SetSsdDelays(const Scenario& s, Network* net) {
  const double lanes = SsdLanes(s);
  const AccessGeometry& g = net->geometry;
  for (const MemberWork& w : g.members) {
    if (w.write_commands <= 0) continue;
    net->ssd_flush_ms = std::max(
        net->ssd_flush_ms, lanes * (net->costs.destage_position_ms +
                                    w.write_bytes / w.write_commands / net->costs.bytes_per_ms));
  }
  double read_ms = net->whole_block_read_ms;  // A block read's queueing demand.
  if (read_ms <= 0) {
    for (size_t m = 0; m < g.members.size(); ++m) read_ms += g.ReadMs(m, net->costs);
  }
  net->latency_per_read_ms = (lanes - 1) * net->read_waited * read_ms;
}

}  // namespace

double SsdLanes(const Scenario& s) {
  return s.disks.type == DiskType::kSsd ? std::max(1, std::min(s.disks.channels, s.io.queue_depth))
                                        : 1;
}

DiskCosts CostsFor(const Scenario& s, const ModelParams& p, double footprint_bytes,
                   const AccessGeometry& g) {
  const double footprint_fraction =
      MemberSpanBytes(s, footprint_bytes) / static_cast<double>(s.disks.capacity_bytes);
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
    const double read_ms = NsToMs(d.read_latency_ns) * p.ssd_read_latency_scale;
    c.read_position_ms = read_ms / lanes;
    c.destage_position_ms = NsToMs(d.write_latency_ns) * p.ssd_write_latency_scale / lanes;
    c.bytes_per_ms *= lanes;
    // Pieces of a block that does not start on a flash page read the page first, and
    // a read moves whole flash pages: about one page more than its bytes.
    const int64_t page = std::max<int64_t>(1, d.page_size_bytes);
    if (s.filesystem.partition_offset_bytes % page != 0 ||
        s.filesystem.block_size_bytes % page != 0) {
      c.destage_position_ms += read_ms / lanes;
      c.read_position_ms += static_cast<double>(page) / c.bytes_per_ms;
    }
    return c;
  }
  const double rotation_ms = d.HalfRevolutionMs();
  const double t2t_ms = NsToMs(d.track_to_track_ns);
  const double band = std::sqrt(std::clamp(footprint_fraction, 0.0, 1.0));
  const double read_seek =
      t2t_ms + (NsToMs(d.avg_read_seek_ns) - t2t_ms) * band * p.read_seek_scale;
  c.read_position_ms = rotation_ms + read_seek;
  if (s.controller.EffectiveWriteBack()) {
    c.destage_position_ms = DestagePositionMs(s, p, footprint_bytes, g);
  } else {
    c.destage_position_ms =
        rotation_ms + t2t_ms + (NsToMs(d.avg_write_seek_ns) - t2t_ms) * band * p.read_seek_scale;
    c.rewrite_turn_ms = 2 * rotation_ms;
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
  return load.writes_per_op + load.sync_writes_per_op + load.wal_writes_per_op +
         load.background_wal_writes_per_op;
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

StatusOr<Network> MakeNetwork(const Scenario& s, const ModelParams& p, const OpLoad& load) {
  auto geometry =
      load.geometry ? StatusOr<AccessGeometry>(*load.geometry) : ComputeAccessGeometry(s);
  if (!geometry.ok()) return geometry.status();
  Network net;
  net.s = &s;
  net.p = &p;
  net.geometry = *geometry;
  net.costs = CostsFor(s, p, load.footprint_bytes, *geometry);
  net.write_back = s.controller.EffectiveWriteBack();
  net.throttled = s.disks.type == DiskType::kThrottled;
  // A throttled device's pieces are equal slots of its I/O budget (SplitReadWaitedShare).
  net.read_waited = net.throttled ? SplitReadWaitedShare(geometry->read_forks, p.fork_join_weight)
                                  : geometry->ReadWaitedShare(net.costs, p.fork_join_weight);
  if (net.throttled) {
    net.latency_per_read_ms = NsToMs(s.disks.read_latency_ns);
    net.latency_per_write_ms = NsToMs(s.disks.write_latency_ns);
  } else if (p.whole_block_reads > 0.5) {  // One positioning + the read's transfer.
    // The path holds all of it: with a waited share below 1 the other clients' parallel
    // pieces (regimes.cc, n - 1 of n) let a member's busy time pass 1 / X near
    // saturation (io_network.cc's Solve holds its throughput at 1 / the busiest member's
    // busy time instead, so io_workload_net.cc waits for one piece's transfer).
    net.whole_block_read_ms = geometry->WholeReadMs(net.costs);
    net.read_waited = 1;
  }
  if (s.disks.type == DiskType::kSsd) SetSsdDelays(s, &net);
  net.reorder = ReadReorderGainFor(s, p, load.footprint_bytes, s.workload.clients);
  // Write-through: a commit waits for its write (a throttled device's own latency;
  // the wait for the cap is the write station's residence; on other disks the WAL
  // write is a closed demand, SolvePoint).
  net.commit_ms = net.write_back ? p.commit_ms : net.throttled ? net.latency_per_write_ms : 0;
  if (load.checkpoints && !net.throttled && load.writes_per_op > 0) {
    auto cycle = MakeCheckpointCycle(s, load.writes_per_op, load.wal_bytes_per_op);
    if (!cycle.ok()) return cycle.status();
    net.checkpoint = *cycle;
  }
  return net;
}

}  // namespace pgstorsim::storage_network
