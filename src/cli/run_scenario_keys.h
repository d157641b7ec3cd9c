// The scenario vocabulary of a `run`: the workload keys a live run states, written under
// its results' config.scenario with the names and units simulate, predict and replay use
// (scenario/scenario_results.h), so the report pairs a measurement with a model of the
// same workload key by key.
// Thread safety: a pure function.
#ifndef PGSTORSIM_CLI_RUN_SCENARIO_KEYS_H_
#define PGSTORSIM_CLI_RUN_SCENARIO_KEYS_H_

#include <nlohmann/json.hpp>

#include "driver/run_options.h"

namespace pgstorsim {

// The workload.* results keys the run states: clients, scale, seed, rate, protocol,
// duration or transactions; type only for one built-in script; cache only when prepared
// cold or warm.
// Keys the run leaves open (a custom script's type, an as-is cache) are absent.
nlohmann::json RunScenarioKeys(const RunConfig& config, int scale);

}  // namespace pgstorsim

#endif  // PGSTORSIM_CLI_RUN_SCENARIO_KEYS_H_
