#include "model/calibration.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/least_squares.h"
#include "model/storage_model.h"

namespace pgstorsim {
namespace {

struct Bounds {
  double lower, upper;
};

Bounds BoundsFor(const std::string& name) {
  static const std::map<std::string, Bounds> kBounds = {{"read_seek_scale", {0.05, 8}},
                                                        {"destage_position_ms", {0.1, 20}},
                                                        {"cpu_ms", {0.001, 50}},
                                                        {"commit_ms", {0.01, 20}},
                                                        {"cache_fraction", {0.1, 0.98}},
                                                        {"destage_threshold", {0.2, 2}},
                                                        {"update_residence_share", {0, 1}},
                                                        {"fork_join_weight", {0, 2}}};
  auto it = kBounds.find(name);
  return it == kBounds.end() ? Bounds{1e-6, 1e6} : it->second;
}

double OtherStatementsMs(const std::map<std::string, double>& lat) {
  double sum = 0;
  for (const auto& [name, ms] : lat) {
    if (name != "UPDATE accounts" && name != "END") sum += ms;
  }
  return sum;
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

double Cost(const std::vector<double>& residuals) {
  double ss = 0;
  for (double r : residuals) ss += r * r;
  return ss;
}

// A start for the fit from a coarse coordinate search: two rounds over the parameters,
// each moved to the best of kGridPoints values spread over its bounds (geometrically
// when the lower bound is positive) with the others held. The model has flat regions:
// where a throttle's cap binds, tps does not depend on cpu_ms, and a Gauss-Newton step
// from a distant start lands there (lower cost than the start) and stays.
std::vector<double> CoarseStart(const ResidualFunction& f, std::vector<double> p,
                                const std::vector<double>& lower,
                                const std::vector<double>& upper) {
  constexpr int kGridPoints = 24;
  double best = Cost(f(p));
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < p.size(); ++i) {
      std::vector<double> q = p;
      for (int k = 0; k <= kGridPoints; ++k) {
        const double t = static_cast<double>(k) / kGridPoints;
        q[i] = lower[i] > 0 ? lower[i] * std::pow(upper[i] / lower[i], t)
                            : lower[i] + t * (upper[i] - lower[i]);
        const double cost = Cost(f(q));
        if (cost < best) {
          best = cost;
          p[i] = q[i];
        }
      }
    }
  }
  return p;
}

// The better of Levenberg-Marquardt from the scenario's values and from CoarseStart
// (the scenario's on ties).
StatusOr<LeastSquaresResult> RobustFit(const ResidualFunction& f,
                                       const std::vector<double>& initial,
                                       const std::vector<double>& lower,
                                       const std::vector<double>& upper) {
  auto fit = LevenbergMarquardt(f, initial, lower, upper);
  if (!fit.ok()) return fit;
  const std::vector<double> coarse = CoarseStart(f, initial, lower, upper);
  if (coarse == initial) return fit;
  auto other = LevenbergMarquardt(f, coarse, lower, upper);
  if (other.ok() && other->cost < fit->cost * (1 - 1e-9)) return other;
  return fit;
}

}  // namespace

const std::vector<std::string>& DefaultFittedParameters() {
  static const std::vector<std::string> names = {"read_seek_scale", "destage_position_ms",
                                                 "cpu_ms"};
  return names;
}

std::vector<std::string> DefaultFitFor(const Scenario& base,
                                       const std::vector<CalibrationInput>& inputs) {
  std::vector<std::string> out;
  auto fixed = [&](const std::string& name) { return base.calibration.values.count(name) > 0; };
  for (const std::string& name : DefaultFittedParameters()) {
    if (!fixed(name)) out.push_back(name);
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
  std::vector<Target> targets;
  for (const CalibrationInput& in : inputs) {
    if (in.measured.tps <= 0) {
      report.ignored.push_back(in.measured.source + " (" + in.measured.tool +
                               "): no tps; device-level figures are not fitted");
      continue;
    }
    Target t{base, &in.measured};
    for (const std::string& o : in.overrides) {
      Status st = ApplyOverride(&t.scenario, o);
      if (!st.ok()) return st.WithContext(in.measured.source);
    }
    Status st = ValidateScenario(t.scenario);
    if (!st.ok()) return st.WithContext(in.measured.source);
    targets.push_back(std::move(t));
  }
  if (targets.empty()) return Status::Error("calibrate: no measurement with a tps figure");
  const ModelParams start = ParamsFromScenario(base);
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
  auto to_params = [&](const std::vector<double>& v) {
    ModelParams p = start;
    for (size_t i = 0; i < v.size(); ++i) SetParam(&p, parameters[i], v[i]);
    return p;
  };
  auto residuals = [&](const std::vector<double>& v) {
    std::vector<double> r;
    for (const Target& t : targets) AddResiduals(t, to_params(v), &r, nullptr);
    return r;
  };
  auto fit = RobustFit(residuals, initial, lower, upper);
  if (!fit.ok()) return fit.status();
  report.parameters = parameters;
  report.values = fit->params;
  report.standard_errors = fit->standard_errors;
  for (const Target& t : targets) {
    AddResiduals(t, to_params(fit->params), &report.residuals, &report.residual_names);
  }
  double ss = 0;
  for (double r : report.residuals) ss += r * r;
  report.rms_relative_error = std::sqrt(ss / std::max<size_t>(1, report.residuals.size()));
  report.calibrated = base;
  CalibrationConfig& c = report.calibrated.calibration;
  for (size_t i = 0; i < parameters.size(); ++i) {
    c.values[parameters[i]] = fit->params[i];
    if (std::isfinite(fit->standard_errors[i])) {
      c.standard_errors[parameters[i]] = fit->standard_errors[i];
    }
  }
  c.rms_relative_error = report.rms_relative_error;
  std::string source;
  for (const Target& t : targets) source += (source.empty() ? "" : ", ") + t.measured->source;
  c.source = source;
  return report;
}

}  // namespace pgstorsim
