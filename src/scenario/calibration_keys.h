// The [calibration] vocabulary: one declarative table of every key the analytic model
// and the simulator read from a scenario's [calibration] table, with who reads it, the
// bounds `calibrate` fits it within and its physical meaning. The model's parameter
// names (model/storage_model.h ModelParamNames) and the simulator's mapping
// (sim/sim_config.cc) both walk this table; each binds a key to its own field.
// A key outside the table is refused where the scenario is read (scenario.h).
// Thread safety: reads an immutable table.
#ifndef PGSTORSIM_SCENARIO_CALIBRATION_KEYS_H_
#define PGSTORSIM_SCENARIO_CALIBRATION_KEYS_H_

#include <string_view>
#include <vector>

namespace pgstorsim {

struct CalibrationKey {
  const char* name;  // The key in [calibration], unit in the name where it has one.
  // A parameter of the analytic model (ModelParams), fitted by `calibrate`.
  bool model;
  // Read by the simulator (sim/sim_config.cc, or through pgmodel/host_scenario.h).
  bool simulator;
  double fit_lower, fit_upper;  // The range `calibrate` fits a model key within.
  const char* meaning;          // What the value is, physically, to each reader.
  // Read by predict too, through pgmodel/host_scenario.h, though not a ModelParams field.
  bool predict_through_host = false;

  bool ReadByPredict() const { return model || predict_through_host; }
};

// Every key, in the order the readers apply them: the model's parameters first, in
// ModelParams order, then the simulator-only keys (which override the model's).
const std::vector<CalibrationKey>& CalibrationKeys();
// The table's row for `name`; nullptr when the key is not in the table.
const CalibrationKey* FindCalibrationKey(std::string_view name);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_CALIBRATION_KEYS_H_
