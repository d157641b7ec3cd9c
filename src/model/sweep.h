// Sweeps for `predict --sweep key=v1,v2,...`: the cartesian product of every swept key's
// values applied to a base scenario, one prediction per point (internal to src/model).
// Units as in storage_model.h. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_SWEEP_H_
#define PGSTORSIM_MODEL_SWEEP_H_

#include <string>
#include <vector>

#include "common/results.h"
#include "common/status.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct SweepPoint {
  std::vector<std::string> values;  // One per swept key, as given.
  bool ok = true;
  std::string error;  // Why the point was refused (invalid configuration).
  Prediction prediction;
};

struct SweepTable {
  std::vector<std::string> keys;
  std::vector<SweepPoint> points;
};

// Each spec is "key=v1,v2,...". Unknown keys are errors; configurations that fail
// validation become refused points (the table lists why) rather than aborting.
StatusOr<SweepTable> RunSweepTable(const Scenario& base, const std::vector<std::string>& specs);
std::string FormatSweepTable(const SweepTable& table);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_SWEEP_H_
