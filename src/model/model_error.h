// ModelError: how wrong the model is on configurations it was not fitted on, measured by
// leave-one-out over the validation tables (docs/model.md, "Bands from model error"):
// results/validation/model-error.tsv, one row per validation point (the M5110e field
// rows, the lab matrix's PostgreSQL runs), each predicted by a model that did not see
// it, with its class ("<disks.type> <regime>", e.g. "hdd destage-bound"). The file is
// compiled into the tool (CMake generates model_error_data.cc from it).
//
// A band's model part for a prediction of class C is the conformal 80 % quantile of
// |relative error| over the rows of C (over all rows when C has fewer than
// kMinClassRows): the ceil(0.8 (n + 1))-th smallest of n, which covers an unseen row
// with probability >= 80 % when rows are exchangeable (ModelErrorOf with leave_out
// checks it row by row: tests/model/model_error_test.cc).
// Units: fractions (0.1 = 10 %). Thread safety: pure functions; the compiled table is
// parsed once (thread-safe static).
#ifndef PGSTORSIM_MODEL_MODEL_ERROR_H_
#define PGSTORSIM_MODEL_MODEL_ERROR_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

inline constexpr int kMinClassRows = 4;
inline constexpr double kBandCoverage = 0.8;

struct ModelErrorRow {
  std::string table;  // "m5110e", "lab-matrix".
  std::string row;    // The row's label.
  std::string error_class;
  double measured_tps = 0;
  double predicted_tps = 0;
  double relative_error() const { return (predicted_tps - measured_tps) / measured_tps; }
};

struct ModelError {
  std::string error_class;   // The class the rows came from; "all" when pooled.
  int rows = 0;              // Validation rows behind it.
  double band_fraction = 0;  // Conformal kBandCoverage quantile of |relative error|.
  double rms_fraction = 0;   // RMS relative error.
};

// The class of a prediction: "<disks.type> <regime>".
std::string ModelErrorClass(const std::string& disk_type, const std::string& regime);

// Tab-separated, header line "table row class measured_tps predicted_tps
// relative_error"; errors name the source and line.
StatusOr<std::vector<ModelErrorRow>> ParseModelErrorTsv(const std::string& text,
                                                        const std::string& source);
std::string ModelErrorTsv(const std::vector<ModelErrorRow>& rows);

// The model error for `error_class` over `rows`, leaving out rows[leave_out] (-1: none).
ModelError ModelErrorOf(const std::vector<ModelErrorRow>& rows, const std::string& error_class,
                        int leave_out = -1);

// The compiled table (empty if it failed to parse: then every band is parameter-only,
// and ModelErrorFor says so with rows = 0).
const std::vector<ModelErrorRow>& ModelErrorRows();
ModelError ModelErrorFor(const std::string& error_class);
ModelError PooledModelError();

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_MODEL_ERROR_H_
