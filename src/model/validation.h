// Validation of the model on field data: the ServeRAID M5110e rows of
// /work/shared/data/serveraid-m5110e-stripe-benchmarks.txt (pgbench -c 10, scale 2000
// and 6000, warm and cold, stripe 32 KiB..1 MiB), each a set of --set overrides on the
// calibrated base scenario (configuration only; no per-row parameters), compared with
// the measured tps and, where published, UPDATE accounts / END latencies.
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
  std::vector<std::string> overrides;
  double tps = 0;
  double update_ms = 0;  // 0 = not published.
  double end_ms = 0;
  bool calibration_row = false;
  // randomio rows (benchmark #5): tps is total IOPS; predicted by PredictRandomio with
  // 8 threads, 50 % writes, a 48000 MiB file; cold = after the reboot.
  bool randomio = false;
  bool randomio_cold = false;
};

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
  double max_abs_latency_error = 0;    // UPDATE accounts and END, predicted rows.
  double mean_abs_randomio_error = 0;  // randomio rows (not in the pgbench figures).
  double max_abs_randomio_error = 0;
};

// pgbench rows then randomio rows.
const std::vector<ValidationRow>& M5110eRows();
StatusOr<ValidationSummary> RunValidation(const Scenario& calibrated,
                                          const std::vector<ValidationRow>& rows);
std::string ValidationMarkdown(const Scenario& calibrated, const ValidationSummary& summary);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_VALIDATION_H_
