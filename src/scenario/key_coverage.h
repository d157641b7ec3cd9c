// Which scenario keys a model does not use (docs/scenario-format.md, "What each model
// uses"): every key is used by both `predict` and `simulate`, refused by the model that
// cannot answer it (an error from that model), or listed here, where the model
// answers as for one value (the key's default unless the table names another) and
// says so in one line.
// Thread safety: pure functions over an immutable table.
#ifndef PGSTORSIM_SCENARIO_KEY_COVERAGE_H_
#define PGSTORSIM_SCENARIO_KEY_COVERAGE_H_

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace pgstorsim {

enum class ScenarioModel { kPredict, kSimulate };
const char* ScenarioModelName(ScenarioModel model);  // "predict", "simulate"

// The keys `model` does not use (dotted names).
std::vector<std::string> KeysIgnoredBy(ScenarioModel model);

// One line per key `model` does not use that `scenario` sets to other than the value
// the model answers for (the key's default):
// "key io.scheduler = none: not used by predict (<why>); answered as for
// mq-deadline"; then one per [calibration] value the model does not read (the
// simulator's own parameters for predict, predict's own for simulate; calibration_keys.h).
std::vector<std::string> IgnoredKeyWarnings(const Scenario& scenario, ScenarioModel model);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_KEY_COVERAGE_H_
