// Internal to src/model: the fitting steps of Calibrate (calibration.cc), defined in
// calibration_fit.cc: a Levenberg-Marquardt fit guarded against the model's flat
// regions (RobustFit), and the reduction of the candidates to those the residuals can
// tell apart (ChooseIdentifiable). Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_CALIBRATION_FIT_H_
#define PGSTORSIM_MODEL_CALIBRATION_FIT_H_

#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/calibration.h"
#include "model/least_squares.h"

namespace pgstorsim {

// The better of Levenberg-Marquardt from `initial` and from a coarse coordinate search
// over [lower, upper] (from `initial` on ties); the residuals' scatter is floored at
// the model's own error (PooledModelError).
StatusOr<LeastSquaresResult> RobustFit(const ResidualFunction& f,
                                       const std::vector<double>& initial,
                                       const std::vector<double>& lower,
                                       const std::vector<double>& upper);

// A fit of some of the candidates, with the identifiability of its parameters at the
// fitted point.
struct ChosenFit {
  LeastSquaresResult fit;
  Identifiability identifiability;
};
// Fits the candidates whose indices (into the candidate names) are `chosen`.
using FitChosen = std::function<StatusOr<ChosenFit>(const std::vector<int>& chosen)>;

// Given `fit`, the fit of the candidates in `chosen` (indices into `names`): keeps in
// `chosen` the candidates the residuals can tell apart at the fitted point, refitting
// with fit_chosen after each reduction (the fitted point moves) and leaving the last
// fit in `fit`; sets report->rank and appends to report->kept and report->notes. An
// error when no candidate moves the residuals, or when a refit fails.
Status ChooseIdentifiable(const FitChosen& fit_chosen, const std::vector<std::string>& names,
                          std::vector<int>* chosen, ChosenFit* fit, CalibrationReport* report);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_CALIBRATION_FIT_H_
