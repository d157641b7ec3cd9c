// The analytic model (docs/model.md): demands, the two regimes, MVA.
#include "model/storage_model.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "common/units.h"
#include "model/access_geometry.h"
#include "model/cache_misses.h"
#include "model/mva.h"

namespace pgstorsim {
namespace {

constexpr double kRegimeWidth = 0.02;  // Width of the logistic regime switch (in rho).
// Share of the non-I/O time per statement (pgbench -r proportions at low load).
const std::pair<const char*, double> kCpuShares[] = {{"BEGIN", 0.05},
                                                     {"SELECT accounts", 0.19},
                                                     {"UPDATE tellers", 0.30},
                                                     {"UPDATE branches", 0.30},
                                                     {"INSERT history", 0.16}};

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

DiskCosts CostsFor(const Scenario& s, const ModelParams& p, double footprint_fraction) {
  const DiskConfig& d = s.disks;
  DiskCosts c;
  c.bytes_per_ms = static_cast<double>(d.transfer_rate_bytes_per_s) / 1000.0;
  if (d.type == DiskType::kSsd) {
    const double lanes = std::max(1, std::min(d.channels, s.io.queue_depth));
    c.read_position_ms = d.read_latency_ns / 1e6 / lanes;
    c.destage_position_ms = d.write_latency_ns / 1e6 / lanes;
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

struct Demands {
  std::vector<double> read_ms;   // Per member, per transaction, fork-join included.
  std::vector<double> write_ms;  // Per member, per transaction (destage).
};

struct RegimeSolution {
  double x_per_ms = 0;
  double update_ms = 0;  // Disk residence attributed to the reads.
  double end_ms = 0;     // Disk residence attributed to the commit.
  double rho = 0;        // Destage load / capacity left by reads (read-bound only).
};

// Reads bound: destage is an open background class that slows reads by 1/(1 - U_w).
RegimeSolution SolveReadBound(int clients, const Demands& d, double delay_ms) {
  RegimeSolution r;
  double x = 0;
  for (int it = 0; it < 100; ++it) {
    std::vector<double> inflated(d.read_ms.size());
    for (size_t m = 0; m < inflated.size(); ++m) {
      inflated[m] = d.read_ms[m] / (1 - std::min(0.99, x * d.write_ms[m]));
    }
    MvaResult mva = SolveMva(clients, inflated, delay_ms);
    const double next = it == 0 ? mva.throughput_per_ms : 0.5 * x + 0.5 * mva.throughput_per_ms;
    r.update_ms = mva.cycle_ms - delay_ms;
    const bool converged = std::fabs(next - x) <= 1e-9 * next;
    x = next;
    if (converged) break;
  }
  r.x_per_ms = x;
  for (size_t m = 0; m < d.read_ms.size(); ++m) {
    const double left = std::max(1e-6, 1 - x * d.read_ms[m]);
    r.rho = std::max(r.rho, x * d.write_ms[m] / left);
  }
  return r;
}

// Destage bound: the write-back cache is full, so each commit waits for the destage of
// the transaction's writes; all demands are on the transaction's path.
RegimeSolution SolveDestageBound(int clients, const Demands& d, double delay_ms) {
  std::vector<double> total(d.read_ms.size());
  for (size_t m = 0; m < total.size(); ++m) total[m] = d.read_ms[m] + d.write_ms[m];
  MvaResult mva = SolveMva(clients, total, delay_ms);
  RegimeSolution r;
  r.x_per_ms = mva.throughput_per_ms;
  for (size_t m = 0; m < total.size(); ++m) {
    if (total[m] <= 0) continue;
    r.update_ms += mva.residence_ms[m] * d.read_ms[m] / total[m];
    r.end_ms += mva.residence_ms[m] * d.write_ms[m] / total[m];
  }
  return r;
}

}  // namespace

const std::vector<std::string>& ModelParamNames() {
  static const std::vector<std::string> names = {
      "read_seek_scale", "destage_position_ms", "cpu_ms",          "commit_ms",
      "cache_fraction",  "destage_threshold",   "fork_join_weight"};
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
}

double GetParam(const ModelParams& p, const std::string& name) {
  if (name == "read_seek_scale") return p.read_seek_scale;
  if (name == "destage_position_ms") return p.destage_position_ms;
  if (name == "cpu_ms") return p.cpu_ms;
  if (name == "commit_ms") return p.commit_ms;
  if (name == "cache_fraction") return p.cache_fraction;
  if (name == "destage_threshold") return p.destage_threshold;
  if (name == "fork_join_weight") return p.fork_join_weight;
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
  std::function<double(double ops_per_s)> reads_per_op;  // Filesystem-block reads.
  double writes_per_op = 0;                              // Filesystem-block writes.
  double delay_ms = 0;                                   // CPU / client time.
  double footprint_bytes = 0;                            // Data the reads spread over.
};

struct Solved {
  Prediction out;
  RegimeSolution a, b;
  double weight = 0;
  double commit_ms = 0;
  bool write_back = true;
};

StatusOr<Solved> Solve(const Scenario& s, const ModelParams& p, const OpLoad& load) {
  const double footprint =
      load.footprint_bytes / DataMembers(s.array) / static_cast<double>(s.disks.capacity_bytes);
  const DiskCosts costs = CostsFor(s, p, footprint);
  auto geometry = ComputeAccessGeometry(s);
  if (!geometry.ok()) return geometry.status();
  Solved r;
  r.write_back = s.controller.EffectiveWriteBack();
  const double writes = load.writes_per_op;
  r.commit_ms = r.write_back ? p.commit_ms : costs.destage_position_ms;
  const double fork = 1 + p.fork_join_weight * (ForkJoinFactor(geometry->read_forks) - 1);
  Prediction& out = r.out;
  double x = 0.1;
  for (int it = 0; it < 40; ++it) {
    out.reads_per_transaction = load.reads_per_op(x * 1000);
    Demands d;
    for (size_t m = 0; m < geometry->members.size(); ++m) {
      d.read_ms.push_back(out.reads_per_transaction * geometry->ReadMs(m, costs) * fork);
      d.write_ms.push_back(writes * geometry->WriteMs(m, costs));
    }
    r.a = SolveReadBound(s.workload.clients, d, load.delay_ms + r.commit_ms * writes);
    r.b = SolveDestageBound(s.workload.clients, d, load.delay_ms);
    r.weight =
        r.write_back ? 1 / (1 + std::exp(-(r.a.rho - p.destage_threshold) / kRegimeWidth)) : 1;
    // Blend the regimes' cycle times, so that N / X stays the sum of the latencies.
    const double n = s.workload.clients;
    const double next = n / ((1 - r.weight) * n / r.a.x_per_ms + r.weight * n / r.b.x_per_ms);
    const double previous = x;
    x = it == 0 ? next : 0.5 * x + 0.5 * next;
    const bool last = it == 39 || (it > 0 && std::fabs(x - previous) <= 1e-9 * x);
    for (size_t m = 0; m < d.read_ms.size() && last; ++m) {
      const double ur = x * d.read_ms[m], uw = x * d.write_ms[m];
      out.devices.push_back({"disk" + std::to_string(m), ur + uw, ur, uw});
    }
    if (last) break;
  }
  out.tps = out.tps_low = out.tps_high = x * 1000;
  out.cache_full_probability = r.weight;
  out.regime = r.weight >= 0.5 ? "destage-bound" : "read-bound";
  out.writes_per_transaction = writes;
  double read_total = 0, write_total = 0;
  for (size_t m = 0; m < geometry->members.size(); ++m) {
    read_total += geometry->ReadMs(m, costs);
    write_total += geometry->WriteMs(m, costs);
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
  load.reads_per_op = [model](double tps) { return model.ReadsPerTransaction(tps); };
  load.writes_per_op = s.workload.type == WorkloadType::kSelectOnly ? 0.0 : 1.0;
  load.delay_ms = p.cpu_ms;
  load.footprint_bytes = misses->database_bytes();
  auto solved = Solve(s, p, load);
  if (!solved.ok()) return solved.status();
  const Solved& r = *solved;
  Prediction out = r.out;
  const double w = r.weight, writes = load.writes_per_op;
  auto& lat = out.statement_latency_ms;
  for (const auto& [name, share] : kCpuShares) lat[name] = share * p.cpu_ms;
  lat["UPDATE accounts"] = (1 - w) * r.a.update_ms + w * r.b.update_ms;
  lat["END"] = (1 - w) * r.commit_ms * writes + w * (r.b.end_ms + (r.write_back ? 0 : r.commit_ms));
  if (s.workload.type == WorkloadType::kSelectOnly) {
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
  load.reads_per_op = [=](double ops_per_s) {
    const double warm_cached = std::min(1.0, cache_pages / pages);
    if (!cold) return 1 - warm_cached;
    constexpr int kSteps = 64;
    double sum = 0;
    for (int i = 0; i < kSteps; ++i) {
      const double n = ops_per_s * seconds * (i + 0.5) / kSteps;
      sum += 1 - std::min(warm_cached, 1 - std::exp(-n / pages));
    }
    return sum / kSteps;
  };
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
