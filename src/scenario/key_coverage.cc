#include "scenario/key_coverage.h"

#include "scenario/calibration_keys.h"
#include "scenario/scenario_key_builders.h"

namespace pgstorsim {
namespace {

// A key a model answers as for `answered_as` (null: the key's default). `ignored_in`
// (null: every scenario) says where: there the line is given whatever the value, as the
// value the model answers for may not be the default.
struct IgnoredKey {
  const char* key;
  bool predict, simulate;  // Ignored by that model.
  const char* why;
  bool (*ignored_in)(const Scenario&) = nullptr;
  const char* answered_as = nullptr;
};

// HDDs that reorder their queue: predict serves each drive's commands first come, first
// served (a read's positioning is a random one whatever is queued); simulate picks the
// one the head reaches first among io.queue_depth.
bool ReorderingHdds(const Scenario& s) {
  return s.disks.type == DiskType::kHdd && s.io.queue_depth > 1;
}

constexpr IgnoredKey kIgnoredKeys[] = {
    {"io.scheduler", true, true,
     "the OS I/O scheduler is not modelled; the disks' queue order follows io.queue_depth"},
    {"controller.drive_write_cache", true, false,
     "the drives' volatile write cache is modelled by simulate only"},
    {"io.queue_depth", true, false,
     "on HDDs: a drive serving the queued command it reaches first is modelled by simulate "
     "only; predict serves them in order",
     ReorderingHdds, "1"},
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
    if (k.ignored_in != nullptr && !k.ignored_in(s)) continue;
    auto value = GetScenarioKey(s, k.key);
    auto fallback = k.answered_as != nullptr ? StatusOr<std::string>(std::string(k.answered_as))
                                             : GetScenarioKey(defaults, k.key);
    if (!value.ok() || !fallback.ok() || *value == *fallback) continue;
    lines.push_back(KeyLocation(s, k.key) + "key " + k.key + " = " + *value + ": not used by " +
                    ScenarioModelName(model) + " (" + k.why + "); answered as for " + *fallback);
  }
  CalibrationWarnings(s, model, &lines);
  return lines;
}

}  // namespace pgstorsim
