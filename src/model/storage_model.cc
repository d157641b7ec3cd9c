// The analytic model (docs/model.md): a run's demands integrated over its cache state,
// the prediction with statement latencies and the error band. The network at one read
// load is storage_point.cc, the costs storage_costs.cc (storage_network.h).
#include "model/storage_model.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "common/units.h"
#include "layout/fs_mapping.h"
#include "model/cache_misses.h"
#include "model/cpu_demand.h"
#include "model/io_workload.h"
#include "model/mva.h"
#include "model/model_error.h"
#include "model/percentiles.h"
#include "model/storage_network.h"
#include "pgmodel/demands.h"
#include "pgmodel/host_scenario.h"
#include "pgmodel/os_dirty_limits.h"
#include "scenario/storage_geometry.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace {

using storage_network::CostsFor;
using storage_network::Network;
using storage_network::OpLoad;
using storage_network::Point;
using storage_network::SliceCommitGroup;
using storage_network::SolvePoint;
using storage_network::SsdLanes;

constexpr int kRampSlices = 8;  // Time slices of a warming (cold) run.

struct Solved {
  Prediction out;
  double update_ms = 0, end_ms = 0;  // Transaction-weighted over the run.
  double commit_ms = 0;
  double cpu_ms = 0;  // Residence at the CPU, transaction-weighted.
  RowLockWait locks;
};

// Transaction-weighted sums over a run (one steady state, or the slices of a ramp).
struct RunTotals {
  double ops = 0, time_ms = 0;  // Operations done, and the time they took.
  double weight = 0, reads = 0, update_ms = 0, end_ms = 0, cpu_ms = 0;
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
  t->cpu_ms += done * ((1 - pt.weight) * pt.a.cpu_ms + pt.weight * pt.b.cpu_ms);
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
      load.footprint_bytes / DataMembers(ArrayGeometryFor(s)) / static_cast<double>(s.disks.capacity_bytes);
  auto geometry = load.geometry ? StatusOr<AccessGeometry>(*load.geometry) : ComputeAccessGeometry(s);
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
  } else if (p.whole_block_reads > 0.5) {  // One positioning + the read's transfer.
    double read_bytes = 0;  // The block, and what the controller reads ahead.
    for (const MemberWork& w : geometry->members) read_bytes += w.read_bytes;
    net.whole_block_read_ms = net.costs.read_position_ms + read_bytes / net.costs.bytes_per_ms;
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
    auto cycle = MakeCheckpointCycle(s, load.writes_per_op, load.wal_bytes_per_op);
    if (!cycle.ok()) return cycle.status();
    net.checkpoint = *cycle;
  }
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

// Bytes the OS page cache holds dirty for one data-page write: the filesystem's write
// unit of an 8 KiB page in a large file (a whole block on UFS, the page elsewhere).
double DirtyBytesPerWrite(const Scenario& s) {
  auto fs = FsMapping::Create(FsGeometryFor(s));
  if (!fs.ok()) return kPageBytes;
  return static_cast<double>(
      std::max<int64_t>(kPageBytes, fs->MapWrite(0, kPageBytes).length_bytes));
}

// Share of a run's data-page writes that reach the storage within it: all of them from
// the first checkpoint's closing fsync on (the cycle, `cycle_s`, then its write-out over
// completion_target of it); before it, all but those still held dirty at the end: in
// shared buffers (their dirty share: the writes per page read, at most all of them) and
// in the OS page cache (pgmodel::SteadyDirtyBytes: up to its background threshold, at
// most dirty_expire's worth). With large caches a 30 s run of PostgreSQL 15 at 600 tps
// writes no data page; with small ones nearly every evicted page is written.
struct RunWrites {
  double duration_s = 0;
  double tps = 0;
  double page_writes = 0;  // Per transaction.
  double page_reads = 0;   // Per transaction.
  double write_bytes = 0;  // DirtyBytesPerWrite.
  pgmodel::OsDirtyLimits limits;
};
double WrittenShare(const Scenario& s, double cycle_s, const RunWrites& run) {
  if (!(run.duration_s > 0)) return 1;
  const double first_fsync_s = cycle_s * (1 + CheckpointCompletionTarget(s.postgres));
  const double after_fsync =
      std::clamp((run.duration_s - first_fsync_s) / run.duration_s, 0.0, 1.0);
  const double dirtied = run.page_writes * run.tps * run.duration_s;
  if (!(dirtied > 0)) return after_fsync;
  const double os_held =
      pgmodel::SteadyDirtyBytes(run.limits, run.page_writes * run.tps * run.write_bytes) /
      run.write_bytes;
  const double dirty_share = std::min(1.0, run.page_writes / std::max(run.page_reads, 1e-9));
  const double shared_held =
      dirty_share * static_cast<double>(s.postgres.shared_buffers_bytes / kPageBytes);
  return std::max(after_fsync, std::clamp(1 - (shared_held + os_held) / dirtied, 0.0, 1.0));
}

// synchronous_commit = off: the WAL writer's flushes per transaction at `tps`, one
// write each wal_writer_delay, or back to back when a write (`write_ms`) takes longer
// (one process, one flush at a time), at most one per transaction; where they reach
// the disks: the WAL on the data volume and no write-back cache to absorb them (with
// one, they are absorbed as the commits' WAL writes are). 0 with synchronous commit.
double WalWriterWritesPerTransaction(const Scenario& s, double tps, double write_ms) {
  const bool absorbed = s.controller.EffectiveWriteBack() && s.disks.type != DiskType::kThrottled;
  if (s.postgres.synchronous_commit || !s.postgres.wal_on_data_volume || absorbed ||
      s.workload.type == WorkloadKind::kSelectOnly || !(tps > 0)) {
    return 0;
  }
  const double flushes_per_s =
      std::min(1 / NsToSec(s.postgres.wal_writer_delay_ns), 1000 / std::max(write_ms, 1e-6));
  return std::min(1.0, flushes_per_s / tps);
}

// True when no backend waits for a data write: every page the run can dirty fits in
// shared buffers and under the OS's dirty limit (a write() returns; the OS and the
// checkpointer write back in the background, and a checkpoint the disks cannot keep
// up with stretches its cycle), and no commit waits for a WAL write behind them on the
// same volume (synchronous commit with the WAL on the data volume).
bool DataWritesInBackground(const Scenario& s, const pgmodel::OsDirtyLimits& limits,
                            double database_bytes) {
  const auto held = static_cast<double>(s.postgres.shared_buffers_bytes + limits.limit_bytes);
  const bool commits_queue = s.postgres.synchronous_commit && s.postgres.wal_on_data_volume;
  return database_bytes <= held && !commits_queue;
}

// The run's demands depend on its length in transactions (pgmodel/demands.h) and its
// checkpoint cycle on the throughput: solved with a fresh database's demands, all
// written, then with those of the run that throughput gives, at the share of its data
// writes that reach the storage (WrittenShare), which itself depends on the
// throughput: the share w with WrittenShare(tps(w)) = w, by bisection (tps falls as w
// rises, so the root is unique). Where the data writes are in the background
// (DataWritesInBackground) the throughput is solved without them and they are
// reported at the share that throughput gives.
StatusOr<Solved> SolveTransactions(const Scenario& s, const ModelParams& p, OpLoad load) {
  auto fresh = pgmodel::SampleDemands(s, 0);
  if (!fresh.ok()) return fresh.status();
  load.writes_per_op = fresh->page_writes;
  load.wal_bytes_per_op = fresh->wal_lsn_bytes;
  auto first = Solve(s, p, load);
  if (!first.ok()) return first;
  const double tps0 = first->out.tps;
  load.background_wal_writes_per_op =
      WalWriterWritesPerTransaction(s, tps0, first->out.destage_service_ms);
  auto host = pgmodel::SampleDemands(s, tps0 * load.duration_s);
  if (!host.ok()) return host.status();
  load.wal_bytes_per_op = host->wal_lsn_bytes;
  const double wal_cycle_txn = static_cast<double>(pgmodel::CheckpointWalBytes(
                                   pgmodel::CheckpointSegments(s.postgres),
                                   pgmodel::MaxWalSizeBytes(s.postgres),
                                   CheckpointCompletionTarget(s.postgres))) /
                               std::max(1.0, host->wal_lsn_bytes);
  const pgmodel::OsDirtyLimits limits = pgmodel::OsDirtyLimitsOf(s);
  const double write_bytes = DirtyBytesPerWrite(s);
  auto solve_at = [&](double written) {
    load.writes_per_op = host->page_writes * written;
    return Solve(s, p, load);
  };
  auto excess = [&](const Solved& r, double written) {  // WrittenShare(tps(w)) - w.
    const double tps = std::max(r.out.tps, 1e-9);
    const double cycle_s =
        std::min(NsToSec(s.postgres.checkpoint_timeout_ns), wal_cycle_txn / tps);
    return WrittenShare(s, cycle_s,
                        {load.duration_s, tps, host->page_writes, r.out.reads_per_transaction,
                         write_bytes, limits}) -
           written;
  };
  if (DataWritesInBackground(s, limits, load.footprint_bytes)) {
    auto free = solve_at(0);
    if (!free.ok()) return free;
    Solved r = *free;
    r.out.writes_per_transaction = host->page_writes * excess(r, 0);
    return r;
  }
  auto all = solve_at(1);
  if (!all.ok() || excess(*all, 1) >= 0) return all;
  auto none = solve_at(0);
  if (!none.ok() || excess(*none, 0) <= 0) return none;
  double lo = 0, hi = 1;
  StatusOr<Solved> mid = none;
  for (int it = 0; it < 7; ++it) {
    const double w = (lo + hi) / 2;
    mid = solve_at(w);
    if (!mid.ok()) return mid;
    (excess(*mid, w) > 0 ? lo : hi) = w;
  }
  return mid;
}

}  // namespace

namespace storage_network {
StatusOr<Prediction> SolveLoad(const Scenario& s, const ModelParams& p, const OpLoad& load) {
  auto solved = Solve(s, p, load);
  if (!solved.ok()) return solved.status();
  return solved->out;
}
}  // namespace storage_network

StatusOr<Prediction> PredictWith(const Scenario& s, const ModelParams& p) {
  if (s.workload.rate_tps > 0) {
    auto line = s.key_lines.find("workload.rate");
    const std::string where =
        line == s.key_lines.end() ? "" : s.source_file + ":" + std::to_string(line->second) + ": ";
    return Status::Error(where +
                         "key workload.rate: an open loop at a target rate is not modelled by "
                         "predict (it answers a closed loop, as fast as possible); use simulate");
  }
  if (s.workload.type == WorkloadKind::kIo) return PredictIo(s, p);
  // Direct data writes: with a write-back cache a backend's write lands in the
  // controller's cache as a buffered one lands in the OS's (the regimes below hold);
  // without one it waits for the disks, which needs the data writes per transaction
  // the model does not have yet.
  if (s.io.data_writes == DataWrites::kDirect && !s.controller.EffectiveWriteBack() &&
      s.workload.type != WorkloadKind::kSelectOnly) {
    return Status::Error(
        "io.data_writes = direct without a write-back cache is not modelled by predict yet "
        "(the backends' synchronous data writes need the writes per transaction); use "
        "simulate, or io.data_writes = buffered");
  }
  auto misses = MakeMissModel(s, p.cache_fraction);
  if (!misses.ok()) return misses.status();
  OpLoad load;
  const MissModel model = *misses;
  load.reads_after = [model](double done) { return model.ReadsAfter(done); };
  load.warming = s.workload.cache == CacheState::kCold;
  load.duration_s = NsToSec(s.workload.duration_ns);
  // Commits that wait for their WAL flush: none without synchronous commit (the WAL
  // writer flushes in the background: WalWriterWritesPerTransaction).
  const bool writes = s.workload.type != WorkloadKind::kSelectOnly;
  load.commits_per_op = writes && s.postgres.synchronous_commit ? 1.0 : 0.0;
  load.flush_group = SliceCommitGroup(s);
  if (s.postgres.wal_on_data_volume) load.wal_writes_per_op = load.commits_per_op / load.flush_group;
  const CpuDemand cpu = TransactionCpu(s, p);
  load.cpu = {cpu.demand_ms, cpu.cores};
  load.footprint_bytes = misses->database_bytes();
  load.checkpoints = true;
  load.row_locks = s.workload.type == WorkloadKind::kTpcbLike;
  auto solved = SolveTransactions(s, p, load);
  if (!solved.ok()) return solved.status();
  const Solved& r = *solved;
  Prediction out = r.out;
  const double w = out.cache_full_probability, commits = load.commits_per_op;
  const bool write_back = s.controller.EffectiveWriteBack();
  auto& lat = out.statement_latency_ms;
  // The CPU's residence (queueing for a core and service) split in the statements' shares.
  const double cpu_residence_ms = r.cpu_ms;
  for (Statement st : WorkloadStatements(s.workload.type)) {
    const std::string name = StatementName(st);
    lat[name] = StatementCpuFraction(s, name) * cpu_residence_ms;
  }
  if (writes) {
    lat["UPDATE accounts"] += r.update_ms;
    lat["END"] += (1 - w) * r.commit_ms * commits + r.end_ms + (write_back ? 0 : w * r.commit_ms * commits);
  } else {
    lat["SELECT accounts"] += r.update_ms;
  }
  if (load.row_locks) {
    lat["UPDATE tellers"] += r.locks.tellers_ms;
    lat["UPDATE branches"] += r.locks.branches_ms;
  }
  for (const auto& [name, ms] : lat) out.transaction_latency_ms += ms;
  const double cpu_utilization = out.tps / 1000 * cpu.demand_ms / cpu.cores;  // X D / c.
  double busiest_disk = 0;
  for (const DeviceLoad& d : out.devices) busiest_disk = std::max(busiest_disk, d.utilization);
  out.devices.push_back({"cpu", cpu_utilization, 0, 0});
  // The bottleneck is the busiest station.
  if (cpu_utilization > 0 && cpu_utilization >= busiest_disk) out.regime = "cpu-bound";
  return out;
}

StatusOr<Prediction> Predict(const Scenario& s) {
  const ModelParams params = ParamsFromScenario(s);
  auto base = PredictWith(s, params);
  if (!base.ok()) return base;
  Prediction out = *base;
  // Error band: each fitted parameter's standard error propagated by finite
  // differences, and the model's own error on unseen configurations of this class
  // (leave-one-out over the validation tables; it replaces the calibration's own
  // residual RMS, an in-sample figure), combined in quadrature.
  double var = 0;
  for (const auto& [name, se] : s.calibration.standard_errors) {
    if (!(se > 0)) continue;
    ModelParams q = params;
    SetParam(&q, name, GetParam(params, name) + se);
    auto shifted = PredictWith(s, q);
    if (!shifted.ok() || out.tps <= 0) continue;
    const double rel = (shifted->tps - out.tps) / out.tps;
    var += rel * rel;
  }
  const ModelError model = ModelErrorFor(ModelErrorClass(GetScenarioKey(s, "disks.type").value(), out.regime));
  out.parameter_error_fraction = std::sqrt(var);
  out.model_error_fraction = model.band_fraction;
  out.model_error_class = model.error_class;
  out.model_error_rows = model.rows;
  const double band = std::sqrt(var + model.band_fraction * model.band_fraction);
  out.tps_low = out.tps * (1 - band);
  out.tps_high = out.tps * (1 + band);
  if (s.workload.type != WorkloadKind::kIo) AddPercentiles(s, params, &out);  // io: its own.
  return out;
}

}  // namespace pgstorsim
