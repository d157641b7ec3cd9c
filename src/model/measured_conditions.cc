#include "model/measured_conditions.h"

#include <algorithm>

namespace pgstorsim {

const std::vector<std::string>& ConditionKeys() {
  static const std::vector<std::string> keys = {
      "workload.type",          "workload.scale",
      "workload.clients",       "workload.protocol",
      "workload.cache",         "workload.io_size",
      "workload.read_fraction", "workload.io_access",
      "workload.io_depth",      "workload.io_fsync_writes",
      "workload.io_direct",     "workload.file_size",
      "workload.io_rewrite"};
  return keys;
}

Status SetMeasuredCondition(Measured* measured, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  const std::string key = assignment.substr(0, eq);
  const auto& keys = ConditionKeys();
  if (eq == std::string::npos || std::find(keys.begin(), keys.end(), key) == keys.end()) {
    std::string known;
    for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
    return Status::Error("--measured-set '" + assignment +
                         "': expected KEY=VALUE with KEY one of " + known);
  }
  auto value = CanonicalScenarioValue(key, assignment.substr(eq + 1));
  if (!value.ok()) return value.status().WithContext("--measured-set " + key);
  measured->conditions[key] = *value;
  return Status::Ok();
}

Status CheckConditions(const Measured& measured, const Scenario& scenario) {
  for (const std::string& key : ConditionKeys()) {
    auto it = measured.conditions.find(key);
    if (it == measured.conditions.end()) continue;
    auto value = CanonicalScenarioValue(key, it->second);
    if (!value.ok()) {
      return Status::Error(measured.source + ": measured " + key + " = " + it->second +
                           " is not one the models answer (" + value.status().message() + ")");
    }
    const std::string wanted = GetScenarioKey(scenario, key).value();
    if (*value != wanted) {
      return Status::Error(measured.source + ": measured " + key + " = " + *value + ", scenario " +
                           key + " = " + wanted + " (fit at the measured conditions with --set " +
                           key + "=" + *value +
                           ", or correct the measurement's with --measured-set)");
    }
  }
  return Status::Ok();
}

bool IsDeviceBenchmark(const Measured& m) {
  auto type = m.conditions.find("workload.type");
  return m.tool == "randomio" || m.tool == "fio" || m.tool == "bonnie++" ||
         (type != m.conditions.end() && type->second == "io");
}

std::vector<std::string> UnrecordedConditions(const Measured& measured) {
  std::vector<std::string> out;
  auto type = measured.conditions.find("workload.type");
  const bool io = type != measured.conditions.end() && type->second == "io";
  for (const std::string& key : ConditionKeys()) {
    const bool io_key = key.rfind("workload.io_", 0) == 0 || key == "workload.read_fraction" ||
                        key == "workload.file_size";
    if (io_key != io && key != "workload.type" && key != "workload.clients" &&
        key != "workload.cache")
      continue;  // The other kind of workload's keys.
    if (!measured.conditions.count(key)) out.push_back(key);
  }
  return out;
}

}  // namespace pgstorsim
