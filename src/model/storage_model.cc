// The analytic model's entry (docs/model.md): which runs it answers, a transaction's
// load, the statements' latencies and the error band. The run solved over its cache
// state and demands is storage_run.cc, the network at one read load storage_point.cc,
// the costs storage_costs.cc (storage_network.h).
#include "model/storage_model.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "common/units.h"
#include "model/cache_misses.h"
#include "model/cpu_demand.h"
#include "model/io_workload.h"
#include "model/model_error.h"
#include "model/percentiles.h"
#include "model/run_writes.h"
#include "model/storage_network.h"
#include "pgmodel/demands.h"
#include "pgmodel/host_scenario.h"
#include "workload/tpcb.h"

namespace pgstorsim {

using storage_network::OpLoad;
using storage_network::RunDemands;
using storage_network::SliceCommitGroup;
using storage_network::Solved;
using storage_network::SolveTransactions;

namespace {

// Why predict cannot answer `s` (empty when it can): an open loop, or direct data
// writes to disks without a write-back cache in front (the commits' WAL flushes then
// queue behind the checkpointer's direct writes at the disks, which the model does not
// have: 30-50 % from the simulator there; throttled devices and write-back caches are
// modelled).
Status Unanswerable(const Scenario& s) {
  if (s.workload.rate_tps > 0) {
    return Status::Error(KeyLocation(s, "workload.rate") +
                         "key workload.rate: an open loop at a target rate is not modelled by "
                         "predict (it answers a closed loop, as fast as possible); use simulate");
  }
  const bool writes =
      s.workload.type != WorkloadKind::kIo && s.workload.type != WorkloadKind::kSelectOnly;
  if (writes && s.io.data_writes == DataWrites::kDirect && !s.controller.EffectiveWriteBack() &&
      s.disks.type != DiskType::kThrottled) {
    return Status::Error(KeyLocation(s, "io.data_writes") +
                         "key io.data_writes = direct on disks without a write-back cache is not "
                         "modelled by predict (commits' WAL flushes queue behind the "
                         "checkpointer's direct writes); use simulate, io.data_writes = "
                         "buffered, or a write-back controller");
  }
  return Status::Ok();
}

// A pgbench transaction's load on the network (its data writes are set by
// SolveTransactions).
StatusOr<OpLoad> TransactionLoad(const Scenario& s, const ModelParams& p) {
  auto misses = MakeMissModel(s, p.cache_fraction);
  if (!misses.ok()) return misses.status();
  OpLoad load;
  const MissModel model = *misses;
  load.reads_after = [model](double done) { return model.ReadsAfter(done); };
  load.warming = s.workload.cache == CacheState::kCold;
  load.duration_s = NsToSec(s.workload.duration_ns);
  // Commits that wait for a WAL flush on these disks: none without synchronous commit
  // (the WAL writer flushes in the background: WalWriterWritesPerTransaction) or with
  // the WAL on its own (ideal) device.
  const bool writes = s.workload.type != WorkloadKind::kSelectOnly;
  load.commits_per_op = writes && pgmodel::CommitsWriteToDataVolume(s.postgres) ? 1.0 : 0.0;
  load.flush_group = SliceCommitGroup(s);
  load.wal_writes_per_op = load.commits_per_op / load.flush_group;
  const CpuDemand cpu = TransactionCpu(s, p);
  load.cpu = {cpu.demand_ms, cpu.cores};
  load.footprint_bytes = misses->database_bytes();
  load.checkpoints = true;
  load.row_locks = s.workload.type == WorkloadKind::kTpcbLike;
  return load;
}

// The statements' mean latencies and the transaction's from the solved network.
void AddStatementLatencies(const Scenario& s, const Solved& r, const OpLoad& load,
                           Prediction* out) {
  const double w = out->cache_full_probability, commits = load.commits_per_op;
  const bool write_back = s.controller.EffectiveWriteBack();
  auto& lat = out->statement_latency_ms;
  // The CPU's residence (queueing for a core and service) split in the statements' shares.
  for (Statement st : WorkloadStatements(s.workload.type)) {
    const std::string name = StatementName(st);
    lat[name] = StatementCpuFraction(s, name) * r.cpu_ms;
  }
  if (s.workload.type != WorkloadKind::kSelectOnly) {
    lat["UPDATE accounts"] += r.update_ms;
    const double commit_ms = r.commit_ms * commits;
    // A commit that flushes nothing on these disks (synchronous_commit = off, or the WAL
    // on its own device) waits for no write here: the disks' residence the network
    // charges at the commit (a full cache, the OS's write-back limit, checkpoint bursts)
    // is the transaction's reads' wait behind them.
    lat[commits > 0 ? "END" : "UPDATE accounts"] += r.end_ms;
    lat["END"] += (1 - w) * commit_ms + (write_back ? 0 : w * commit_ms);
  } else {
    lat["SELECT accounts"] += r.update_ms;
  }
  if (load.row_locks) {
    lat["UPDATE tellers"] += r.locks.tellers_ms;
    lat["UPDATE branches"] += r.locks.branches_ms;
  }
  for (const auto& [name, ms] : lat) out->transaction_latency_ms += ms;
}

}  // namespace

namespace {

// With the write-back cache free (or none), whether the transactions wait longer for
// their commits' writes (END: the WAL flush, the flush in progress, checkpoint bursts
// behind the OS's writes) than in all the other statements (their reads, row locks and
// CPU): then the disks' writes, not the cache misses, set the pace.
bool CommitWritesSetThePace(const Prediction& out) {
  const auto end = out.statement_latency_ms.find("END");
  if (end == out.statement_latency_ms.end()) return false;
  return end->second > out.transaction_latency_ms - end->second;
}

// Whether the reads the transactions wait for spend longer queued behind the busiest
// disk's writes (the OS's write-back, the controller's destage) than on reads, theirs
// and the others': with the disk's read and write utilisations U_r and U_w, a read's
// residence D / (1 - U) splits into D U_w / (1 - U) behind writes and D (1 - U_w) /
// (1 - U) for reads, so the writes set the pace above U_w = 1/2 (docs/model.md,
// "Service demands per transaction", the regime).
bool DiskWritesSetThePace(const DeviceLoad& busiest_disk) {
  return busiest_disk.destage_utilization > 0.5;
}

// A pgbench run of the scenario's duration (`demands`: SolveTransactions').
StatusOr<Prediction> PredictForDuration(const Scenario& s, const ModelParams& p,
                                        RunDemands* demands) {
  auto load = TransactionLoad(s, p);
  if (!load.ok()) return load.status();
  auto solved = SolveTransactions(s, p, *load, demands);
  if (!solved.ok()) return solved.status();
  Prediction out = solved->out;
  AddStatementLatencies(s, *solved, *load, &out);
  const double cpu_utilization =  // X D / c.
      out.tps / 1000 * load->cpu.demand_ms / load->cpu.servers;
  DeviceLoad busiest_disk;
  for (const DeviceLoad& d : out.devices) {
    if (d.utilization > busiest_disk.utilization) busiest_disk = d;
  }
  out.devices.push_back({"cpu", cpu_utilization, 0, 0});
  if (out.regime == "read-bound" && CommitWritesSetThePace(out)) out.regime = "write-bound";
  if (out.regime == "read-bound" && DiskWritesSetThePace(busiest_disk)) {
    out.regime = "write-bound";
  }
  // The bottleneck is the busiest station.
  if (cpu_utilization > 0 && cpu_utilization >= busiest_disk.utilization) out.regime = "cpu-bound";
  return out;
}

// pgbench -t: the run lasts workload.transactions x clients / tps, a fixed point solved
// from the duration's answer (a cold cache warms over the run, so its length matters);
// to 1 % of the run in at most 8 solves.
StatusOr<Prediction> PredictForTransactions(const Scenario& s, const ModelParams& p,
                                            RunDemands* demands) {
  Scenario run = s;
  if (run.workload.duration_ns <= 0) run.workload.duration_ns = SecToNs(900);
  StatusOr<Prediction> out = Status::Error("no solve");
  for (int it = 0; it < 8; ++it) {
    out = PredictForDuration(run, p, demands);
    if (!out.ok() || !(out->tps > 0)) return out;
    const double run_s =
        static_cast<double>(s.workload.transactions) * s.workload.clients / out->tps;
    const double was_s = NsToSec(run.workload.duration_ns);
    run.workload.duration_ns = SecToNs(run_s);
    if (std::fabs(run_s - was_s) <= 0.01 * was_s) break;
  }
  return out;
}

// PredictWith, with the host's demands held or received (SolveTransactions).
StatusOr<Prediction> PredictHolding(const Scenario& s, const ModelParams& p, RunDemands* demands) {
  if (Status why = Unanswerable(s); !why.ok()) return why;
  if (s.workload.type == WorkloadKind::kIo) return PredictIo(s, p);
  if (s.workload.transactions > 0) return PredictForTransactions(s, p, demands);
  return PredictForDuration(s, p, demands);
}

}  // namespace

StatusOr<Prediction> PredictWith(const Scenario& s, const ModelParams& p) {
  return PredictHolding(s, p, nullptr);
}

StatusOr<Prediction> Predict(const Scenario& s) {
  const ModelParams params = ParamsFromScenario(s);
  RunDemands demands;
  auto base = PredictHolding(s, params, &demands);
  if (!base.ok()) return base;
  Prediction out = *base;
  demands.held = true;
  // Error band: each fitted parameter's standard error propagated by finite
  // differences at the base solve's host demands (RunDemands), and the model's own
  // error on unseen configurations of this class (leave-one-out over the validation
  // tables; it replaces the calibration's own residual RMS, an in-sample figure),
  // combined in quadrature.
  double var = 0;
  for (const auto& [name, se] : s.calibration.standard_errors) {
    if (!(se > 0)) continue;
    ModelParams q = params;
    SetParam(&q, name, GetParam(params, name) + se);
    auto shifted = PredictHolding(s, q, &demands);
    if (!shifted.ok() || out.tps <= 0) continue;
    const double rel = (shifted->tps - out.tps) / out.tps;
    var += rel * rel;
  }
  const ModelError model =
      ModelErrorFor(ModelErrorClass(GetScenarioKey(s, "disks.type").value(), out.regime));
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
