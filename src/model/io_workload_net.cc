// The io workload's request network built from the scenario (io_workload_net.h): each
// request kind's disk paths per member, background load, file lock visits and SSD
// channel delays.
#include "model/io_workload_net.h"

#include <algorithm>
#include <vector>

#include "common/units.h"
#include "layout/raid_layout.h"
#include "model/storage_network.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim::io_workload_net {
namespace {

using io_network::Net;

// An SSD's channels as in the pgbench network (storage_network.h, SsdLanes): each
// request's queue demand is S / c, and the rest of its time, S (c - 1) / c, is a delay
// on its path: a read's (`read_ms`, the share of its block or pieces it waits for), a
// partial-block write's block read (`write_read_miss` of the writes read it), a
// synchronous write's (the slowest member's commands as the host issues them,
// SyncWriteMs; the copies in parallel).
void AddSsdDelays(const Scenario& s, const AccessGeometry& g, const DiskCosts& c, double read_ms,
                  double read_miss, double write_read_miss, bool sync_write, double copies,
                  Net* net) {
  if (s.disks.type != DiskType::kSsd) return;
  const double lanes = storage_network::SsdLanes(s);
  net->read.ack_ms += read_miss * (lanes - 1) * read_ms;
  net->write.ack_ms += write_read_miss * (lanes - 1) * read_ms;
  if (!sync_write) return;
  double slowest_ms = 0;
  for (size_t m = 0; m < g.members.size(); ++m) {
    slowest_ms = std::max(slowest_ms, g.SyncWriteMs(m, c));
  }
  net->write.ack_ms += (lanes - 1) * slowest_ms / copies;
}

}  // namespace

// The network's pieces once `miss` of the read requests (and of the partial writes'
// blocks) miss the OS cache.
Net BuildNet(const Scenario& s, const ModelParams& p, const IoSpec& spec, const AccessGeometry& g,
             const AccessGeometry& read_g, const DiskCosts& random_costs, double miss) {
  Net net;
  net.n = spec.in_flight();
  net.members = g.members.size();
  net.mirrors = g.mirrors;
  net.write_back = s.controller.EffectiveWriteBack();
  net.destage_threshold = p.destage_threshold;
  const size_t members = net.members;
  DiskCosts c = random_costs;
  // Device reads per missing read request: one, or a read-ahead window's share.
  const double reads_per_request =
      static_cast<double>(spec.io_bytes) / static_cast<double>(spec.ReadUnitBytes());
  const bool stream = spec.sequential && spec.in_flight() == 1 && s.disks.type == DiskType::kHdd;
  if (stream) {
    // One stream streams: no positioning, only the drive's time per command; several
    // interleave at the disks. An SSD's latency is no positioning: it stays. (A random
    // command's positioning leaves this overhead out: 1.5 % of a 15K drive's read.)
    c.read_position_ms = c.destage_position_ms = NsToMs(DiskConfig::kHddCommandOverheadNs);
  }
  net.read.share = spec.read_fraction;
  net.write.share = 1 - spec.read_fraction;
  net.read.path_ms.assign(members, 0);
  net.read.open_ms.assign(members, 0);
  net.write.path_ms.assign(members, 0);
  net.write.open_ms.assign(members, 0);
  net.read.after_ms.assign(members, 0);
  net.write.after_ms.assign(members, 0);
  net.read.parallel_ms.assign(members, 0);
  net.write.parallel_ms.assign(members, 0);
  const bool whole = p.whole_block_reads > 0.5 && !spec.sequential;
  const double whole_read_ms = whole ? read_g.WholeReadMs(c) : 0;
  auto read_ms = [&](size_t m) {
    if (whole) return whole_read_ms / members;
    const MemberWork& w = read_g.members[m];
    return reads_per_request *
           (w.read_commands * c.read_position_ms + w.read_bytes / c.bytes_per_ms);
  };
  const double read_miss = spec.direct ? 1 : miss;
  // A whole-block read positions once (whole_block_reads); else the pieces of a device
  // read (a block's, or a read-ahead window's) run in parallel.
  net.read_waited =
      whole ? read_g.WholeReadWaitedShare(c) : read_g.ReadWaitedShare(c, p.fork_join_weight);
  const double read_waited = net.read_waited;
  auto add_read = [&](double times, io_network::Kind* k) {
    for (size_t m = 0; m < members; ++m) {
      k->path_ms[m] += times * read_waited * read_ms(m);
      k->parallel_ms[m] += times * (1 - read_waited) * read_ms(m);
    }
  };
  add_read(read_miss, &net.read);
  net.read.device_reads = read_miss * reads_per_request;
  if (stream) {
    // The controller acknowledges each device read after its own time per request;
    // the host's other reads in a unit it read ahead hit its cache.
    const double host_reads =
        static_cast<double>(spec.io_bytes) / static_cast<double>(spec.HostReadBytes());
    net.read.ack_ms +=
        read_miss * (reads_per_request * NsToMs(ControllerConfig::kCommandOverheadNs) +
                     (host_reads - reads_per_request) * ControllerReadHitMs(s));
  }
  // A write: the block's read first (buffered, partial block, not cached), then the
  // block write: synchronous (direct, or fsync) or the OS's background write-back.
  const bool rmw = spec.WritesReadUncachedBlocks();
  const double copies = DataCopies(ArrayGeometryFor(s));
  const bool sync = spec.direct || spec.fsync_writes;
  // An fsync the filesystem runs without the file lock waits after releasing it.
  const bool sync_unlocked = spec.lock.writes && !spec.direct && !spec.lock.fsync;
  std::vector<double>& sync_path = sync_unlocked ? net.write.after_ms : net.write.path_ms;
  // A synchronous write's member commands (pieces, copies, RAID 5/6 pre-reads) go at
  // once: it waits for their longest member path (AccessGeometry::WriteWaitedShare).
  const double waited = g.WriteWaitedShare(c, p.fork_join_weight);
  if (rmw) add_read(miss, &net.write);
  const bool waits = sync && !net.write_back;
  for (size_t m = 0; m < members; ++m) {
    if (waits) {
      const double write_ms = g.SyncWriteMs(m, c);
      sync_path[m] += write_ms * waited;
      net.write.parallel_ms[m] += write_ms * (1 - waited);
    } else {
      net.write.open_ms[m] += g.WriteMs(m, c);  // Destage or OS write-back.
    }
  }
  net.write.device_reads = rmw ? miss : 0;
  if (sync && net.write_back) net.write.ack_ms = p.commit_ms;
  // The file lock (FileLockRulesFor): what runs under it.
  const FileLockRules& lock = spec.lock;
  net.write.visits_lock = lock.writes && net.write.share > 0;
  net.write.path_locked = net.write.visits_lock;  // RMW read, and a direct write.
  net.write.ack_locked = net.write.visits_lock && (spec.direct || lock.fsync);
  // Reads queue behind writers that hold the lock over I/O (a block read, a direct
  // write, an fsync); a writer that only copies into a cached block holds it for no time.
  const bool writers_hold_io = rmw || spec.direct || (sync && lock.fsync);
  net.read.visits_lock = lock.reads_wait && net.write.visits_lock && writers_hold_io;
  net.read.path_locked = net.read.visits_lock;
  double read_total = 0, write_total = 0, sync_total = 0;
  for (size_t m = 0; m < members; ++m) {
    read_total += read_ms(m);
    write_total += g.WriteMs(m, c);
    sync_total += g.SyncWriteMs(m, c);
  }
  net.read_service_ms =
      whole ? whole_read_ms
            : read_total / std::max(1e-12, reads_per_request * read_g.read_commands);
  AddSsdDelays(s, g, c, read_waited * read_total, read_miss, rmw ? miss : 0,
               sync && !net.write_back, copies, &net);
  net.destage_service_ms = write_total / std::max(1e-12, g.write_commands);
  if (waits) net.sync_write_ms = waited * sync_total;
  return net;
}

}  // namespace pgstorsim::io_workload_net
