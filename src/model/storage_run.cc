// A pgbench run solved over its cache state and its demands (docs/model.md): a ramp
// integrated in slices, the host's demands sampled at the run's length, the written
// share of the page writes as a fixed point (storage_network.h).
#include <algorithm>
#include <cmath>
#include <memory>

#include "common/units.h"
#include "model/cache_misses.h"
#include "model/cpu_demand.h"
#include "model/io_workload.h"
#include "model/model_error.h"
#include "model/page_cache_fill.h"
#include "model/percentiles.h"
#include "model/run_writes.h"
#include "model/storage_network.h"
#include "pgmodel/demands.h"
#include "pgmodel/host_scenario.h"
#include "workload/tpcb.h"

namespace pgstorsim::storage_network {
namespace {

constexpr int kRampSlices = 8;  // Time slices of a warming (cold) run.

// Transaction-weighted sums over a run (one steady state, or the slices of a ramp).
struct RunTotals {
  double ops = 0, time_ms = 0;  // Operations done, and the time they took.
  double weight = 0, reads = 0, update_ms = 0, end_ms = 0, cpu_ms = 0;
  double stall_ms = 0, stall_burst_ms2 = 0;  // Checkpoint stalls, and x burst length.
  double flush_ms = 0, flush_wait_ms = 0;    // Commits' own WAL flushes, waits for one.
  double tellers_wait_ms = 0, branches_wait_ms = 0;
  double fill_ops = 0, fill_ms = 0;  // Of ops and time_ms, while the OS page cache fills.
  // Of ops, those whose reads queue behind a destage stream that saturates the disks:
  // a full write-back cache's (its weight), every one while the OS page cache fills and
  // once it holds its dirty limit.
  double saturated_ops = 0;
  std::vector<double> read_busy_ms, write_busy_ms;  // Per member.
};

// `done` operations in `time_ms` at `pt`, `saturated` (0..1) of them with their reads
// behind a destage stream that saturates the disks (RunTotals::saturated_ops).
void Accumulate(const Point& pt, double reads, double done, double time_ms, double saturated,
                RunTotals* t) {
  t->ops += done;
  t->saturated_ops += done * saturated;
  t->time_ms += time_ms;
  t->reads += done * reads;
  t->weight += done * pt.weight;
  t->tellers_wait_ms += done * pt.locks.tellers_ms;
  t->branches_wait_ms += done * pt.locks.branches_ms;
  t->update_ms += done * ((1 - pt.weight) * pt.a.update_ms + pt.weight * pt.b.update_ms);
  t->end_ms += done * ((1 - pt.weight) * pt.a.end_ms + pt.weight * pt.b.end_ms);
  t->cpu_ms += done * ((1 - pt.weight) * pt.a.cpu_ms + pt.weight * pt.b.cpu_ms);
  const double stall_ms = done * (1 - pt.weight) * pt.a.stall_ms;
  t->stall_ms += stall_ms;
  t->stall_burst_ms2 += stall_ms * pt.a.burst_ms;
  t->flush_ms += done * pt.a.flush_ms;
  t->flush_wait_ms += done * pt.a.flush_wait_ms;
  t->read_busy_ms.resize(pt.d.read_ms.size());
  t->write_busy_ms.resize(pt.d.read_ms.size());
  for (size_t m = 0; m < pt.d.read_ms.size(); ++m) {
    t->read_busy_ms[m] += done * pt.d.read_ms[m];
    const double wal_ms = pt.d.wal_ms.empty() ? 0 : pt.d.wal_ms[m];
    t->write_busy_ms[m] += done * (pt.d.write_ms[m] + wal_ms);
  }
}

// The share of a steady point's operations whose reads queue behind a saturating
// destage stream: a full write-back cache's weight.
double SteadySaturated(const Network& net, const Point& pt) {
  return net.write_back ? pt.weight : 0;
}

// `span_ms` of the run at `reads` per operation, steady at `pt`, its first part while
// the OS page cache fills (page_cache_fill.h) as long as `*room` (data writes the
// cache can still take dirty) lasts and the fill is faster than `pt`. Returns the
// throughput at the span's end.
double AccumulateSpan(const Network& net, const OpLoad& load, double reads, const Point& pt,
                      double span_ms, double* room, RunTotals* t) {
  if (*room > 0) {
    OpLoad fill_load = load;
    fill_load.filling = true;
    const Point fill = SolvePoint(net, fill_load, reads);
    const double growth = FillGrowthPerMs(load, fill);
    if (growth > 0 && fill.x_per_ms > pt.x_per_ms) {
      const double fill_ms = std::min(span_ms, *room / growth);
      Accumulate(fill, reads, fill.x_per_ms * fill_ms, fill_ms, /*saturated=*/1, t);
      t->fill_ops += fill.x_per_ms * fill_ms;
      t->fill_ms += fill_ms;
      // A fill that ends within the span leaves no room (not a rounding residue).
      *room = fill_ms < span_ms ? 0 : *room - growth * fill_ms;
      span_ms -= fill_ms;
      if (!(span_ms > 0)) return fill.x_per_ms;
    }
  }
  // After a fill the OS holds its dirty limit's backlog: the disks always have writes.
  const bool backlog = load.fill_room_writes > 0 && !(*room > 0);
  Accumulate(pt, reads, pt.x_per_ms * span_ms, span_ms, backlog ? 1 : SteadySaturated(net, pt), t);
  return pt.x_per_ms;
}

// A warming cache is a ramp: tps(t) rises as the cache fills, so the run's tps is the
// time integral of the slices' throughputs (midpoint rule: each slice solved at the
// reads after the operations done by its middle). A warm cache is one steady state.
// Either begins with the OS page cache's fill where there is one (AccumulateSpan).
RunTotals Integrate(const Network& net, const OpLoad& load) {
  RunTotals t;
  double room = load.fill_room_writes;
  if (!load.warming || !(load.duration_s > 0)) {
    const double reads = load.reads_after(0);
    const Point pt = SolvePoint(net, load, reads);
    if (room > 0 && load.duration_s > 0) {
      AccumulateSpan(net, load, reads, pt, load.duration_s * 1000, &room, &t);
    } else {
      Accumulate(pt, reads, 1, 1 / pt.x_per_ms, SteadySaturated(net, pt), &t);
    }
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
    x_per_ms = AccumulateSpan(net, load, reads, mid, slice_ms, &room, &t);
  }
  return t;
}

// The members' utilisations and mean command costs over the run. Stations fold onto
// members (a throttled member has two; its caps are independent, so its utilisation is
// that of the busier one).
void AddDevices(const Network& net, const RunTotals& t, Prediction* out) {
  const size_t members = net.geometry.members.size();
  std::vector<double> ur(members), uw(members);
  for (size_t k = 0; k < t.read_busy_ms.size(); ++k) {
    ur[k % members] += t.read_busy_ms[k] / t.time_ms;
    uw[k % members] += t.write_busy_ms[k] / t.time_ms;
  }
  double read_total = 0, write_total = 0;
  for (size_t m = 0; m < members; ++m) {
    const double total = net.throttled ? std::max(ur[m], uw[m]) : ur[m] + uw[m];
    out->devices.push_back({"disk" + std::to_string(m), total, ur[m], uw[m]});
    read_total += net.geometry.ReadMs(m, net.costs);
    write_total += net.geometry.WriteMs(m, net.costs);
  }
  out->read_service_ms = read_total / std::max(1e-12, net.geometry.read_commands);
  out->destage_service_ms = write_total / std::max(1e-12, net.geometry.write_commands);
}

// A commit behind the OS's writes (a checkpoint's burst; a full write-back cache's
// room) waits for the WAL write in progress, then its own, each queued behind the OS's
// writes in flight (pgmodel::OsWritesInFlight) at the member slowest to write a
// filesystem block (Prediction::commit_behind_os_writes_ms).
double BehindOsWritesMs(const Network& net) {
  double block_ms = 0;
  for (size_t m = 0; m < net.geometry.members.size(); ++m) {
    block_ms = std::max(block_ms, net.geometry.WriteMs(m, net.costs));
  }
  return 2 * pgmodel::OsWritesInFlight(*net.s) * block_ms;
}

}  // namespace

Solved SolveNetwork(const Network& net, const OpLoad& load) {
  const RunTotals t = Integrate(net, load);
  Solved r;
  r.commit_ms = net.commit_ms;
  r.update_ms = t.update_ms / t.ops;
  r.end_ms = t.end_ms / t.ops;
  r.cpu_ms = t.cpu_ms / t.ops;
  r.locks = {t.tellers_wait_ms / t.ops, t.branches_wait_ms / t.ops};
  Prediction& out = r.out;
  out.tps = out.tps_low = out.tps_high = 1000 * t.ops / t.time_ms;
  out.cache_full_probability = t.weight / t.ops;
  out.destage_saturated_share = t.saturated_ops / t.ops;
  // The capacity-bound regime is a full write-back cache's; without one it is the
  // disks' writes that hold the load (a throttled device's commits at its write cap, or
  // the OS's write-back past what the disks take).
  out.regime = out.cache_full_probability < 0.5 ? "read-bound"
               : net.write_back                 ? "destage-bound"
                                                : "write-bound";
  out.reads_per_transaction = t.reads / t.ops;
  out.writes_per_transaction = load.writes_per_op + load.sync_writes_per_op;
  out.checkpoint_stall_ms = t.stall_ms / t.ops;
  out.commit_behind_os_writes_ms = BehindOsWritesMs(net);
  if (t.stall_ms > 0) {
    out.checkpoint_burst_ms = t.stall_burst_ms2 / t.stall_ms;
    // Only commits that flush wait behind the OS's writes.
    if (t.flush_ms > 0) {
      out.burst_flush_wait_ms = std::min(out.checkpoint_burst_ms, out.commit_behind_os_writes_ms);
    }
  }
  if (t.fill_ms > 0) {
    out.fill_s = t.fill_ms / 1000;
    out.fill_tps = 1000 * t.fill_ops / t.fill_ms;
    if (t.time_ms > t.fill_ms) {
      out.after_fill_tps = 1000 * (t.ops - t.fill_ops) / (t.time_ms - t.fill_ms);
    }
  }
  out.wal_flush_ms = t.flush_ms / t.ops;
  out.wal_flush_wait_ms = t.flush_wait_ms / t.ops;
  AddDevices(net, t, &out);
  return r;
}

namespace {

StatusOr<Solved> Solve(const Scenario& s, const ModelParams& p, const OpLoad& load) {
  auto made = MakeNetwork(s, p, load);
  if (!made.ok()) return made.status();
  return SolveNetwork(*made, load);
}

// Sets `load`'s data writes to `written` pages per transaction: those a backend waits
// for on its path, the rest in the background (RunWrites::BackendWaitedWrites).
void SetDataWrites(const RunWrites& run, double written, OpLoad* load) {
  load->sync_writes_per_op = run.BackendWaitedWrites(written);
  load->writes_per_op = written - load->sync_writes_per_op;
}

// The run solved with the host's demands `host` (pgmodel/demands.h) at the share w of
// its data writes that reach the storage, which itself depends on the throughput
// (WrittenShareRoot). Where the data writes are in the background
// (RunWrites::InBackground) the throughput is solved without them and they are
// reported at the share that throughput gives.
StatusOr<Solved> SolveRun(const Scenario& s, const ModelParams& p, OpLoad load,
                          const pgmodel::HostDemands& host) {
  load.wal_bytes_per_op = host.wal_lsn_bytes;
  const RunWrites run(s, host, load.duration_s);
  load.fill_room_writes = run.FillRoomWrites();
  load.dirtied_per_op = host.page_writes;
  if (run.InBackground(load.footprint_bytes)) {
    load.writes_per_op = load.sync_writes_per_op = 0;
    auto free = Solve(s, p, load);
    if (!free.ok()) return free;
    Solved r = *free;
    r.out.writes_per_transaction =
        run.page_writes() * run.WrittenShare(r.out.tps, r.out.reads_per_transaction);
    return r;
  }
  StatusOr<Solved> last = Status::Error("no solve");
  auto excess = [&](double written) -> StatusOr<double> {
    SetDataWrites(run, run.page_writes() * written, &load);
    last = Solve(s, p, load);
    if (!last.ok()) return last.status();
    return run.WrittenShare(last->out.tps, last->out.reads_per_transaction) - written;
  };
  auto root = WrittenShareRoot(excess);
  if (!root.ok()) return root.status();
  return last;
}

// The demand sampler whose cycle host holds the dirty pages the OS merges a second
// eviction into (RunWrites::OsMergedPages): made again only when those pages move more
// than 10 %, so that samples share the first cycle's host while they stay.
class HeldPagesSampler {
 public:
  explicit HeldPagesSampler(const Scenario& s)
      : s_(s), sampler_(std::make_unique<pgmodel::DemandSampler>(s, 0)) {}
  // Holds `pages` (the sampler made again) unless within 10 % of those held; says which.
  bool Hold(double pages) {
    if (std::fabs(pages - held_) <= 0.1 * std::max(held_, 1.0)) return false;
    held_ = pages;
    sampler_ = std::make_unique<pgmodel::DemandSampler>(s_, std::llround(held_));
    return true;
  }
  pgmodel::DemandSampler& sampler() { return *sampler_; }

 private:
  const Scenario& s_;
  double held_ = 0;
  std::unique_ptr<pgmodel::DemandSampler> sampler_;
};

// The run solved with a fresh database's demands, every page write reaching the
// storage; sets `load`'s WAL writer writes at that throughput.
StatusOr<Solved> SolveFresh(const Scenario& s, const ModelParams& p,
                            const pgmodel::HostDemands& fresh, OpLoad* load) {
  SetDataWrites(RunWrites(s, fresh, load->duration_s), fresh.page_writes, load);
  load->wal_bytes_per_op = fresh.wal_lsn_bytes;
  auto first = Solve(s, p, *load);
  if (!first.ok()) return first;
  load->background_wal_writes_per_op =
      WalWriterWritesPerTransaction(s, first->out.tps, first->out.destage_service_ms);
  return first;
}

}  // namespace

// The run's demands depend on its length in transactions (pgmodel/demands.h), on the
// dirty pages the OS page cache merges a second eviction into (HeldPagesSampler, from
// the throughput) and its checkpoint cycle on the throughput (at most
// checkpoint_timeout's worth): solved with a fresh database's demands (SolveFresh),
// then with those of the run that throughput gives (SolveRun), again while the merged
// pages move more than 10 % or, where checkpoint_timeout cut the cycle, the throughput
// more than 2 % (at most kPasses: the throughput falls as the cycle shortens; the
// merged pages may move either way). Held demands: one solve with each.
StatusOr<Solved> SolveTransactions(const Scenario& s, const ModelParams& p, OpLoad load,
                                   RunDemands* demands) {
  if (demands != nullptr && demands->held) {
    auto first = SolveFresh(s, p, demands->fresh, &load);
    if (!first.ok()) return first;
    return SolveRun(s, p, load, demands->run);
  }
  constexpr int kPasses = 6;
  auto shared_misses = SharedBufferMisses(s);
  if (!shared_misses.ok()) return shared_misses.status();
  const auto merged_at = [&](const pgmodel::HostDemands& host, double at_tps) {
    return RunWrites(s, host, load.duration_s).OsMergedPages(at_tps, *shared_misses);
  };
  HeldPagesSampler held(s);
  auto fresh = held.sampler().Sample(0);
  if (!fresh.ok()) return fresh.status();
  auto first = SolveFresh(s, p, *fresh, &load);
  if (!first.ok()) return first;
  double tps = first->out.tps;
  held.Hold(merged_at(*fresh, tps));
  const double timeout_s = NsToSec(s.postgres.checkpoint_timeout_ns);
  for (int pass = 1;; ++pass) {
    auto host = held.sampler().Sample(tps * load.duration_s, tps * timeout_s);
    if (!host.ok()) return host.status();
    auto solved = SolveRun(s, p, load, *host);
    if (demands != nullptr) *demands = {*fresh, *host, false};
    if (!solved.ok() || pass == kPasses) return solved;
    const bool held_moved = held.Hold(merged_at(*host, solved->out.tps));
    const bool tps_moved = host->cycle_cut && std::fabs(solved->out.tps - tps) > 0.02 * tps;
    if (!held_moved && !tps_moved) return solved;
    tps = solved->out.tps;
  }
}

}  // namespace pgstorsim::storage_network
