// Calibration (calibration.h): the residuals of the measurements under a parameter set,
// the default candidates, and Calibrate, which fits them (calibration_fit.h).
#include "model/calibration.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/calibration_fit.h"
#include "model/least_squares.h"
#include "model/storage_model.h"
#include "scenario/calibration_keys.h"
#include "trace/trace_record.h"

namespace pgstorsim {
namespace {

struct Bounds {
  double lower, upper;
};

Bounds BoundsFor(const std::string& name) {
  const CalibrationKey* key = FindCalibrationKey(name);
  return key == nullptr ? Bounds{1e-6, 1e6} : Bounds{key->fit_lower, key->fit_upper};
}

double OtherStatementsMs(const std::map<std::string, double>& lat) {
  double sum = 0;
  for (const auto& [name, ms] : lat) {
    if (name != "UPDATE accounts" && name != "END") sum += ms;
  }
  return sum;
}

// A device benchmark's requests per second: fio's and randomio's reads and writes,
// bonnie++'s random seeks (kBonnieRequestsPerSeek requests each).
double DeviceIops(const Measured& m) {
  return m.read_iops + m.write_iops > 0 ? m.read_iops + m.write_iops
                                        : kBonnieRequestsPerSeek * m.seeks_per_s;
}

// destage_queue_depth, when fitted, decides by its presence that HDDs serve their
// queue in order (drive_reordering.h): set in `s` at its start value, so that the fit
// predicts as the calibrated scenario will, where it is kept even if held at its start.
void HoldFittedKeys(const std::vector<std::string>& parameters, const ModelParams& start,
                    Scenario* s) {
  const char* key = "destage_queue_depth";
  if (std::find(parameters.begin(), parameters.end(), key) != parameters.end()) {
    s->calibration.values.emplace(key, GetParam(start, key));
  }
}

struct Target {
  Scenario scenario;
  const Measured* measured;
};

// Relative residuals of one target under params; appends names when `names` != null.
void AddResiduals(const Target& t, const ModelParams& params, std::vector<double>* out,
                  std::vector<std::string>* names) {
  auto p = PredictWith(t.scenario, params);
  const Measured& m = *t.measured;
  auto add = [&](const std::string& what, double predicted, double measured) {
    if (measured <= 0) return;
    out->push_back(p.ok() ? (predicted - measured) / measured : 1e3);
    if (names) names->push_back(m.source + ": " + what);
  };
  const Prediction empty;
  const Prediction& pr = p.ok() ? *p : empty;
  if (t.scenario.workload.type == WorkloadKind::kIo) {
    // A device benchmark: requests per second (bonnie++: its seeks), and the mean
    // latency of reads and of writes where measured.
    add("iops", pr.tps, DeviceIops(m));
    auto kind = [&](const char* n) {
      auto it = pr.statement_latency_ms.find(n);
      return it == pr.statement_latency_ms.end() ? 0.0 : it->second;
    };
    add("read latency", kind(IoOpName(IoOp::kRead)), m.read_latency_ms);
    add("write latency", kind(IoOpName(IoOp::kWrite)), m.write_latency_ms);
    return;
  }
  add("tps", pr.tps, m.tps);
  auto lat = [&](const char* n) {
    auto it = pr.statement_latency_ms.find(n);
    return it == pr.statement_latency_ms.end() ? 0.0 : it->second;
  };
  for (const char* n : {"UPDATE accounts", "END"}) {
    auto it = m.statement_latency_ms.find(n);
    if (it != m.statement_latency_ms.end()) add(n, lat(n), it->second);
  }
  if (m.statement_latency_ms.size() > 2) {
    add("other statements", OtherStatementsMs(pr.statement_latency_ms),
        OtherStatementsMs(m.statement_latency_ms));
  }
}

}  // namespace

const std::vector<std::string>& DefaultFittedParameters() {
  static const std::vector<std::string> names = {"read_seek_scale", "destage_queue_depth",
                                                 "cpu_ms"};
  return names;
}

const std::vector<std::string>& DefaultFittedParametersFor(const Scenario& s) {
  static const std::vector<std::string> ssd = {"ssd_read_latency_scale", "ssd_write_latency_scale",
                                               "cpu_ms"};
  return s.disks.type == DiskType::kSsd ? ssd : DefaultFittedParameters();
}

std::vector<std::string> DefaultFitFor(const Scenario& base,
                                       const std::vector<CalibrationInput>& inputs) {
  std::vector<std::string> out;
  auto fixed = [&](const std::string& name) { return base.calibration.values.count(name) > 0; };
  for (const std::string& name : DefaultFittedParametersFor(base)) {
    // An explicit destage_position_ms replaces what destage_queue_depth would give.
    const bool replaced = name == "destage_queue_depth" && fixed("destage_position_ms");
    if (!fixed(name) && !replaced) out.push_back(name);
  }
  bool split_measured = base.controller.EffectiveWriteBack();
  for (const CalibrationInput& in : inputs) {
    if (in.measured.tps <= 0) continue;
    const auto& lat = in.measured.statement_latency_ms;
    split_measured = split_measured && lat.count("UPDATE accounts") && lat.count("END");
  }
  if (split_measured && !fixed("update_residence_share")) out.push_back("update_residence_share");
  return out;
}

StatusOr<CalibrationReport> Calibrate(const Scenario& base,
                                      const std::vector<CalibrationInput>& inputs,
                                      const std::vector<std::string>& parameters) {
  CalibrationReport report;
  const ModelParams start = ParamsFromScenario(base);
  std::vector<Target> targets;
  for (const CalibrationInput& in : inputs) {
    Target t{base, &in.measured};
    for (const std::string& o : in.overrides) {
      Status st = ApplyOverride(&t.scenario, o);
      if (!st.ok()) return st.WithContext(in.measured.source);
    }
    const bool io = t.scenario.workload.type == WorkloadKind::kIo;
    if (io ? !(DeviceIops(in.measured) > 0) : !(in.measured.tps > 0)) {
      report.ignored.push_back(in.measured.source + " (" + in.measured.tool + "): no " +
                               (io ? "requests per second" : "tps") + " for a " +
                               (io ? "workload.type = io" : "pgbench") + " scenario");
      continue;
    }
    Status st = ValidateScenario(t.scenario);
    if (!st.ok()) return st.WithContext(in.measured.source);
    HoldFittedKeys(parameters, start, &t.scenario);
    targets.push_back(std::move(t));
  }
  if (targets.empty()) {
    return Status::Error(
        "calibrate: no measurement with a tps figure (or, for an io "
        "workload, requests per second)");
  }
  std::vector<double> initial, lower, upper;
  for (const std::string& name : parameters) {
    const auto& known = ModelParamNames();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return Status::Error("calibrate: unknown parameter '" + name + "'");
    }
    const Bounds b = BoundsFor(name);
    double value = GetParam(start, name);
    // A share of 0 switches the split off (a different formula): start mid-range.
    if (name == "update_residence_share" && !(value > 0)) value = 0.5;
    initial.push_back(std::clamp(value, b.lower, b.upper));
    lower.push_back(b.lower);
    upper.push_back(b.upper);
  }
  // The fit over the candidates in `chosen` (indices into `parameters`); the others
  // stay at their start values.
  const FitChosen fit_chosen = [&](const std::vector<int>& chosen) -> StatusOr<ChosenFit> {
    auto residuals = [&](const std::vector<double>& v) {
      ModelParams p = start;
      for (size_t i = 0; i < chosen.size(); ++i) SetParam(&p, parameters[chosen[i]], v[i]);
      std::vector<double> r;
      for (const Target& t : targets) AddResiduals(t, p, &r, nullptr);
      return r;
    };
    std::vector<double> init, lo, hi, scale;
    for (int k : chosen) {
      init.push_back(initial[k]), lo.push_back(lower[k]), hi.push_back(upper[k]);
    }
    auto fit = RobustFit(residuals, init, lo, hi);
    if (!fit.ok()) return fit.status();
    for (size_t i = 0; i < chosen.size(); ++i) {
      scale.push_back(std::max(std::fabs(fit->params[i]), 1e-3 * (hi[i] - lo[i])));
    }
    return ChosenFit{*fit, AnalyseIdentifiability(residuals, fit->params, lo, hi, scale,
                                                  kIdentifiabilityTolerance)};
  };
  std::vector<int> chosen(parameters.size());
  for (size_t k = 0; k < chosen.size(); ++k) chosen[k] = static_cast<int>(k);
  auto first = fit_chosen(chosen);
  if (!first.ok()) return first.status();
  ChosenFit best = *first;
  Status st = ChooseIdentifiable(fit_chosen, parameters, &chosen, &best, &report);
  if (!st.ok()) return st;
  const LeastSquaresResult* fit = &best.fit;
  ModelParams fitted = start;
  for (size_t i = 0; i < chosen.size(); ++i) {
    report.parameters.push_back(parameters[chosen[i]]);
    report.values.push_back(fit->params[i]);
    report.standard_errors.push_back(fit->standard_errors[i]);
    SetParam(&fitted, parameters[chosen[i]], fit->params[i]);
  }
  for (const Target& t : targets) {
    AddResiduals(t, fitted, &report.residuals, &report.residual_names);
  }
  double ss = 0;
  for (double r : report.residuals) {
    ss += r * r;
    report.max_abs_residual = std::max(report.max_abs_residual, std::fabs(r));
  }
  report.rms_relative_error = std::sqrt(ss / std::max<size_t>(1, report.residuals.size()));
  report.calibrated = base;
  CalibrationConfig& c = report.calibrated.calibration;
  HoldFittedKeys(parameters, start, &report.calibrated);
  for (size_t i = 0; i < report.parameters.size(); ++i) {
    c.values[report.parameters[i]] = report.values[i];
    if (std::isfinite(report.standard_errors[i])) {
      c.standard_errors[report.parameters[i]] = report.standard_errors[i];
    }
  }
  c.rms_relative_error = report.rms_relative_error;
  std::string source;
  for (const Target& t : targets) source += (source.empty() ? "" : ", ") + t.measured->source;
  c.source = source;
  return report;
}

}  // namespace pgstorsim
