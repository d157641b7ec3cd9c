// Calibrate's fitting steps (calibration_fit.h): Levenberg-Marquardt from two starts
// (RobustFit) and the reduction to the identifiable candidates (ChooseIdentifiable).
#include "model/calibration_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/model_error.h"

namespace pgstorsim {
namespace {

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

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

constexpr char kNothingMoves[] =
    "no candidate parameter moves the measured figures (nothing to fit: a cap or a fixed "
    "parameter decides them)";

// Which of several candidates that move the residuals together stands for their
// combination: the one whose fit leaves the least residual. They fit alike while both
// stay inside their bounds; one that reaches a bound first (read_seek_scale at 8 where
// the destage queue's depth would still move) leaves residual the other could take.
// Tries each kept candidate in place of each chosen one (a swap keeping the rank) and
// takes the best fit that lowers the cost by more than 1 %, rewriting the kept list and
// its note.
Status StandInThatFitsBest(const FitChosen& fit_chosen, const std::vector<std::string>& names,
                           std::vector<int>* chosen, ChosenFit* fit, CalibrationReport* report) {
  std::vector<int> best_set;
  ChosenFit best;
  double best_cost = fit->fit.cost * 0.99;
  for (const std::string& kept : report->kept) {
    const int k = static_cast<int>(std::find(names.begin(), names.end(), kept) - names.begin());
    for (size_t i = 0; i < chosen->size(); ++i) {
      std::vector<int> alt = *chosen;
      alt[i] = k;
      std::sort(alt.begin(), alt.end());
      auto refit = fit_chosen(alt);
      if (!refit.ok()) return refit.status();
      if (refit->identifiability.rank < static_cast<int>(alt.size())) continue;
      if (refit->fit.cost >= best_cost) continue;
      best_cost = refit->fit.cost, best_set = alt, best = *refit;
    }
  }
  if (best_set.empty()) return Status::Ok();
  for (int was : *chosen) {
    if (std::find(best_set.begin(), best_set.end(), was) != best_set.end()) continue;
    for (int now : best_set) {
      if (std::find(chosen->begin(), chosen->end(), now) != chosen->end()) continue;
      std::replace(report->kept.begin(), report->kept.end(), names[now], names[was]);
      const std::string relative = "independent of " + names[was] + " is";
      for (std::string& note : report->notes) {
        if (note.rfind(names[now] + " stays", 0) == 0) {
          note = names[was] + " stays at the scenario's value: it moves the measured figures " +
                 "together with " + names[now] + ", whose fit leaves less residual (" + names[was] +
                 " reached the end of its range first)";
          continue;
        }
        const size_t at = note.find(relative);
        if (at == std::string::npos) continue;
        note.replace(
            at, relative.size(),
            "independent of " + names[was] + " (which moves them as " + names[now] + " does) is");
      }
    }
  }
  *chosen = best_set;
  *fit = best;
  return Status::Ok();
}

}  // namespace

// Levenberg-Marquardt from `initial` and from CoarseStart; the first unless the second
// is lower by more than rounding.
StatusOr<LeastSquaresResult> RobustFit(const ResidualFunction& f,
                                       const std::vector<double>& initial,
                                       const std::vector<double>& lower,
                                       const std::vector<double>& upper) {
  LeastSquaresOptions options;
  options.residual_sigma_floor = PooledModelError().rms_fraction;
  auto fit = LevenbergMarquardt(f, initial, lower, upper, options);
  if (!fit.ok()) return fit;
  const std::vector<double> coarse = CoarseStart(f, initial, lower, upper);
  if (coarse == initial) return fit;
  auto other = LevenbergMarquardt(f, coarse, lower, upper, options);
  if (other.ok() && other->cost < fit->cost * (1 - 1e-9)) return other;
  return fit;
}

Status ChooseIdentifiable(const FitChosen& fit_chosen, const std::vector<std::string>& names,
                          std::vector<int>* chosen, ChosenFit* fit, CalibrationReport* report) {
  for (size_t round = 0; round < names.size(); ++round) {
    const Identifiability& id = fit->identifiability;
    report->rank = id.rank;
    if (id.rank >= static_cast<int>(chosen->size()) || id.rank == 0) break;
    std::vector<int> keep;
    for (int i = 0; i < id.rank; ++i) keep.push_back((*chosen)[id.order[i]]);
    std::sort(keep.begin(), keep.end());
    for (size_t i = id.rank; i < id.order.size(); ++i) {
      const int col = id.order[i];
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "its effect independent of %s is %.2f %% of the strongest, below %.0f %%",
                    keep.size() > 1 ? "the fitted ones" : names[keep.front()].c_str(),
                    100 * id.independent_effect[col], 100 * kIdentifiabilityTolerance);
      report->kept.push_back(names[(*chosen)[col]]);
      report->notes.push_back(
          names[(*chosen)[col]] + " stays at the scenario's value: " +
          (id.column_norm[col] > 0
               ? std::string("the measurements cannot tell it apart (") + buf + ")"
               : std::string("it moves no measured figure here")));
    }
    *chosen = keep;
    auto refit = fit_chosen(*chosen);
    if (!refit.ok()) return refit.status();
    *fit = *refit;
  }
  if (fit->identifiability.rank == 0) return Status::Error(kNothingMoves);
  auto swapped = StandInThatFitsBest(fit_chosen, names, chosen, fit, report);
  if (!swapped.ok()) return swapped;
  if (!report->kept.empty()) {
    std::vector<std::string> fitted;
    for (int k : *chosen) fitted.push_back(names[k]);
    report->notes.insert(report->notes.begin(),
                         std::to_string(fit->fit.residuals.size()) + " residual(s) identify " +
                             std::to_string(chosen->size()) + " independent combination(s) of " +
                             "the " + std::to_string(names.size()) + " candidates: fitting " +
                             Join(fitted) + " (the fitted value" +
                             (chosen->size() > 1 ? "s stand" : " stands") +
                             " for the combination; the others stay, below)");
  }
  return Status::Ok();
}

}  // namespace pgstorsim
