// Calibration: fits the model parameters a DBA does not know (ModelParams names) to
// measured runs by Levenberg-Marquardt, and writes them into the scenario's
// [calibration] table with standard errors and the residual RMS.
//
// Identifiability: never more parameters than the residuals can tell apart. After a
// first fit of every candidate, the rank of the Jacobian (AnalyseIdentifiability,
// scaled by each parameter's size) picks the candidates with independent effects; only
// those are fitted (again), the others stay at the scenario's values, and
// CalibrationReport::notes says which and why. Standard errors use the model's own
// error on unseen configurations (model_error.h) as the floor of the residuals' scatter,
// so an exact fit (as many parameters as residuals) still has an honest uncertainty.
//
// Residuals are relative errors: tps, and when measured the mean latency of
// "UPDATE accounts", of "END" and of the remaining statements together (the CPU
// share). Each measurement is predicted on the base scenario; measurements of other
// configurations are given as (overrides, measurement) pairs. A device benchmark
// (randomio, fio, bonnie++) is fitted where its overrides make the scenario an io
// workload (workload.type = io; model/io_workload.h): residuals are its requests per
// second and, where measured, the mean read and write latencies. Thread safety: pure
// functions.
#ifndef PGSTORSIM_MODEL_CALIBRATION_H_
#define PGSTORSIM_MODEL_CALIBRATION_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "model/measured.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct CalibrationInput {
  Measured measured;
  std::vector<std::string> overrides;  // "key=value" applied to the base scenario.
};

struct CalibrationReport {
  Scenario calibrated;                  // Base scenario + [calibration].
  std::vector<std::string> parameters;  // Fitted names (the identifiable candidates).
  std::vector<std::string> kept;        // Candidates left at the scenario's values.
  std::vector<std::string> notes;       // Why they were kept; one line each.
  int rank = 0;                         // Independent directions the residuals see.
  std::vector<double> values;
  std::vector<double> standard_errors;
  std::vector<std::string> residual_names;  // "file: tps", "file: END", ...
  std::vector<double> residuals;            // Relative (predicted - measured) / measured.
  std::vector<std::string> ignored;         // Inputs not used, with the reason.
  double rms_relative_error = 0;
  double max_abs_residual = 0;  // Largest |residual| (relative).
};

// A column of the scaled Jacobian whose independent part is below this share of the
// strongest column's is not identifiable (1 %: a parameter that moves the residuals
// less than 1 % as much as another, independently of it, is not measured).
inline constexpr double kIdentifiabilityTolerance = 0.01;

// The candidate parameters: read_seek_scale, destage_queue_depth, cpu_ms.
const std::vector<std::string>& DefaultFittedParameters();
// The candidates for the scenario's disks: an SSD's are ssd_read_latency_scale,
// ssd_write_latency_scale and cpu_ms (the seek and destage-positioning parameters have
// no effect on it); other disks', DefaultFittedParameters.
const std::vector<std::string>& DefaultFittedParametersFor(const Scenario& s);
// What `calibrate` fits when not told (--fit): the candidates (DefaultFittedParametersFor)
// the scenario does not fix in its [calibration] table (a value there is a DBA's or
// datasheet's, not fitted), plus
// update_residence_share when it is not fixed, the controller is write-back and every
// measurement with a tps has UPDATE accounts and END latencies (their ratio identifies
// it); destage_queue_depth not where destage_position_ms is fixed (it replaces what the
// depth gives). For scenarios/m5110e.toml: destage_queue_depth, cpu_ms,
// update_residence_share.
std::vector<std::string> DefaultFitFor(const Scenario& base,
                                       const std::vector<CalibrationInput>& inputs);

StatusOr<CalibrationReport> Calibrate(const Scenario& base,
                                      const std::vector<CalibrationInput>& inputs,
                                      const std::vector<std::string>& parameters);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_CALIBRATION_H_
