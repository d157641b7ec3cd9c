// The analytic model (docs/model.md): demands, the two regimes, MVA.
#include "model/storage_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "common/units.h"
#include "model/access_geometry.h"
#include "model/cache_misses.h"
#include "model/checkpoint_burst.h"
#include "model/mva.h"
#include "model/regimes.h"
#include "model/row_lock_wait.h"

namespace pgstorsim {
namespace {

constexpr double kRegimeWidth = 0.05;  // Width of the logistic regime switch (in rho).
constexpr int kRampSlices = 8;         // Time slices of a warming (cold) run.
// Share of the non-I/O time per statement (pgbench -r proportions at low load).
const std::pair<const char*, double> kCpuShares[] = {{"BEGIN", 0.05},
                                                     {"SELECT accounts", 0.19},
                                                     {"UPDATE tellers", 0.30},
                                                     {"UPDATE branches", 0.30},
                                                     {"INSERT history", 0.16}};

double CpuShare(const std::string& statement) {
  for (const auto& [name, share] : kCpuShares) {
    if (statement == name) return share;
  }
  return 0;
}

int DataMembers(const ArrayConfig& a) {
  switch (a.level) {
    case RaidLevel::kJbod:
      return 1;
    case RaidLevel::kRaid0:
      return a.disks;
    case RaidLevel::kRaid1:
      return 1;
    case RaidLevel::kRaid10:
      return a.disks / 2;
    case RaidLevel::kRaid5:
      return a.disks - 1;
    case RaidLevel::kRaid6:
      return a.disks - 2;
    case RaidLevel::kRaid50:
      return a.disks - a.spans;
    case RaidLevel::kRaid60:
      return a.disks - 2 * a.spans;
  }
  return 1;
}

// Copies of each block a write goes to in parallel (mirrors).
double MirrorCopies(const ArrayConfig& a) {
  if (a.level == RaidLevel::kRaid10) return 2;
  if (a.level == RaidLevel::kRaid1) return a.disks;
  return 1;
}

// Channels of an SSD that serve I/Os in parallel (at most the queue depth).
double SsdLanes(const Scenario& s) {
  return s.disks.type == DiskType::kSsd ? std::max(1, std::min(s.disks.channels, s.io.queue_depth))
                                        : 1;
}

// An SSD's c channels each serve one I/O in S = latency + bytes / transfer_rate (the
// per-channel rate): a multi-server station, split as usual for MVA (Seidmann) into a
// queue of demand S / c (CostsFor) and a delay of S x (1 - 1 / c) on the I/O's path,
// so a lone I/O costs S and a saturated device serves c / S I/Os per unit time.
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

}  // namespace

const std::vector<std::string>& ModelParamNames() {
  static const std::vector<std::string> names = {
      "read_seek_scale",  "destage_position_ms",    "cpu_ms",
      "commit_ms",        "cache_fraction",         "destage_threshold",
      "fork_join_weight", "update_residence_share", "whole_block_reads"};
  return names;
}

void SetParam(ModelParams* p, const std::string& name, double v) {
  if (name == "read_seek_scale") p->read_seek_scale = v;
  if (name == "destage_position_ms") p->destage_position_ms = v;
  if (name == "cpu_ms") p->cpu_ms = v;
  if (name == "commit_ms") p->commit_ms = v;
  if (name == "cache_fraction") p->cache_fraction = v;
  if (name == "destage_threshold") p->destage_threshold = v;
  if (name == "fork_join_weight") p->fork_join_weight = v;
  if (name == "update_residence_share") p->update_residence_share = v;
  if (name == "whole_block_reads") p->whole_block_reads = v;
}

double GetParam(const ModelParams& p, const std::string& name) {
  if (name == "read_seek_scale") return p.read_seek_scale;
  if (name == "destage_position_ms") return p.destage_position_ms;
  if (name == "cpu_ms") return p.cpu_ms;
  if (name == "commit_ms") return p.commit_ms;
  if (name == "cache_fraction") return p.cache_fraction;
  if (name == "destage_threshold") return p.destage_threshold;
  if (name == "fork_join_weight") return p.fork_join_weight;
  if (name == "update_residence_share") return p.update_residence_share;
  if (name == "whole_block_reads") return p.whole_block_reads;
  return 0;
}

ModelParams ParamsFromScenario(const Scenario& s) {
  ModelParams p;
  for (const auto& [name, value] : s.calibration.values) SetParam(&p, name, value);
  return p;
}

namespace {

// What one operation (a transaction, or a randomio I/O) asks of the storage.
struct OpLoad {
  // Filesystem-block reads per operation once `ops_done` operations have run (a cold
  // cache warms as operations touch blocks; a warm one returns a constant).
  std::function<double(double ops_done)> reads_after;
  bool warming = false;        // reads_after depends on ops_done: integrate over the run.
  double duration_s = 0;       // Run length the warming is integrated over.
  double writes_per_op = 0;    // Filesystem-block writes.
  double delay_ms = 0;         // CPU / client time.
  double footprint_bytes = 0;  // Data the reads spread over.
  bool checkpoints = false;    // PostgreSQL checkpoints (not randomio).
  bool row_locks = false;      // pgbench's tellers/branches row locks (not randomio).
  double flush_group = 1;      // Commits per throttled write (SliceCommitGroup; not randomio).
};

// The network at one read load: both regimes and their blend.
struct Point {
  RegimeSolution a, b;
  double weight = 0;
  double x_per_ms = 0;
  Demands d;
  RowLockWait locks;  // Included in x_per_ms (a delay in the cycle).
};

struct Solved {
  Prediction out;
  double update_ms = 0, end_ms = 0;  // Transaction-weighted over the run.
  double commit_ms = 0;
  RowLockWait locks;
};

// Constant pieces of a solve: geometry, costs, commit and fork-join charge.
struct Network {
  const Scenario* s = nullptr;
  const ModelParams* p = nullptr;
  AccessGeometry geometry;
  DiskCosts costs;
  bool write_back = true;
  double commit_ms = 0;
  double fork = 1;
  double whole_block_read_ms = 0;  // > 0: whole_block_reads (busy ms per block read).
  bool throttled = false;          // disks.type = throttled: ThrottledDemands.
  double latency_per_read_ms = 0;  // Throttled: device latency, a delay per block I/O.
  double latency_per_write_ms = 0;
  double ssd_flush_ms = 0;  // SSD: a block write's time on the commit path (its slowest
                            // piece; pieces on other members or channels overlap).
  std::optional<CheckpointCycle> checkpoint;  // Set: checkpoint bursts stall commits.
};

// The checkpoint's fsync burst (checkpoint_burst.h). A share u of the data writes
// (at throughput `free.x`) is written while the commits wait: it leaves the background
// class that slows the clients' own I/O (`solve` runs on the demands with the data
// writes x (1 - u)), and the bottleneck member's time for it is added to every
// client's cycle: N / X' = N / X + N x stall, the wait counted in END. *d keeps the
// full busy time (`solve` may add to it, as SolveWalOnCommitPath does).
template <typename Solve>
RegimeSolution WithCheckpointStall(const Network& net, int clients, const RegimeSolution& free,
                                   Demands* d, Solve solve) {
  if (!net.checkpoint || !(free.x_per_ms > 0)) return free;
  const double u = net.checkpoint->UnabsorbedShare(free.x_per_ms);
  const std::vector<double> data_ms = d->write_ms;
  double busiest_ms = 0;
  for (double& ms : d->write_ms) {
    busiest_ms = std::max(busiest_ms, ms);
    ms *= 1 - u;
  }
  RegimeSolution r = solve(d);
  for (size_t m = 0; m < data_ms.size(); ++m) d->write_ms[m] += u * data_ms[m];
  const double stall_ms = u * busiest_ms;
  r.x_per_ms = 1 / (1 / r.x_per_ms + stall_ms);
  r.end_ms += clients * stall_ms;
  return r;
}

// Busy ms of `commands` I/Os moving `bytes` under a cap of `iops` and `bytes_per_s`
// (0 = none): the caps are independent, so the slower one sets the pace.
double CapMs(double commands, double bytes, double iops, int64_t bytes_per_s) {
  double ms = commands * 1000 / iops;
  if (bytes_per_s > 0) ms = std::max(ms, bytes * 1000 / static_cast<double>(bytes_per_s));
  return ms;
}

// Commits per WAL flush where a throttled device's write cap binds. blk-throttle grants
// write_iops x 100 ms I/Os per slice (block/blk-throttle.c, throtl_slice on a rotational
// device; the simulator's ThrottledDisk has the same slices); once a slice's budget is
// spent every client ends up waiting at its commit, and the next slice's first flush
// carries all N commit records (each inserted before it started), the rest about one
// each: (budget - 1 + N) / budget. 1 when the writes are not commit flushes or the
// device is not throttled.
double SliceCommitGroup(const Scenario& s) {
  if (s.disks.type != DiskType::kThrottled || !s.postgres.wal_on_data_volume ||
      !s.postgres.synchronous_commit) {
    return 1;
  }
  const double budget = ThrottleSliceBudget(s.disks.write_iops);
  return (budget - 1 + std::max(1, s.workload.clients)) / budget;
}

// A throttled member is two independent stations, its read cap (stations 0..M-1) and
// its write cap (M..2M-1), so reads never queue behind writes. RAID 5/6 pre-reads
// spend the read cap. The host issues the writes (no controller between): pieces of a
// block contiguous on a member are one I/O, which the throttle counts once.
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

// No write-back cache: the WAL write (one filesystem block per commit) is on the commit
// path; data writes go to the disks in the background (OS write-back). The mirror
// copies of the WAL write run in parallel: one copy's time is on the path (the network
// visits stations in turn), the others' busy time is background load. Group commit: a
// commit that arrives while a flush (of F ms) is in progress waits for it to end, then
// goes in the next (PostgreSQL's XLogFlush; the simulator's wal.cc), so a flush covers
// the commits that arrived during the previous one. Flow balance (X commits per ms, at
// most one flush per F ms) gives the group g = max(1, X F) (capped at N), the share of
// time a flush is in progress X F / g, and the wait for the one in progress, that share
// x F / 2. Each commit keeps the disks busy for 1 / g of a flush and waits the rest of
// it as a delay. Fills d->wal_ms.
RegimeSolution SolveWalOnCommitPath(const Network& net, int clients, double writes, double delay_ms,
                                    Demands* d) {
  const double copies = MirrorCopies(net.s->array);
  const size_t members = d->read_ms.size();
  std::vector<double> path_ms(members), other_ms(members);
  double flush_ms = 0;
  for (size_t m = 0; m < members; ++m) {
    const double wal_ms = writes > 0 ? net.geometry.WriteMs(m, net.costs) : 0;
    path_ms[m] = wal_ms / copies;
    other_ms[m] = wal_ms - path_ms[m];
    flush_ms += path_ms[m];
  }
  const std::vector<double> data_ms = d->write_ms;
  const double period_ms = std::max(flush_ms, net.ssd_flush_ms);  // F.
  double group = 1, x_per_ms = 0;
  RegimeSolution r;
  for (int it = 0; it < 40; ++it) {
    d->wal_ms.resize(members);
    for (size_t m = 0; m < members; ++m) {
      d->wal_ms[m] = path_ms[m] / group;
      d->write_ms[m] = data_ms[m] + other_ms[m] / group;
    }
    const double busy = std::min(1.0, x_per_ms * period_ms / group);
    const double wait_ms = period_ms - flush_ms / group + busy * period_ms / 2;
    r = SolveReadBound(clients, *d, delay_ms + wait_ms);
    r.end_ms += wait_ms;
    x_per_ms = r.x_per_ms;
    const double next = std::clamp(x_per_ms * period_ms, 1.0, static_cast<double>(clients));
    if (std::fabs(next - group) <= 1e-6 * group) break;
    group = (group + next) / 2;
  }
  return r;
}

Point SolvePointWithDelay(const Network& net, const OpLoad& load, double reads) {
  Point pt;
  const size_t members = net.geometry.members.size();
  if (net.throttled) {
    ThrottledDemands(net, reads, load.writes_per_op / load.flush_group, &pt.d);
  } else {
    for (size_t m = 0; m < members; ++m) {
      pt.d.read_ms.push_back(reads * (net.whole_block_read_ms > 0
                                          ? net.whole_block_read_ms / members
                                          : net.geometry.ReadMs(m, net.costs)));
      pt.d.write_ms.push_back(load.writes_per_op * net.geometry.WriteMs(m, net.costs));
    }
  }
  pt.d.fork = net.fork;
  pt.d.paced = net.throttled;
  pt.d.update_residence_share = net.p->update_residence_share;
  const int n = net.s->workload.clients;
  const double delay_ms = load.delay_ms + reads * net.latency_per_read_ms +
                          load.writes_per_op * net.latency_per_write_ms;
  if (net.write_back) {
    // Commits absorbed until the destage stream fills the cache; then they wait for
    // room and the disks' capacity bounds the throughput (docs/model.md).
    const double free_delay_ms = delay_ms + net.commit_ms * load.writes_per_op;
    pt.a = SolveReadBound(n, pt.d, free_delay_ms);
    pt.weight = 1 / (1 + std::exp(-(pt.a.rho - net.p->destage_threshold) / kRegimeWidth));
    Demands full = pt.d;
    pt.a = WithCheckpointStall(net, n, pt.a, &full, [&](const Demands* run) {
      return SolveReadBound(n, *run, free_delay_ms);
    });
    pt.b = SolveCacheFull(n, pt.d, delay_ms, pt.a);
  } else if (net.throttled) {
    // A throttled write-through device: the commit waits for its write at the cap.
    pt.a = pt.b = SolveDestageBound(n, pt.d, delay_ms);
    pt.weight = 1;
  } else {
    // No write-back cache: the WAL write (one filesystem block per commit) is on the
    // commit path; data writes go to the disks in the background (OS write-back). The
    // mirror copies of the WAL write run in parallel: one copy's time is on the path
    // (the network visits stations in turn), the others' busy time is background load.
    Demands data = pt.d;
    pt.a = SolveWalOnCommitPath(net, n, load.writes_per_op, delay_ms, &pt.d);
    if (net.checkpoint) {
      pt.a = WithCheckpointStall(net, n, pt.a, &data, [&](Demands* run) {
        return SolveWalOnCommitPath(net, n, load.writes_per_op, delay_ms, run);
      });
      pt.d = data;
    }
    pt.b = pt.a;
    pt.weight = 0;
  }
  // Blend the regimes' cycle times, so that N / X stays the sum of the latencies.
  pt.x_per_ms = 1 / ((1 - pt.weight) / pt.a.x_per_ms + pt.weight / pt.b.x_per_ms);
  return pt;
}

// END's mean latency at a point: the commit acknowledgement and the disk residence
// attributed to the commit (as PredictWith reports it).
double PointEndMs(const Network& net, const Point& pt, double writes) {
  const double w = pt.weight;
  return (1 - w) * net.commit_ms * writes + (1 - w) * pt.a.end_ms + w * pt.b.end_ms +
         (net.write_back ? 0 : w * net.commit_ms);
}

// The network with the row-lock waits (row_lock_wait.h) as a delay, in a fixed point
// with the cycle: the waits depend on the throughput and END's latency, which they
// change. Solved for the total wait T = f(T) by the secant method from T = 0 (2-4
// solves; f falls as T grows), to 0.1 % of the cycle; `*wait_ms` (in: a starting
// guess, e.g. the previous ramp slice's; out: T) may be null. Read-only work
// (select-only, randomio) takes no row locks.
Point SolvePoint(const Network& net, const OpLoad& load, double reads, double* wait_ms = nullptr) {
  const bool locks = load.row_locks && load.writes_per_op > 0;
  double t = locks && wait_ms ? std::max(0.0, *wait_ms) : 0;
  OpLoad start = load;
  start.delay_ms += t;
  Point pt = SolvePointWithDelay(net, start, reads);
  if (!locks) return pt;
  RowLockInput in;
  in.clients = net.s->workload.clients;
  in.branches = static_cast<int>(net.s->workload.scale);
  in.branch_update_ms = CpuShare("UPDATE branches") * net.p->cpu_ms;
  const double insert_ms = CpuShare("INSERT history") * net.p->cpu_ms;
  auto waits = [&](const Point& at) {
    in.x_per_ms = at.x_per_ms;
    in.branch_hold_ms = insert_ms + PointEndMs(net, at, load.writes_per_op);
    return MeanRowLockWait(in);
  };
  double t_prev = 0, g_prev = 0;
  RowLockWait next = waits(pt);
  for (int it = 0; it < 20; ++it) {
    const double g = next.tellers_ms + next.branches_ms - t;  // f(T) - T.
    if (std::fabs(g) <= 1e-3 / pt.x_per_ms) break;            // 0.1 % of the cycle.
    const double t_next = it == 0 ? t + g : std::max(0.0, t - g * (t - t_prev) / (g - g_prev));
    t_prev = t;
    g_prev = g;
    t = t_next;
    OpLoad waited = load;
    waited.delay_ms += t;
    pt = SolvePointWithDelay(net, waited, reads);
    next = waits(pt);
  }
  // The wait in the cycle is t; split it as the last evaluation does.
  const double total = next.tellers_ms + next.branches_ms;
  const double tellers_share = total > 0 ? next.tellers_ms / total : 0;
  pt.locks = {t * tellers_share, t * (1 - tellers_share)};
  if (wait_ms) *wait_ms = t;
  return pt;
}

// Transaction-weighted sums over a run (one steady state, or the slices of a ramp).
struct RunTotals {
  double ops = 0, time_ms = 0;  // Operations done, and the time they took.
  double weight = 0, reads = 0, update_ms = 0, end_ms = 0;
  double tellers_wait_ms = 0, branches_wait_ms = 0;
  std::vector<double> read_busy_ms, write_busy_ms;  // Per member.
};

void Accumulate(const Point& pt, double reads, double done, double time_ms, RunTotals* t) {
  t->ops += done;
  t->time_ms += time_ms;
  t->reads += done * reads;
  t->weight += done * pt.weight;
  t->tellers_wait_ms += done * pt.locks.tellers_ms;
  t->branches_wait_ms += done * pt.locks.branches_ms;
  t->update_ms += done * ((1 - pt.weight) * pt.a.update_ms + pt.weight * pt.b.update_ms);
  t->end_ms += done * ((1 - pt.weight) * pt.a.end_ms + pt.weight * pt.b.end_ms);
  t->read_busy_ms.resize(pt.d.read_ms.size());
  t->write_busy_ms.resize(pt.d.read_ms.size());
  for (size_t m = 0; m < pt.d.read_ms.size(); ++m) {
    t->read_busy_ms[m] += done * pt.d.read_ms[m];
    const double wal_ms = pt.d.wal_ms.empty() ? 0 : pt.d.wal_ms[m];
    t->write_busy_ms[m] += done * (pt.d.write_ms[m] + wal_ms);
  }
}

// A warming cache is a ramp: tps(t) rises as the cache fills, so the run's tps is the
// time integral of the slices' throughputs (midpoint rule: each slice solved at the
// reads after the operations done by its middle). A warm cache is one steady state.
RunTotals Integrate(const Network& net, const OpLoad& load) {
  RunTotals t;
  if (!load.warming || !(load.duration_s > 0)) {
    const double reads = load.reads_after(0);
    const Point pt = SolvePoint(net, load, reads);
    Accumulate(pt, reads, 1, 1 / pt.x_per_ms, &t);
    return t;
  }
  const double slice_ms = load.duration_s * 1000 / kRampSlices;
  // The operations done by a slice's middle are predicted from the previous slice's
  // throughput (the first slice's from its start).
  double wait_ms = 0;  // Each slice's lock-wait fixed point starts from the previous.
  double x_per_ms = SolvePoint(net, load, load.reads_after(0), &wait_ms).x_per_ms;
  for (int i = 0; i < kRampSlices; ++i) {
    const double reads = load.reads_after(t.ops + x_per_ms * slice_ms / 2);
    const Point mid = SolvePoint(net, load, reads, &wait_ms);
    x_per_ms = mid.x_per_ms;
    Accumulate(mid, reads, x_per_ms * slice_ms, slice_ms, &t);
  }
  return t;
}

StatusOr<Solved> Solve(const Scenario& s, const ModelParams& p, const OpLoad& load) {
  const double footprint =
      load.footprint_bytes / DataMembers(s.array) / static_cast<double>(s.disks.capacity_bytes);
  auto geometry = ComputeAccessGeometry(s);
  if (!geometry.ok()) return geometry.status();
  Network net;
  net.s = &s;
  net.p = &p;
  net.geometry = *geometry;
  net.costs = CostsFor(s, p, footprint);
  net.write_back = s.controller.EffectiveWriteBack();
  net.fork = 1 + p.fork_join_weight * (ForkJoinFactor(geometry->read_forks) - 1);
  net.throttled = s.disks.type == DiskType::kThrottled;
  if (net.throttled) {
    net.latency_per_read_ms = s.disks.read_latency_ns / 1e6;
    net.latency_per_write_ms = s.disks.write_latency_ns / 1e6;
  } else if (p.whole_block_reads > 0.5) {  // One positioning + the block's transfer per read.
    net.whole_block_read_ms =
        net.costs.read_position_ms +
        static_cast<double>(s.filesystem.block_size_bytes) / net.costs.bytes_per_ms;
    net.fork = 1;
  }
  if (s.disks.type == DiskType::kSsd) {  // The channels' delay (Seidmann, CostsFor).
    const double lanes = SsdLanes(s);
    for (const MemberWork& w : geometry->members) {
      if (w.write_commands <= 0) continue;
      net.ssd_flush_ms = std::max(
          net.ssd_flush_ms, lanes * (net.costs.destage_position_ms +
                                     w.write_bytes / w.write_commands / net.costs.bytes_per_ms));
    }
    double read_ms = net.whole_block_read_ms;  // A block read's queueing demand.
    if (read_ms <= 0) {
      for (size_t m = 0; m < geometry->members.size(); ++m)
        read_ms += geometry->ReadMs(m, net.costs);
    }
    net.latency_per_read_ms = (lanes - 1) * read_ms;
  }
  // Write-through: a commit waits for its write (a throttled device's own latency;
  // the wait for the cap is the write station's residence; on other disks the WAL
  // write is a closed demand, SolvePoint).
  net.commit_ms = net.write_back ? p.commit_ms : net.throttled ? net.latency_per_write_ms : 0;
  if (load.checkpoints && !net.throttled && load.writes_per_op > 0) {
    auto cycle = MakeCheckpointCycle(s, load.writes_per_op);
    if (!cycle.ok()) return cycle.status();
    net.checkpoint = *cycle;
  }
  const RunTotals t = Integrate(net, load);
  Solved r;
  r.commit_ms = net.commit_ms;
  r.update_ms = t.update_ms / t.ops;
  r.end_ms = t.end_ms / t.ops;
  r.locks = {t.tellers_wait_ms / t.ops, t.branches_wait_ms / t.ops};
  Prediction& out = r.out;
  out.tps = out.tps_low = out.tps_high = 1000 * t.ops / t.time_ms;
  out.cache_full_probability = t.weight / t.ops;
  out.regime = out.cache_full_probability >= 0.5 ? "destage-bound" : "read-bound";
  out.reads_per_transaction = t.reads / t.ops;
  out.writes_per_transaction = load.writes_per_op;
  // Stations fold onto members (a throttled member has two; its caps are independent,
  // so its utilisation is that of the busier one).
  const size_t members = geometry->members.size();
  std::vector<double> ur(members), uw(members);
  for (size_t k = 0; k < t.read_busy_ms.size(); ++k) {
    ur[k % members] += t.read_busy_ms[k] / t.time_ms;
    uw[k % members] += t.write_busy_ms[k] / t.time_ms;
  }
  for (size_t m = 0; m < members; ++m) {
    const double total = net.throttled ? std::max(ur[m], uw[m]) : ur[m] + uw[m];
    out.devices.push_back({"disk" + std::to_string(m), total, ur[m], uw[m]});
  }
  double read_total = 0, write_total = 0;
  for (size_t m = 0; m < geometry->members.size(); ++m) {
    read_total += geometry->ReadMs(m, net.costs);
    write_total += geometry->WriteMs(m, net.costs);
  }
  out.read_service_ms = read_total / std::max(1e-12, geometry->read_commands);
  out.destage_service_ms = write_total / std::max(1e-12, geometry->write_commands);
  return r;
}

}  // namespace

StatusOr<Prediction> PredictWith(const Scenario& s, const ModelParams& p) {
  auto misses = MakeMissModel(s, p.cache_fraction);
  if (!misses.ok()) return misses.status();
  OpLoad load;
  const MissModel model = *misses;
  load.reads_after = [model](double done) { return model.ReadsAfter(done); };
  load.warming = s.workload.cache == CacheState::kCold;
  load.duration_s = NsToSec(s.workload.duration_ns);
  load.writes_per_op = s.workload.type == WorkloadKind::kSelectOnly ? 0.0 : 1.0;
  load.flush_group = SliceCommitGroup(s);
  load.delay_ms = p.cpu_ms;
  load.footprint_bytes = misses->database_bytes();
  load.checkpoints = true;
  load.row_locks = s.workload.type == WorkloadKind::kTpcbLike;
  auto solved = Solve(s, p, load);
  if (!solved.ok()) return solved.status();
  const Solved& r = *solved;
  Prediction out = r.out;
  const double w = out.cache_full_probability, writes = load.writes_per_op;
  const bool write_back = s.controller.EffectiveWriteBack();
  auto& lat = out.statement_latency_ms;
  for (const auto& [name, share] : kCpuShares) lat[name] = share * p.cpu_ms;
  lat["UPDATE accounts"] = r.update_ms;
  lat["UPDATE tellers"] += r.locks.tellers_ms;
  lat["UPDATE branches"] += r.locks.branches_ms;
  lat["END"] = (1 - w) * r.commit_ms * writes + r.end_ms + (write_back ? 0 : w * r.commit_ms);
  if (s.workload.type == WorkloadKind::kSelectOnly) {
    lat = {{"SELECT accounts", lat["UPDATE accounts"] + p.cpu_ms}};
  }
  for (const auto& [name, ms] : lat) out.transaction_latency_ms += ms;
  out.devices.push_back({"cpu", out.tps / 1000 * p.cpu_ms / s.host.cpu_cores, 0, 0});
  return out;
}

StatusOr<Prediction> PredictRandomio(const Scenario& s, const ModelParams& p,
                                     const RandomioSpec& spec) {
  if (spec.threads < 1 || spec.file_bytes < kPageBytes || spec.write_fraction < 0 ||
      spec.write_fraction > 1) {
    return Status::Error(
        "randomio: need threads >= 1, a file of at least 8 KiB and a write "
        "fraction in [0, 1]");
  }
  Scenario t = s;
  t.workload.clients = spec.threads;
  t.workload.duration_ns = spec.duration_ns;
  const double pages = static_cast<double>(spec.file_bytes) / kPageBytes;
  const double cache_pages = p.cache_fraction * static_cast<double>(s.host.ram_bytes) / kPageBytes;
  const bool cold = spec.cold;
  const double seconds = NsToSec(spec.duration_ns);
  OpLoad load;
  // Every operation needs its block: a read reads it, a write reads it first when it is
  // not cached (the filesystem rewrites whole blocks).
  const double warm_cached = std::min(1.0, cache_pages / pages);
  load.reads_after = [=](double done) {
    if (!cold) return 1 - warm_cached;
    return 1 - std::min(warm_cached, 1 - std::exp(-done / pages));
  };
  load.warming = cold;
  load.duration_s = seconds;
  load.writes_per_op = spec.write_fraction;
  load.delay_ms = 0;
  load.footprint_bytes = static_cast<double>(spec.file_bytes);
  auto solved = Solve(t, p, load);
  if (!solved.ok()) return solved.status();
  return solved->out;
}

}  // namespace pgstorsim

namespace pgstorsim {

StatusOr<Prediction> Predict(const Scenario& s) {
  const ModelParams params = ParamsFromScenario(s);
  auto base = PredictWith(s, params);
  if (!base.ok()) return base;
  Prediction out = *base;
  // Error band: residual RMS of the calibration plus each fitted parameter's standard
  // error propagated by finite differences, combined in quadrature.
  double var = s.calibration.rms_relative_error * s.calibration.rms_relative_error;
  for (const auto& [name, se] : s.calibration.standard_errors) {
    if (!(se > 0)) continue;
    ModelParams q = params;
    SetParam(&q, name, GetParam(params, name) + se);
    auto shifted = PredictWith(s, q);
    if (!shifted.ok() || out.tps <= 0) continue;
    const double rel = (shifted->tps - out.tps) / out.tps;
    var += rel * rel;
  }
  const double band = std::sqrt(var);
  out.tps_low = out.tps * (1 - band);
  out.tps_high = out.tps * (1 + band);
  return out;
}

}  // namespace pgstorsim
