// Scenario keys as the results schema carries them: one name per key with its unit in
// the name ("array.stripe" -> "array.stripe_bytes": 32768, durations "_ns"; disks.rpm
// is named by its unit already), numbers as JSON numbers, on/off as booleans, enums and strings as text.
// replay, simulate and predict write ScenarioResultsKeys under config.scenario, and
// predict's sweep rows name their settings the same way, so a report reads units from
// the key names of one schema. Thread safety: pure functions.
#ifndef PGSTORSIM_SCENARIO_SCENARIO_RESULTS_H_
#define PGSTORSIM_SCENARIO_SCENARIO_RESULTS_H_

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "scenario/scenario.h"

namespace pgstorsim {

// The results name and value of `key` whose canonical text (GetScenarioKey) is `text`.
// Keys outside the table (calibration.<name>) keep their name, with a number value
// when the text is one.
std::pair<std::string, nlohmann::json> ResultsKeyValue(const std::string& key,
                                                       const std::string& text);
// The inverse, for readers of results: sets the scenario key whose results name is
// `name` ("array.stripe_bytes", or a plain key) from the value's text ("1048576").
Status SetScenarioKeyFromResults(Scenario* scenario, const std::string& name,
                                 const std::string& value_text);
// Every key of ScenarioKeys() (calibration excluded) as {"array.stripe_bytes": 32768, ...}.
nlohmann::json ScenarioResultsKeys(const Scenario& scenario);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_SCENARIO_RESULTS_H_
