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
#include "model/mva.h"
#include "model/percentiles.h"
#include "model/storage_network.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace {

constexpr int kRampSlices = 8;         // Time slices of a warming (cold) run.
constexpr double kRegimeWidth = 0.05;  // Logistic width of the cache-full switch (rho).
// Above this the storage does not set the rate (nothing waits for it).
constexpr double kMaxIops = 1e7;

// One kind of request (a read or a write) as the network sees it, per request.
struct Kind {
  double share = 0;             // Of all requests.
  std::vector<double> path_ms;  // Disk busy ms the request waits for, per member.
  bool path_locked = false;     // Its disk path runs under the file lock.
  double ack_ms = 0;            // Fixed wait (controller acknowledgement).
  bool ack_locked = false;
  std::vector<double> after_ms;  // Disk path after the lock is released (an fsync's
                                 // write-through on a filesystem that syncs unlocked).
  std::vector<double> open_ms;   // Background disk busy ms it causes (destage, write-back).
  // Disk busy ms of its own commands that run beside its path (a synchronous write's
  // other pieces and copies): load for the other requests in flight, not for itself.
  std::vector<double> parallel_ms;
  bool visits_lock = false;  // Waits for the lock (and holds it for its locked parts).
  double device_reads = 0;   // Device read commands it waits for (percentiles).
};

struct Net {
  int n = 1;
  Kind read, write;
  double fork = 1;  // Fork-join charge on a split read's residence.
  double read_service_ms = 0, destage_service_ms = 0;
  double sync_write_ms = 0;  // A synchronous write's wait for its own commands, unqueued.
  double destage_threshold = 0.75;
  bool write_back = true;
  size_t members = 0;
};

struct Solution {
  double x_per_ms = 0;
  double read_ms = 0, write_ms = 0;  // Mean latency per request of the kind.
  double lock_utilization = 0;
  double cache_full_weight = 0;
  std::vector<double> read_busy, write_busy;  // Utilisation per member.
};

double Residence(const std::vector<double>& ms, const std::vector<double>& util) {
  double r = 0;
  for (size_t m = 0; m < ms.size(); ++m) r += ms[m] / std::max(1e-3, 1 - util[m]);
  return r;
}

// The network at throughput x (per ms) in the absorbed regime: the lock's hold and the
// disks' background load depend on x; MVA gives the throughput they allow.
struct Eval {
  double x_mva = 0;
  double read_ms = 0, write_ms = 0, lock_util = 0;
};

Eval Evaluate(const Net& net, double x) {
  const size_t m_count = net.members;
  // Background load at each member: destage / write-back, and the paths run under the
  // lock (one at a time, outside the closed chain); `shared` adds the closed paths.
  std::vector<double> background(m_count, 0), shared(m_count, 0);
  // A request's parallel commands load the others: the unlocked requests (all of a
  // locked path's, n - 1 of n of an unlocked one's), never a locked path.
  const double others = (net.n - 1.0) / net.n;
  for (size_t m = 0; m < m_count; ++m) {
    for (const Kind* k : {&net.read, &net.write}) {
      const double locked = k->path_locked ? k->path_ms[m] + k->parallel_ms[m] : 0;
      const double unlocked = k->path_locked ? 0 : k->path_ms[m] + others * k->parallel_ms[m];
      background[m] += x * k->share *
                       (k->open_ms[m] + locked + (k->path_locked ? 0 : others * k->parallel_ms[m]));
      shared[m] += x * k->share * (k->open_ms[m] + k->after_ms[m] + unlocked);
    }
    background[m] = std::min(background[m], 0.99);
  }
  // A path under the lock is the only locked one in progress: it queues behind the
  // background and the unlocked paths.
  auto hold = [&](const Kind& k, double fork) {
    double h = k.ack_locked ? k.ack_ms : 0;
    if (k.path_locked) h += fork * Residence(k.path_ms, shared);
    return h;
  };
  const double read_fork = net.fork;
  const double hold_read = net.read.visits_lock ? hold(net.read, read_fork) : 0;
  const double hold_write = net.write.visits_lock ? hold(net.write, 1) : 0;
  const double lock_ms = net.read.share * hold_read + net.write.share * hold_write;
  // Stations: members (paths outside the lock, slowed by the background), the lock.
  std::vector<double> demands(m_count + 1, 0);
  std::vector<double> read_part(m_count, 0);
  double delay_ms = 0;
  for (const Kind* k : {&net.read, &net.write}) {
    for (size_t m = 0; m < m_count; ++m) {
      const double path = (k->path_locked ? 0 : k->path_ms[m]) + k->after_ms[m];
      const double d = k->share * path / (1 - background[m]);
      demands[m] += d;
      if (k == &net.read) read_part[m] += d;
    }
    if (!k->ack_locked) delay_ms += k->share * k->ack_ms;
  }
  demands[m_count] = lock_ms;
  Eval e;
  double total = delay_ms;
  for (double d : demands) total += d;
  if (!(total > 0)) {
    e.x_mva = 1e9;
    return e;
  }
  const MvaResult mva = SolveMva(net.n, demands, delay_ms);
  e.x_mva = mva.throughput_per_ms;
  // Latency per request of each kind: its own path's residence at the members (the
  // read's with its fork-join charge), the lock's wait per visit plus its hold, acks.
  double read_res = 0, write_res = 0;
  for (size_t m = 0; m < m_count; ++m) {
    if (demands[m] <= 0) continue;
    const double per_demand = mva.residence_ms[m] / demands[m];
    read_res += per_demand * read_part[m];
    write_res += per_demand * (demands[m] - read_part[m]);
  }
  const double visits =
      (net.read.visits_lock ? net.read.share : 0) + (net.write.visits_lock ? net.write.share : 0);
  const double lock_wait =
      visits > 0 ? std::max(0.0, mva.residence_ms[m_count] - lock_ms) / visits : 0;
  auto latency = [&](const Kind& k, double path_res, double hold_ms, double fork) {
    if (!(k.share > 0)) return 0.0;
    double ms = fork * path_res / k.share + (k.ack_locked ? 0 : k.ack_ms);
    if (k.visits_lock) ms += lock_wait + hold_ms;
    return ms;
  };
  e.read_ms = latency(net.read, read_res, hold_read, read_fork);
  e.write_ms = latency(net.write, write_res, hold_write, 1);
  e.lock_util = e.x_mva * lock_ms;
  return e;
}

// The absorbed regime's throughput: x = X_mva(x), X_mva falling in x (bisection).
Eval SolveAbsorbed(const Net& net, double* x_out) {
  double lo = 0, hi = Evaluate(net, 0).x_mva;
  for (int it = 0; it < 80 && hi - lo > 1e-9 * hi; ++it) {
    const double mid = (lo + hi) / 2;
    (Evaluate(net, mid).x_mva > mid ? lo : hi) = mid;
  }
  *x_out = lo;
  return Evaluate(net, lo);
}

Solution Solve(const Net& net) {
  Solution s;
  double xa = 0;
  const Eval a = SolveAbsorbed(net, &xa);
  // Write-back: the cache fills when the destage stream saturates what the paths
  // leave of the disks; then every member's total demand bounds the throughput.
  double rho = 0, busiest = 0;
  for (size_t m = 0; m < net.members; ++m) {
    const double destage =
        net.write.share * net.write.open_ms[m] + net.read.share * net.read.open_ms[m];
    const double path = net.write.share * (net.write.path_ms[m] + net.write.parallel_ms[m]) +
                        net.read.share * net.read.path_ms[m];
    rho = std::max(rho, xa * destage / std::max(1e-6, 1 - xa * path));
    busiest = std::max(busiest, destage + path);
  }
  double w = 0, xb = xa;
  if (net.write_back && net.write.share > 0) {
    w = 1 / (1 + std::exp(-(rho - net.destage_threshold) / kRegimeWidth));
    if (busiest > 0) xb = std::min(xa, 1 / busiest);
  }
  s.x_per_ms = 1 / ((1 - w) / xa + w / xb);
  s.cache_full_weight = w;
  // The cycle's extra time in the full regime is the writes' wait for room.
  const double extra_ms = net.n / s.x_per_ms - net.n / xa;
  s.read_ms = a.read_ms;
  s.write_ms = a.write_ms;
  if (net.write.share > 0) s.write_ms += extra_ms / net.write.share;
  s.lock_utilization = std::min(1.0, a.lock_util * s.x_per_ms / std::max(1e-12, xa));
  s.read_busy.assign(net.members, 0);
  s.write_busy.assign(net.members, 0);
  for (size_t m = 0; m < net.members; ++m) {
    s.read_busy[m] = s.x_per_ms * net.read.share * net.read.path_ms[m];
    s.write_busy[m] = s.x_per_ms * (net.write.share * (net.write.open_ms[m] + net.write.path_ms[m] +
                                                       net.write.parallel_ms[m]) +
                                    net.read.share * net.read.open_ms[m]);
  }
  return s;
}

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
// charge of a split read). The share of the commands' summed busy time the write waits
// for; the rest loads the members in the background.
double SyncWriteWaitedShare(const AccessGeometry& g, double fork_join_weight) {
  double pre_reads = 0;
  for (const MemberWork& w : g.members) pre_reads += w.pre_read_commands;
  const double commands = g.write_commands;
  if (!(commands > 1)) return 1;
  const double phases = pre_reads > 0 ? 2 : 1;
  const double per_phase = commands / phases;
  const double slowest = 1 + fork_join_weight * (ForkJoinFactor(per_phase) - 1);
  return std::min(1.0, phases * slowest / commands);
}

// The network's pieces once `miss` of the read requests (and of the partial writes'
// blocks) miss the OS cache.
Net BuildNet(const Scenario& s, const ModelParams& p, const IoSpec& spec, const AccessGeometry& g,
             const DiskCosts& random_costs, double miss) {
  Net net;
  net.n = spec.in_flight();
  net.members = g.members.size();
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
  const bool rmw = !spec.direct && spec.partial_block_writes;
  const double copies = DataCopies(ArrayGeometryFor(s));
  const bool sync = spec.direct || spec.fsync_writes;
  // An fsync the filesystem runs without the file lock waits after releasing it.
  const bool sync_unlocked = spec.lock.writes && !spec.direct && !spec.lock.fsync;
  std::vector<double>& sync_path = sync_unlocked ? net.write.after_ms : net.write.path_ms;
  const double waited = SyncWriteWaitedShare(g, p.fork_join_weight);
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
  net.read.visits_lock = lock.reads_wait && net.write.visits_lock;
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
  const double rmw = !spec.direct && spec.partial_block_writes ? 1 : 0;
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
  const double file_fraction = static_cast<double>(spec.file_bytes) /
                               DataMembers(ArrayGeometryFor(s)) /
                               static_cast<double>(s.disks.capacity_bytes);
  const DiskCosts costs = storage_network::CostsFor(s, p, file_fraction);
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
