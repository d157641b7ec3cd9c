// Scenario keys as the results schema carries them: one name per key, sizes and durations
// with the key table's unit (key_roles.h) in the name ("array.stripe" ->
// "array.stripe_bytes": 32768, "postgres.checkpoint_timeout_ns"; disks.rpm is named by
// its unit already), numbers as JSON numbers, on/off as booleans, enums and strings as
// text. replay, simulate and predict write ScenarioResultsKeys under config.scenario
// (simulate and predict through ScenarioResultsConfig), and sweep rows name their
// settings the same way; readers get a name's key and unit from FindResultsName, never
// by parsing the name. Thread safety: pure functions
// over the immutable key table.
#ifndef PGSTORSIM_SCENARIO_SCENARIO_RESULTS_H_
#define PGSTORSIM_SCENARIO_SCENARIO_RESULTS_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

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
// What the schema says a results name is: the scenario key it names and the unit of the
// value results carry under it ("array.stripe_bytes" -> {"array.stripe", "bytes"},
// "postgres.checkpoint_timeout_ns" -> {.., "ns"}, "workload.clients" -> {..,
// "connections"}, "array.level" -> {.., ""}).
struct ResultsName {
  std::string key;   // The scenario key (ScenarioKeys()).
  std::string unit;  // The unit column (ScenarioKeyUnit); "" when none.
};
// Looked up in the key table: nullopt for names the schema does not hold (other results
// keys such as "duration_s", calibration.<name>, a size key under its bare name).
std::optional<ResultsName> FindResultsName(const std::string& name);
// Every key of ScenarioKeys() (calibration excluded) as {"array.stripe_bytes": 32768, ...}.
nlohmann::json ScenarioResultsKeys(const Scenario& scenario);
// What a result states it ran when it ran under some keys only (a run's workload, a
// replay's trace, a device benchmark's pattern): the keys `texts` names (scenario key ->
// text as SetScenarioKey takes it), as results names and values (ScenarioResultsKeys).
// An error names the key whose text the table refuses.
StatusOr<nlohmann::json> StatedResultsKeys(const std::map<std::string, std::string>& texts);
// The scenario part of a model result's config, the same for simulate and predict:
// {"scenario_toml": ScenarioToToml (calibration included), "scenario_file": the file it
// was loaded from ("" when built-in), "scenario": ScenarioResultsKeys}.
nlohmann::json ScenarioResultsConfig(const Scenario& scenario);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_SCENARIO_RESULTS_H_
