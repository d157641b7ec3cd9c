// The io workload's analytic model (io_workload.h, docs/model.md "Device workloads").
#include "model/io_workload.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/units.h"
#include "model/access_geometry.h"
#include "model/io_network.h"
#include "model/mva.h"
#include "model/percentiles.h"
#include "model/storage_network.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace {

using io_network::Kind;
using io_network::Net;
using io_network::Solution;
using io_network::Solve;

constexpr int kRampSlices = 8;  // Time slices of a warming (cold) run.
// Above this the storage does not set the rate (nothing waits for it).
constexpr double kMaxIops = 1e7;

bool TypeIs(const Scenario& s, std::initializer_list<const char*> names) {
  std::string t = s.filesystem.type;
  for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* n : names) {
    if (t == n) return true;
  }
  return false;
}

// An SSD's channels as in the pgbench network (storage_network.h, SsdLanes): each
// request's queue demand is S / c, and the rest of its time, S (c - 1) / c, is a delay
// on its path: a read's (`read_ms`, its block or pieces), a partial-block write's block
// read (`write_read_miss` of the writes read it), a synchronous write's (the slowest
// member's piece, the copies in parallel).
void AddSsdDelays(const Scenario& s, const AccessGeometry& g, const DiskCosts& c, double read_ms,
                  double read_miss, double write_read_miss, bool sync_write, double copies,
                  Net* net) {
  if (s.disks.type != DiskType::kSsd) return;
  const double lanes = storage_network::SsdLanes(s);
  net->read.ack_ms += read_miss * (lanes - 1) * read_ms;
  net->write.ack_ms += write_read_miss * (lanes - 1) * read_ms;
  if (!sync_write) return;
  double slowest_ms = 0;
  for (size_t m = 0; m < g.members.size(); ++m) slowest_ms = std::max(slowest_ms, g.WriteMs(m, c));
  net->write.ack_ms += (lanes - 1) * slowest_ms / copies;
}

// A synchronous write's member commands (its pieces, their copies, RAID 5/6 pre-reads)
// run in parallel: in one phase, or two when pre-reads come first, each phase lasting
// its slowest command, F(k) = 1 + w (H_k - 1) times its mean command (the fork-join
// charge of a split read). A write phase of rewrites (DiskCosts::rewrite_turn_ms: each
// write waits for its sector to come round after its own pre-read) ends one revolution
// after the pre-read phase whichever member is slowest: F = 1. The share of the
// commands' summed busy time the write waits for; the rest loads the members in the
// background.
double SyncWriteWaitedShare(const AccessGeometry& g, const DiskCosts& c, double fork_join_weight) {
  double pre_reads = 0;
  for (const MemberWork& w : g.members) pre_reads += w.pre_read_commands;
  const double commands = g.write_commands;
  if (!(commands > 1)) return 1;
  const double phases = pre_reads > 0 ? 2 : 1;
  const double per_phase = commands / phases;
  const double slowest = 1 + fork_join_weight * (ForkJoinFactor(per_phase) - 1);
  const double write_phase = pre_reads > 0 && c.rewrite_turn_ms > 0 ? 1 : slowest;
  return std::min(1.0, ((phases - 1) * slowest + write_phase) / commands);
}

// The network's pieces once `miss` of the read requests (and of the partial writes'
// blocks) miss the OS cache.
Net BuildNet(const Scenario& s, const ModelParams& p, const IoSpec& spec, const AccessGeometry& g,
             const DiskCosts& random_costs, double miss) {
  Net net;
  net.n = spec.in_flight();
  net.members = g.members.size();
  net.mirrors = g.mirrors;
  net.write_back = s.controller.EffectiveWriteBack();
  net.destage_threshold = p.destage_threshold;
  const size_t members = net.members;
  DiskCosts c = random_costs;
  double reads_per_request = 1;  // Device reads per missing read request.
  if (spec.sequential) {
    // One stream streams (no positioning); several interleave at the disks. Reads
    // come in read-ahead windows: one command per window.
    // An SSD's latency is no positioning: it stays.
    if (spec.in_flight() == 1 && s.disks.type == DiskType::kHdd) {
      c.read_position_ms = c.destage_position_ms = 0;
    }
    reads_per_request = static_cast<double>(spec.io_bytes) / spec.readahead_bytes;
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
  double whole_read_ms = 0;
  if (whole) {
    double bytes = 0;
    for (const MemberWork& w : g.members) bytes += w.read_bytes;
    whole_read_ms = c.read_position_ms + bytes / c.bytes_per_ms;
  }
  auto read_ms = [&](size_t m) {
    if (whole) return whole_read_ms / members;
    const MemberWork& w = g.members[m];
    return reads_per_request * w.read_commands * c.read_position_ms + w.read_bytes / c.bytes_per_ms;
  };
  const double read_miss = spec.direct ? 1 : miss;
  for (size_t m = 0; m < members; ++m) net.read.path_ms[m] = read_miss * read_ms(m);
  net.read.device_reads = read_miss * reads_per_request;
  // A write: the block's read first (buffered, partial block, not cached), then the
  // block write: synchronous (direct, or fsync) or the OS's background write-back.
  const bool rmw = spec.WritesReadUncachedBlocks();
  const double copies = DataCopies(ArrayGeometryFor(s));
  const bool sync = spec.direct || spec.fsync_writes;
  // An fsync the filesystem runs without the file lock waits after releasing it.
  const bool sync_unlocked = spec.lock.writes && !spec.direct && !spec.lock.fsync;
  std::vector<double>& sync_path = sync_unlocked ? net.write.after_ms : net.write.path_ms;
  const double waited = SyncWriteWaitedShare(g, c, p.fork_join_weight);
  for (size_t m = 0; m < members; ++m) {
    if (rmw) net.write.path_ms[m] += miss * read_ms(m);
    const double write_ms = g.WriteMs(m, c);
    if (sync && !net.write_back) {
      sync_path[m] += write_ms * waited;
      net.write.parallel_ms[m] += write_ms * (1 - waited);
    } else {
      net.write.open_ms[m] += write_ms;  // Destage or OS write-back.
    }
  }
  net.write.device_reads = rmw ? miss : 0;
  if (sync && net.write_back) net.write.ack_ms = p.commit_ms;
  net.fork = whole ? 1 : 1 + p.fork_join_weight * (ForkJoinFactor(g.read_forks) - 1);
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
  double read_total = 0, write_total = 0;
  for (size_t m = 0; m < members; ++m) {
    read_total += read_ms(m);
    write_total += g.WriteMs(m, c);
  }
  net.read_service_ms = whole ? whole_read_ms : read_total / std::max(1e-12, g.read_commands);
  AddSsdDelays(s, g, c, read_total, read_miss, rmw ? miss : 0, sync && !net.write_back, copies,
               &net);
  net.destage_service_ms = write_total / std::max(1e-12, g.write_commands);
  if (sync && !net.write_back) net.sync_write_ms = waited * write_total;
  return net;
}

// A throttled device (rate caps, no controller cache): the pgbench model's paced
// network with one operation per request: its block read when not cached (a read, or
// a partial-block write's read), its write, and a durable write's wait at the cap.
StatusOr<Prediction> PredictThrottledIo(const Scenario& s, const ModelParams& p, const IoSpec& spec,
                                        const AccessGeometry& g,
                                        const std::function<double(double)>& miss_after) {
  Scenario t = s;
  t.workload.clients = spec.in_flight();
  t.workload.duration_ns = static_cast<int64_t>(spec.duration_s * 1e9);
  storage_network::OpLoad load;
  const double r = spec.read_fraction;
  const double rmw = spec.WritesReadUncachedBlocks() ? 1 : 0;
  load.reads_after = [=](double done) { return miss_after(done) * (r + (1 - r) * rmw); };
  load.warming = spec.cold && !spec.direct;
  load.duration_s = spec.duration_s;
  load.writes_per_op = 1 - r;
  load.commits_per_op = spec.direct || spec.fsync_writes ? 1 - r : 0;
  load.footprint_bytes = static_cast<double>(spec.file_bytes);
  load.geometry = &g;
  auto solved = storage_network::SolveLoad(t, p, load);
  if (!solved.ok()) return solved;
  Prediction out = solved.value();
  out.bytes_per_s = out.tps * static_cast<double>(spec.io_bytes);
  return out;
}

}  // namespace

FileLockRules FileLockRulesFor(const Scenario& s) {
  FileLockRules r;
  const bool direct = s.workload.io_direct;
  if (TypeIs(s, {"ufs", "ufs2", "ffs"})) {
    r.writes = r.fsync = r.reads_wait = true;
  } else if (TypeIs(s, {"xfs"})) {
    r.writes = r.reads_wait = !direct;
  } else if (TypeIs(s, {"ext2", "ext3", "ext4", "btrfs", "f2fs"})) {
    r.writes = !direct;
  }
  return r;
}

int64_t IoOsCacheBytes(const Scenario& s, double cache_fraction) {
  if (s.host.os_cache_bytes > 0) return s.host.os_cache_bytes;
  return static_cast<int64_t>(cache_fraction * static_cast<double>(s.host.ram_bytes));
}

IoSpec IoSpecFor(const Scenario& s, const ModelParams& p) {
  const WorkloadConfig& w = s.workload;
  IoSpec spec;
  spec.clients = w.clients;
  spec.depth = w.io_depth;
  spec.io_bytes = w.io_size_bytes;
  spec.file_bytes = w.file_size_bytes;
  spec.read_fraction = std::clamp(w.read_fraction, 0.0, 1.0);
  spec.sequential = w.io_access == IoAccess::kSequential;
  spec.fsync_writes = w.io_fsync_writes;
  spec.direct = w.io_direct;
  spec.rewrite = w.io_rewrite;
  spec.cold = w.cache == CacheState::kCold;
  spec.duration_s = NsToSec(w.duration_ns);
  spec.os_cache_bytes = spec.direct ? 0 : IoOsCacheBytes(s, p.cache_fraction);
  const FsGeometry fs = FsGeometryFor(s);
  spec.fs_block_bytes = std::max<int64_t>(kSectorBytes, fs.fs_block_bytes);
  spec.partial_block_writes = spec.io_bytes % spec.fs_block_bytes != 0;
  spec.readahead_bytes = std::max(spec.io_bytes, s.filesystem.os_readahead_bytes);
  if (spec.direct) spec.readahead_bytes = spec.io_bytes;
  spec.lock = FileLockRulesFor(s);
  return spec;
}

StatusOr<Prediction> PredictIo(const Scenario& s, const ModelParams& p) {
  if (s.workload.type != WorkloadKind::kIo) return Status::Error("PredictIo: not an io workload");
  const IoSpec spec = IoSpecFor(s, p);
  auto geometry = ComputeAccessGeometry(s, spec.io_bytes, spec.direct);
  if (!geometry.ok()) return geometry.status();
  const DiskCosts costs =
      storage_network::CostsFor(s, p, static_cast<double>(spec.file_bytes), *geometry);
  // The OS cache's share of the file: warm, an LRU holding what fits (a sequential
  // pass over a larger file keeps nothing it will reuse in time); cold, the blocks
  // touched so far, up to that.
  const double cache_share = std::min(
      1.0, static_cast<double>(spec.os_cache_bytes) / static_cast<double>(spec.file_bytes));
  const double warm_cached = spec.sequential ? (cache_share >= 1 ? 1.0 : 0.0) : cache_share;
  const double blocks = static_cast<double>(spec.file_bytes) / spec.fs_block_bytes;
  const double touches = std::max(1.0, static_cast<double>(spec.io_bytes) / spec.fs_block_bytes);
  const bool cold = spec.cold, sequential = spec.sequential;
  const std::function<double(double)> miss_after = [=](double done) {
    if (!cold || sequential) return 1 - warm_cached;
    return 1 - std::min(warm_cached, 1 - std::exp(-done * touches / blocks));
  };
  if (s.disks.type == DiskType::kThrottled) {
    return PredictThrottledIo(s, p, spec, *geometry, miss_after);
  }
  // A cold cache warms over the run: the midpoint of each slice solved at the misses
  // after the requests done by then.
  const int slices = spec.cold && !spec.sequential && !spec.direct ? kRampSlices : 1;
  const double slice_ms = spec.duration_s * 1000 / slices;
  double done = 0, time_ms = 0, reads_ms = 0, writes_ms = 0, lock_u = 0, full_w = 0, misses = 0;
  std::vector<double> read_busy(geometry->members.size()), write_busy(read_busy.size());
  Net net;
  // The operations done by a slice's middle come from the previous slice's throughput
  // (the first slice's from its start).
  double x = slices > 1 ? Solve(BuildNet(s, p, spec, *geometry, costs, miss_after(0))).x_per_ms : 0;
  for (int i = 0; i < slices; ++i) {
    const double miss = miss_after(done + x * slice_ms / 2);
    net = BuildNet(s, p, spec, *geometry, costs, miss);
    const Solution sol = Solve(net);
    x = sol.x_per_ms;
    const double ops = slices == 1 ? 1 : x * slice_ms;
    done += ops;
    time_ms += slices == 1 ? 1 / x : slice_ms;
    reads_ms += ops * sol.read_ms;
    writes_ms += ops * sol.write_ms;
    lock_u += ops * sol.lock_utilization;
    full_w += ops * sol.cache_full_weight;
    misses +=
        ops * (net.read.share * net.read.device_reads + net.write.share * net.write.device_reads);
    for (size_t m = 0; m < read_busy.size(); ++m) {
      read_busy[m] += ops * sol.read_busy[m] / x;
      write_busy[m] += ops * sol.write_busy[m] / x;
    }
  }
  Prediction out;
  out.tps = out.tps_low = out.tps_high = 1000 * done / time_ms;
  if (!(out.tps < kMaxIops)) {
    return Status::Error(
        "workload.type = io: no request waits for the storage (every read hits the OS "
        "cache and no write is synchronous), so the rate is the CPU's, which the io model "
        "does not answer; use a larger workload.file_size, io_direct or io_fsync_writes");
  }
  out.bytes_per_s = out.tps * static_cast<double>(spec.io_bytes);
  const double lock_utilization = lock_u / done;
  out.cache_full_probability = full_w / done;
  out.regime = lock_utilization > 0.9              ? "file-lock-bound"
               : out.cache_full_probability >= 0.5 ? "destage-bound"
                                                   : "read-bound";
  out.file_lock_utilization = lock_utilization;
  out.reads_per_transaction = misses / done;
  out.writes_per_transaction = net.write.share;
  out.read_service_ms = net.read_service_ms;
  out.destage_service_ms = net.destage_service_ms;
  double mean_busy = 0;
  for (size_t m = 0; m < read_busy.size(); ++m) {
    const double r = read_busy[m] / time_ms, w = write_busy[m] / time_ms;
    out.devices.push_back({"disk" + std::to_string(m), r + w, r, w});
    mean_busy += (r + w) / read_busy.size();
  }
  // A request waits for the lock while another holds it: the lock's utilisation by the
  // other n - 1 requests (arrival theorem); a lone request never waits for it.
  const double lock_others = lock_utilization * (net.n - 1.0) / net.n;
  auto add = [&](const char* name, const Kind& k, double own_ms, double mean_ms) {
    if (!(k.share > 0)) return;
    out.statement_latency_ms[name] = mean_ms;
    out.transaction_latency_ms += k.share * mean_ms;
    StatementShape shape;
    shape.mean_ms = mean_ms;
    shape.fixed_ms = std::min(mean_ms, k.ack_ms + own_ms);
    shape.reads = k.device_reads;
    shape.read_service_ms = net.read_service_ms;
    shape.busy = std::clamp(std::max(mean_busy, k.visits_lock ? lock_others : 0.0), 0.0, 0.99);
    out.statement_percentiles[name] = StatementPercentiles(shape);
  };
  add("read", net.read, 0, reads_ms / done);
  add("write", net.write, net.sync_write_ms, writes_ms / done);
  // A request's distribution: a read or a write, in their shares (their mixture's
  // percentiles are approximated by the share-weighted percentiles).
  LatencyPercentiles& t = out.transaction_percentiles;
  for (const auto& [name, q] : out.statement_percentiles) {
    const double share = name == "read" ? net.read.share : net.write.share;
    t.p50_ms += share * q.p50_ms;
    t.p95_ms += share * q.p95_ms;
    t.p99_ms += share * q.p99_ms;
  }
  return out;
}

}  // namespace pgstorsim
