// pgstorsim's own results JSON as a measurement (see measured.h): a run's, a replay's
// or a simulation's figures and the conditions it measured under.
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "common/results.h"
#include "common/units.h"
#include "model/measured.h"
#include "model/measured_conditions.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {

namespace {

// A JSON scalar as a condition value ("10", "tpcb-like").
void SetCondition(const nlohmann::json& j, const char* field, const char* key,
                  std::map<std::string, std::string>* out) {
  if (!j.is_object() || !j.contains(field)) return;
  const nlohmann::json& v = j[field];
  if (v.is_string()) {
    const std::string text = v.get<std::string>();
    if (text.empty() || text == "as-is") return;  // Cache left as found: not recorded.
    (*out)[key] = text == "pg-prewarm" ? "warm" : text;
  } else if (v.is_number()) {
    (*out)[key] = v.dump();
  }
}

// The condition keys (ConditionKeys) a result states under config.scenario, in the
// results schema's names (scenario_results.h), as canonical scenario text.
void ScenarioKeyConditions(const nlohmann::json& keys, std::map<std::string, std::string>* out) {
  const std::vector<std::string>& wanted = ConditionKeys();
  Scenario s;
  for (const auto& [name, value] : keys.items()) {
    const std::optional<ResultsName> found = FindResultsName(name);
    if (!found || std::find(wanted.begin(), wanted.end(), found->key) == wanted.end()) continue;
    // Booleans dump as true / false, which on/off keys take.
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (SetScenarioKeyFromResults(&s, name, text).ok()) {
      (*out)[found->key] = GetScenarioKey(s, found->key).value();
    }
  }
}

// Conditions of a run or of a replay whose config names no trace (the device
// benchmark's patterns): the workload keys their config.scenario states (the pgbench
// option names of run results without one); of a replay of a trace or pattern (`replay`:
// config.trace, "" for a pattern): the trace's meta; of a simulation: its scenario.
Status ResultsConditions(const Results& r, std::map<std::string, std::string>* out) {
  const bool states_keys = r.config.contains("scenario") && r.config["scenario"].is_object();
  const bool of_trace = r.kind == "replay" && r.config.contains("trace");
  if (states_keys && (r.kind == "run" || (r.kind == "replay" && !of_trace))) {
    ScenarioKeyConditions(r.config["scenario"], out);
    return Status::Ok();
  }
  const nlohmann::json* source = &r.config;
  if (r.kind == "replay") {
    static const nlohmann::json kNone = nlohmann::json::object();
    source = r.sections.contains("trace") && r.sections["trace"].contains("meta")
                 ? &r.sections["trace"]["meta"]
                 : &kNone;
  }
  if (r.kind == "simulate") {
    if (!r.config.contains("scenario_toml")) return Status::Ok();
    auto s = ParseScenarioToml(r.config["scenario_toml"].get<std::string>(), "scenario_toml");
    if (!s.ok()) return s.status();
    for (const char* key : {"workload.type", "workload.scale", "workload.clients",
                            "workload.protocol", "workload.cache"}) {
      (*out)[key] = GetScenarioKey(*s, key).value();
    }
    return Status::Ok();
  }
  SetCondition(*source, "workload", "workload.type", out);
  SetCondition(*source, "scale", "workload.scale", out);
  SetCondition(*source, "clients", "workload.clients", out);
  SetCondition(*source, "protocol", "workload.protocol", out);
  SetCondition(*source, "cache", "workload.cache", out);
  return Status::Ok();
}

// A replayed io workload's requests as device figures, like fio's: reads and writes per
// second (the replay's requests per second split by their counts) and each one's mean
// latency, a write's with the fsyncs that follow it (the io workload's "write" request).
void ReplayDeviceFigures(const Results& r, Measured* m) {
  auto find = [&](const char* name) -> const LatencyHistogram* {
    for (const StatementResult& s : r.statements) {
      if (s.name == name) return &s.latency;
    }
    return nullptr;
  };
  const LatencyHistogram* read = find("data read");
  const LatencyHistogram* write = find("data write");
  const LatencyHistogram* fsync = find("fsync");
  const double reads = read ? read->count() : 0, writes = write ? write->count() : 0;
  if (reads + writes <= 0) return;
  m->read_iops = r.tps * reads / (reads + writes);
  m->write_iops = r.tps * writes / (reads + writes);
  if (reads > 0) m->read_latency_ms = read->mean_ns() / kNsPerMs;
  if (writes > 0) {
    const double fsync_ms =
        fsync && fsync->count() > 0 ? fsync->mean_ns() / kNsPerMs * fsync->count() / writes : 0;
    m->write_latency_ms = write->mean_ns() / kNsPerMs + fsync_ms;
  }
}

}  // namespace

StatusOr<Measured> ParseResultsJson(const std::string& text, const std::string& source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return Status::Error(source + ": invalid JSON");
  auto results = Results::FromJson(doc);
  if (!results.ok()) return results.status().WithContext(source);
  if (results->kind != "run" && results->kind != "replay" && results->kind != "simulate") {
    return Status::Error(source + ": results of kind '" + results->kind +
                         "' are not measurements (expected run, replay or simulate)");
  }
  Measured m;
  m.source = source;
  m.tool = "results";
  m.label = results->label;
  m.tps = results->tps;
  // pgbench's statements only (a replay's "data read", "fsync" are I/O, not statements).
  static const std::set<std::string> kStatements = {"BEGIN",
                                                    "UPDATE accounts",
                                                    "SELECT accounts",
                                                    "UPDATE tellers",
                                                    "UPDATE branches",
                                                    "INSERT history",
                                                    "END"};
  for (const StatementResult& s : results->statements) {
    if (s.latency.count() > 0 && kStatements.count(s.name)) {
      m.statement_latency_ms[s.name] = s.latency.mean_ns() / kNsPerMs;
    }
  }
  Status st = ResultsConditions(*results, &m.conditions);
  if (!st.ok()) return st.WithContext(source);
  if (results->kind == "replay" && IsDeviceBenchmark(m)) {
    m.tps = 0;  // Requests, not transactions: the device figures below.
    ReplayDeviceFigures(*results, &m);
  }
  return m;
}

}  // namespace pgstorsim
