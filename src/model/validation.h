// Validation of the model on field data: the ServeRAID M5110e rows of
// the shared field data file serveraid-m5110e-stripe-benchmarks.txt (pgbench -c 10, scale 2000
// and 6000, warm and cold, stripe 32 KiB..1 MiB; randomio before and after a reboot as
// io workloads), kept in results/validation/m5110e-rows.tsv, each a set of --set
// overrides on the calibrated base scenario (configuration only; no per-row
// parameters), compared with the measured tps (IOPS) and, where published, UPDATE
// accounts / END latencies.
// Units: tps, ms; errors are relative ((predicted - measured) / measured).
#ifndef PGSTORSIM_MODEL_VALIDATION_H_
#define PGSTORSIM_MODEL_VALIDATION_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct ValidationRow {
  std::string label;
  std::vector<std::string> overrides;  // "key=value" on the calibrated scenario.
  double tps = 0;                      // Measured: tps, or requests per second for an io row.
  double update_ms = 0;                // 0 = not published.
  double end_ms = 0;
  bool calibration_row = false;
  // An io workload row (a device benchmark, e.g. randomio): its overrides make the
  // scenario an io workload (workload.type = io); not in the pgbench figures.
  bool io = false;
};

// The rows of a validation table (results/validation/m5110e-rows.tsv): a header, then
// tab-separated label, kind (pgbench|io), calibration (0|1), measured, update_ms,
// end_ms, overrides (space-separated key=value). Errors name the file and line.
StatusOr<std::vector<ValidationRow>> ParseValidationRows(const std::string& text,
                                                         const std::string& source);
StatusOr<std::vector<ValidationRow>> LoadValidationRows(const std::string& path);
// The M5110e table's path relative to the repository root.
inline constexpr const char* kM5110eRowsPath = "results/validation/m5110e-rows.tsv";
// The M5110e report's text (ValidationMarkdown's template), relative to the root.
inline constexpr const char* kM5110eReportTemplatePath = "results/validation/m5110e-report.md.in";

struct ValidationOutcome {
  ValidationRow row;
  double tps = 0, update_ms = 0, end_ms = 0;
  double tps_low = 0, tps_high = 0;
  std::string regime;
  double tps_error = 0, update_error = 0, end_error = 0;
};

struct ValidationSummary {
  std::vector<ValidationOutcome> rows;
  double mean_abs_tps_error = 0;  // Over the predicted rows (calibration row excluded).
  double max_abs_tps_error = 0;
  double max_abs_latency_error = 0;  // UPDATE accounts and END, predicted rows.
  double mean_abs_io_error = 0;      // io rows (not in the pgbench figures).
  double max_abs_io_error = 0;
};

StatusOr<ValidationSummary> RunValidation(const Scenario& calibrated,
                                          const std::vector<ValidationRow>& rows);
// The report: `report_template` (read from `source`, named in errors) with its
// placeholders filled: @CALIBRATION@ (the fitted values), @PGBENCH_ROWS@ and @IO_ROWS@
// (each alone on its line: the table rows), @MEAN_TPS_ERROR_PCT@, @WORST_TPS_ERROR_PCT@,
// @WORST_LATENCY_ERROR_PCT@, @MEAN_IO_ERROR_PCT@, @WORST_IO_ERROR_PCT@ (per cent, one
// decimal). A placeholder the template lacks is an error.
StatusOr<std::string> ValidationMarkdown(const std::string& report_template,
                                         const std::string& source, const Scenario& calibrated,
                                         const ValidationSummary& summary);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_VALIDATION_H_
