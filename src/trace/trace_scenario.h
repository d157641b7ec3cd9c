// The trace generator's options from a Scenario: the same PostgreSQL host as `simulate`
// and `predict` of that scenario (pgmodel/host_scenario.h), so that a trace and a
// simulation of one scenario and seed run the same transactions through the same
// host model. Thread safety: pure function.
#ifndef PGSTORSIM_TRACE_TRACE_SCENARIO_H_
#define PGSTORSIM_TRACE_TRACE_SCENARIO_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"
#include "scenario/scenario.h"
#include "trace/trace_generator.h"

namespace pgstorsim {

// Workload (type, scale, clients, seed, rate; workload.transactions per client x
// clients, when set), caches and their start state, checkpoints, full_page_writes and
// the WAL files' size. Options without a scenario key (fillfactor, keys log, warm-up,
// group commit, background writer) keep their defaults.
StatusOr<GeneratorOptions> GeneratorOptionsFromScenario(const Scenario& scenario);

// The inverse for a trace already written: the scenario workload keys its meta states
// (workload.type, scale, clients, seed, rate, cache), in their canonical text, keyed by
// scenario key. A synthetic pattern's meta (replay/pattern.h) states none.
std::map<std::string, std::string> TraceWorkloadKeys(const nlohmann::json& meta);

}  // namespace pgstorsim

#endif  // PGSTORSIM_TRACE_TRACE_SCENARIO_H_
