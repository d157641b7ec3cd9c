// Internal to src/scenario: the key table behind SetScenarioKey / GetScenarioKey /
// ScenarioKeys / ScenarioToToml, and canonical unit formatting. Thread safety: the
// table is built once, immutable afterwards.
#ifndef PGSTORSIM_SCENARIO_SCENARIO_KEYS_H_
#define PGSTORSIM_SCENARIO_SCENARIO_KEYS_H_

#include <functional>
#include <string>
#include <vector>

#include "scenario/key_roles.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct ScenarioKeyEntry {
  ScenarioKeyInfo info;
  std::function<Status(Scenario*, const std::string&)> set;
  std::function<std::string(const Scenario&)> get;
  KeyRole role = KeyRole::kChoice;  // The role column (key_roles.h).
  std::string unit = "";            // The unit column ("" when none).
};

const std::vector<ScenarioKeyEntry>& KeyTable();
const ScenarioKeyEntry* FindKey(const std::string& key);  // nullptr if unknown.

std::string FormatSizeCanonical(int64_t bytes);   // "1MiB", "32256"
std::string FormatDurationCanonical(int64_t ns);  // "60s", "3.4ms"

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_SCENARIO_KEYS_H_
