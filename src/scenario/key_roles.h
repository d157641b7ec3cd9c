// What each settable scenario key is to a capacity-planning question (the role and unit
// columns of the key table, src/scenario/scenario_keys.cc): a configuration choice
// (hardware, OS, PostgreSQL settings: a sweep over it is recommended among), a workload
// key (the load: a sweep over it is a projection, never a recommendation), or a label.
// Thread safety: reads the immutable key table.
#ifndef PGSTORSIM_SCENARIO_KEY_ROLES_H_
#define PGSTORSIM_SCENARIO_KEY_ROLES_H_

#include <string>

namespace pgstorsim {

enum class KeyRole { kChoice, kWorkload, kLabel };
const char* KeyRoleName(KeyRole role);  // "choice", "workload", "label"

// The role of a settable key (calibration.* keys are model parameters: kLabel, never
// recommended); unknown keys are kLabel.
KeyRole ScenarioKeyRole(const std::string& key);
// The unit column of a settable key: the unit its value is in as results carry it
// ("bytes", "ns", "connections"; "" when none; scenario_results.h).
std::string ScenarioKeyUnit(const std::string& key);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_KEY_ROLES_H_
