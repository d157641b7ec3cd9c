// The analytic model's network at one read load (storage_network.h): the regimes, the
// commit path without a write-back cache, checkpoint stalls and the row-lock fixed
// point.
#include <algorithm>
#include <cmath>

#include "device/hdd_positioning.h"
#include "model/cpu_demand.h"
#include "model/page_cache_fill.h"
#include "model/storage_network.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim::storage_network {
namespace {

constexpr double kRegimeWidth = 0.05;  // Width of the logistic regime switch (in rho).
// The idle time between WAL flushes before the throughput is known: long against any
// turn (a random rotational wait).
constexpr double kIdleUnknownMs = 1e9;

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
  r.stall_ms = clients * stall_ms;
  r.burst_ms = stall_ms * net.checkpoint->Transactions(free.x_per_ms);
  return r;
}

// The positioning (ms) of a WAL write on member m of an HDD array without a write-back
// cache: the WAL is appended where the previous flush wrote, so when no other command
// moved the head since (chance exp(-n), n the member's other commands per flush
// interval, taken as Poisson) the write waits for its sector to come round
// (RewriteWaitMs after the previous write's transfer and the idle time between
// flushes); otherwise a random write positioning (the costs'). Others (SSD): the costs'.
double WalPositionMs(const Network& net, size_t m, double other_commands, double idle_ms) {
  const DiskCosts& c = net.costs;
  if (net.s->disks.type != DiskType::kHdd) return c.destage_position_ms;
  const MemberWork& w = net.geometry.members[m];
  const double transfer_ms =
      w.write_commands > 0 ? w.write_bytes / w.write_commands / c.bytes_per_ms : 0;
  const double turn_ms = 2 * net.s->disks.HalfRevolutionMs();
  const double stay = std::exp(-std::max(0.0, other_commands));
  return stay * RewriteWaitMs(turn_ms, transfer_ms + idle_ms) + (1 - stay) * c.destage_position_ms;
}

// No write-back cache: the WAL write (one filesystem block per commit) is on the commit
// path; data writes go to the disks in the background (OS write-back). The WAL write's
// pieces and mirror copies run in parallel: the flush waits for their longest member
// path and the slowest positioning (AccessGeometry::WriteWaitedShare), that share of
// their busy time is on the path (the network visits stations in turn), the rest is
// background load. Group commit: a
// commit that arrives while a flush (of F ms) is in progress waits for it to end, then
// goes in the next (PostgreSQL's XLogFlush; the simulator's wal.cc). The commits that
// arrive during one flush go in the next, so with Z the time a client spends outside
// its commit the group is g = N F / (2 F + Z) (1..N): N / 2 when every client waits at
// its commit, the flow balance X F when the flushes do not run back to back. A flush is
// in progress X F / g of the time, the other N - 1 clients' share of it met by a
// commit, which waits half a flush for it. Each commit keeps the disks busy for 1 / g of
// a flush and waits the rest of it as a delay. F's positioning depends on the flushes'
// spacing (WalPositionMs: the other commands per member and op `other_commands`, the
// idle time g / X - F), solved with g as one fixed point. Fills d->wal_ms.
RegimeSolution SolveWalOnCommitPath(const Network& net, int clients, double commits,
                                    double delay_ms, const std::vector<double>& other_commands,
                                    Demands* d) {
  const size_t members = d->read_ms.size();
  std::vector<double> path_ms(members), other_ms(members);
  std::vector<DiskCosts> costs(members, net.costs);  // Each member's, at its positioning.
  const std::vector<double> data_ms = d->write_ms;
  // A commit finds a flush of the other clients' commits in progress (arrival theorem:
  // the other N - 1 clients' share of the flushes) and waits for half of it.
  const double others = (clients - 1.0) / clients;
  double group = 1, x_per_ms = 0, idle_ms = kIdleUnknownMs;
  RegimeSolution r;
  for (int it = 0; it < 60; ++it) {
    double flush_ms = 0;
    const double ops_per_flush = commits > 0 ? group / commits : 0;
    // Each member's positioning; the flush's commands run at once (WriteWaitedShare)
    // at their mean positioning.
    double commands = 0, position_ms = 0;
    for (size_t m = 0; m < members; ++m) {
      costs[m].destage_position_ms =
          WalPositionMs(net, m, other_commands[m] * ops_per_flush, idle_ms);
      commands += net.geometry.members[m].host_write_commands;
      position_ms += net.geometry.members[m].host_write_commands * costs[m].destage_position_ms;
    }
    DiskCosts mean = net.costs;
    mean.destage_position_ms = commands > 0 ? position_ms / commands : 0;
    const double waited = net.geometry.WriteWaitedShare(mean, net.p->fork_join_weight);
    for (size_t m = 0; m < members; ++m) {
      const double wal_ms = commits > 0 ? net.geometry.SyncWriteMs(m, costs[m]) : 0;
      path_ms[m] = wal_ms * waited;
      other_ms[m] = wal_ms - path_ms[m];
      flush_ms += path_ms[m];
    }
    // F; no flush on the path when no commit waits (synchronous_commit = off).
    const double period_ms = commits > 0 ? std::max(flush_ms, net.ssd_flush_ms) : 0;
    d->wal_ms.resize(members);
    for (size_t m = 0; m < members; ++m) {
      d->wal_ms[m] = path_ms[m] / group;
      d->write_ms[m] = data_ms[m] + other_ms[m] / group;
    }
    const double busy = std::min(1.0, x_per_ms * period_ms / group) * others;
    const double wait_ms = period_ms - flush_ms / group + busy * period_ms / 2;
    r = SolveReadBound(clients, *d, delay_ms + wait_ms);
    r.end_ms += wait_ms;
    r.flush_ms = period_ms;
    r.flush_wait_ms = busy * period_ms / 2;
    x_per_ms = r.x_per_ms;
    const double outside_ms = x_per_ms > 0 ? std::max(0.0, clients / x_per_ms - r.end_ms) : 0;
    const double next = period_ms > 0
                            ? std::clamp(clients * period_ms / (2 * period_ms + outside_ms), 1.0,
                                         static_cast<double>(clients))
                            : 1.0;
    const double next_idle = x_per_ms > 0 && commits > 0
                                 ? std::max(0.0, group / (x_per_ms * commits) - period_ms)
                                 : kIdleUnknownMs;
    const bool settled = std::fabs(next - group) <= 1e-6 * group &&
                         std::fabs(next_idle - idle_ms) <= 1e-6 * (1 + idle_ms);
    if (settled) break;
    group = (group + next) / 2;
    idle_ms = idle_ms >= kIdleUnknownMs ? next_idle : (idle_ms + next_idle) / 2;
  }
  return r;
}

// The network at one read load, a read's positioning `position_scale` x the costs'
// (a reordering drive's gain, ReadReorderGain).
Point SolvePointAt(const Network& net, const OpLoad& load, double reads, double position_scale) {
  Point pt;
  const size_t members = net.geometry.members.size();
  if (net.throttled) {
    ThrottledDemands(net, reads, ThrottledWrites(load), &pt.d);
  } else {
    // Behind a write-back cache a backend's own data write (sync_writes_per_op) is
    // destaged as the others are (predict refuses them on bare disks).
    const double writes =
        load.writes_per_op + load.sync_writes_per_op + load.background_wal_writes_per_op;
    DiskCosts read_costs = net.costs;
    read_costs.read_position_ms *= position_scale;
    const double saved_ms = net.costs.read_position_ms - read_costs.read_position_ms;
    for (size_t m = 0; m < members; ++m) {
      pt.d.read_ms.push_back(reads * (net.whole_block_read_ms > 0
                                          ? (net.whole_block_read_ms - saved_ms) / members
                                          : net.geometry.ReadMs(m, read_costs)));
      pt.d.write_ms.push_back(writes * net.geometry.WriteMs(m, net.costs));
    }
  }
  pt.d.read_waited = net.read_waited;
  pt.d.paced = net.throttled;
  pt.d.mirrors = net.geometry.mirrors;
  pt.d.update_residence_share = net.p->update_residence_share;
  pt.d.cpu = load.cpu;
  if (load.filling && !net.throttled) return SolveFillPoint(net, load, reads, pt);
  const int n = net.s->workload.clients;
  const double delay_ms =
      load.delay_ms + reads * net.latency_per_read_ms +
      (net.throttled ? ThrottledWrites(load) : load.writes_per_op) * net.latency_per_write_ms;
  if (net.write_back) {
    // Commits absorbed until the destage stream fills the cache; then they wait for
    // room and the disks' capacity bounds the throughput (docs/model.md).
    const double free_delay_ms = delay_ms + net.commit_ms * load.commits_per_op;
    pt.a = SolveReadBound(n, pt.d, free_delay_ms);
    pt.weight = 1 / (1 + std::exp(-(pt.a.rho - net.p->destage_threshold) / kRegimeWidth));
    const bool commits_wait = load.commits_per_op > 0;
    if (commits_wait) {
      Demands full = pt.d;
      pt.a = WithCheckpointStall(net, n, pt.a, &full, [&](const Demands* run) {
        return SolveReadBound(n, *run, free_delay_ms);
      });
    }
    pt.b = SolveCacheFull(n, pt.d, delay_ms, pt.a);
    // Without commits that wait for room (synchronous_commit = off) the cache takes the
    // checkpoint's burst and nobody waits for it; the disks' capacity bounds the
    // throughput only once the free solution exceeds it, as without a write-back cache.
    if (!commits_wait) pt.weight = pt.b.x_per_ms < pt.a.x_per_ms ? 1 : 0;
  } else if (net.throttled) {
    // A throttled write-through device: the commit waits for its write at the cap.
    pt.a = pt.b = SolveDestageBound(n, pt.d, delay_ms);
    pt.weight = 1;
  } else {
    // No write-back cache: the WAL write (one filesystem block per commit) is on the
    // commit path; data writes go to the disks in the background (OS write-back)
    // (SolveWalOnCommitPath). A WAL on its own device (postgres.wal_on_data_volume = off) flushes
    // off these disks: an ideal device's flush, as the simulator's (no commits in `load`).
    const double writes = load.writes_per_op + load.sync_writes_per_op;
    std::vector<double> other_commands(members);
    for (size_t m = 0; m < members; ++m) {
      const MemberWork& w = net.geometry.members[m];
      other_commands[m] =
          reads * w.read_commands + writes * (w.write_commands + w.pre_read_commands);
    }
    Demands data = pt.d;
    pt.a = SolveWalOnCommitPath(net, n, load.commits_per_op, delay_ms, other_commands, &pt.d);
    if (net.checkpoint) {
      pt.a = WithCheckpointStall(net, n, pt.a, &data, [&](Demands* run) {
        return SolveWalOnCommitPath(net, n, load.commits_per_op, delay_ms, other_commands, run);
      });
      pt.d = data;
    }
    // The OS writes the data back no faster than the disks take it: past their capacity
    // the backends wait for it (balance_dirty_pages), as commits wait for room in a full
    // write-back cache. Binds where no commit paces the load (synchronous_commit = off).
    pt.b = SolveCacheFull(n, pt.d, delay_ms, pt.a);
    pt.weight = pt.b.x_per_ms < pt.a.x_per_ms ? 1 : 0;
  }
  // Blend the regimes' cycle times, so that N / X stays the sum of the latencies.
  pt.x_per_ms = 1 / ((1 - pt.weight) / pt.a.x_per_ms + pt.weight / pt.b.x_per_ms);
  return pt;
}

// The network at one read load; on drives that reorder, at the read positioning that
// agrees with the reads it leaves queued (drive_reordering.h), those the clients'
// queues at the members hold (regime a).
Point SolvePointWithDelay(const Network& net, const OpLoad& load, double reads) {
  if (reads <= 0) return SolvePointAt(net, load, reads, 1);
  const int n = net.s->workload.clients;
  return SolveWithReorderGain(
      net.reorder, [&](double scale) { return SolvePointAt(net, load, reads, scale); },
      [n](const Point& pt) {
        return ReadsQueuedAtPick(pt.a.x_per_ms * pt.a.read_queue_ms, pt.d.read_ms, n);
      });
}

}  // namespace

double PointEndMs(const Network& net, const Point& pt, double commits) {
  const double w = pt.weight;
  return (1 - w) * net.commit_ms * commits + (1 - w) * pt.a.end_ms + w * pt.b.end_ms +
         (net.write_back ? 0 : w * net.commit_ms * commits);
}

Point SolvePoint(const Network& net, const OpLoad& load, double reads, double* wait_ms) {
  const bool locks = load.row_locks;
  double t = locks && wait_ms ? std::max(0.0, *wait_ms) : 0;
  OpLoad start = load;
  start.delay_ms += t;
  Point pt = SolvePointWithDelay(net, start, reads);
  if (!locks) return pt;
  RowLockInput in;
  in.clients = net.s->workload.clients;
  in.branches = static_cast<int>(net.s->workload.scale);
  in.branch_update_ms = StatementCpuShare(Statement::kUpdateBranches) * net.p->cpu_ms;
  const double insert_ms = StatementCpuShare(Statement::kInsertHistory) * net.p->cpu_ms;
  auto waits = [&](const Point& at) {
    in.x_per_ms = at.x_per_ms;
    in.branch_hold_ms = insert_ms + PointEndMs(net, at, load.commits_per_op);
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

}  // namespace pgstorsim::storage_network
