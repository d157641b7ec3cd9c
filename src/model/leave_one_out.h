// The rows of results/validation/model-error.tsv (model_error.h): every validation
// point predicted by a model that did not see it (docs/model.md, "Bands from model
// error").
// - Field (M5110e, validation.h): the pgbench rows other than the calibration row from
//   the published calibration (fitted on the 32 KiB warm row); the 32 KiB warm row from
//   the same default fit on the 1 MiB warm row (the other row with statement latencies).
//   io rows (randomio) are not pgbench tps and are left out.
// - Lab matrix (docs/lab.md): every measured repetition of lab-matrix-measured.tsv,
//   predicted on its point's scenario (lab-IOPS-sSCALE.toml) with clients, scale, cache
//   and duration set; nothing is fitted on any lab row.
// Thread safety: pure functions (read the given files).
#ifndef PGSTORSIM_MODEL_LEAVE_ONE_OUT_H_
#define PGSTORSIM_MODEL_LEAVE_ONE_OUT_H_

#include <string>
#include <vector>

#include "common/status.h"
#include "model/model_error.h"
#include "model/validation.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// `calibrated`: results/validation/m5110e-calibrated.toml; `rows`: its table
// (validation.h LoadValidationRows).
StatusOr<std::vector<ModelErrorRow>> FieldLeaveOneOut(const Scenario& calibrated,
                                                      const std::vector<ValidationRow>& rows);
StatusOr<std::vector<ModelErrorRow>> LabLeaveOneOut(const std::string& measured_tsv,
                                                    const std::string& scenario_dir);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_LEAVE_ONE_OUT_H_
