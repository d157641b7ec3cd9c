#include "scenario/key_coverage.h"

#include "scenario/calibration_keys.h"
#include "scenario/scenario_key_builders.h"

namespace pgstorsim {
namespace {

// A key a model answers as for its default, whatever its value.
struct IgnoredKey {
  const char* key;
  bool predict, simulate;  // Ignored by that model.
  const char* why;
};

constexpr IgnoredKey kIgnoredKeys[] = {
    {"io.scheduler", true, true,
     "the OS I/O scheduler is not modelled; the disks' queue order follows io.queue_depth"},
    {"controller.drive_write_cache", true, false,
     "the drives' volatile write cache is modelled by simulate only"},
};

bool Ignores(const IgnoredKey& k, ScenarioModel model) {
  return model == ScenarioModel::kPredict ? k.predict : k.simulate;
}

// "key calibration.NAME = V: not used by predict (the simulator's parameter: <meaning>)"
// for each [calibration] value the model does not read.
void CalibrationWarnings(const Scenario& s, ScenarioModel model, std::vector<std::string>* lines) {
  const bool predict = model == ScenarioModel::kPredict;
  for (const auto& [name, value] : s.calibration.values) {
    const CalibrationKey* key = FindCalibrationKey(name);
    if (key == nullptr || (predict ? key->ReadByPredict() : key->simulator)) continue;
    const std::string dotted = "calibration." + name;
    lines->push_back(KeyLocation(s, dotted) + "key " + dotted + " = " +
                     scenario_key_builders::FormatDouble(value) + ": not used by " +
                     ScenarioModelName(model) + " (" +
                     (predict ? "the simulator's parameter: " : "predict's parameter: ") +
                     key->meaning + ")");
  }
}

}  // namespace

const char* ScenarioModelName(ScenarioModel model) {
  return model == ScenarioModel::kPredict ? "predict" : "simulate";
}

std::vector<std::string> KeysIgnoredBy(ScenarioModel model) {
  std::vector<std::string> keys;
  for (const IgnoredKey& k : kIgnoredKeys) {
    if (Ignores(k, model)) keys.push_back(k.key);
  }
  return keys;
}

std::vector<std::string> IgnoredKeyWarnings(const Scenario& s, ScenarioModel model) {
  const Scenario defaults;
  std::vector<std::string> lines;
  for (const IgnoredKey& k : kIgnoredKeys) {
    if (!Ignores(k, model)) continue;
    auto value = GetScenarioKey(s, k.key);
    auto fallback = GetScenarioKey(defaults, k.key);
    if (!value.ok() || !fallback.ok() || *value == *fallback) continue;
    lines.push_back(KeyLocation(s, k.key) + "key " + k.key + " = " + *value + ": not used by " +
                    ScenarioModelName(model) + " (" + k.why + "); answered as for " + *fallback);
  }
  CalibrationWarnings(s, model, &lines);
  return lines;
}

}  // namespace pgstorsim
