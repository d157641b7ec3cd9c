#include "common/results_merge.h"

#include <algorithm>
#include <set>

namespace pgstorsim {
namespace {

std::string Text(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return "";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

// The workload keys a run states (config.scenario, cli/run_scenario_keys.h); an empty
// object when it states none.
const nlohmann::json& ScenarioOf(const nlohmann::json& config) {
  static const nlohmann::json kNone = nlohmann::json::object();
  if (!config.is_object()) return kNone;
  auto it = config.find("scenario");
  return it != config.end() && it->is_object() ? *it : kNone;
}

// The server a part measured: its system identifier when known, else host:port/db.
std::string ServerKey(const Results& r) {
  const nlohmann::json server = r.environment.value("server", nlohmann::json::object());
  std::string id = Text(server, "system_identifier");
  if (!id.empty() && id.rfind("unknown", 0) != 0) return "system_identifier " + id;
  return "server " + Text(server, "host") + ":" + Text(server, "port") + "/" +
         Text(server, "database");
}

std::string SchemaKey(const Results& r) {
  std::set<std::string> names;
  for (const StatementResult& s : r.statements) names.insert(s.name);
  std::string key = "scale " + Text(ScenarioOf(r.config), "workload.scale") + ", scripts " +
                    r.config.value("scripts", nlohmann::json::array()).dump() + ", statements";
  for (const std::string& n : names) key += " [" + n + "]";
  return key;
}

double IntervalOf(const Results& r) { return r.sections.value("series_interval_s", 0.0); }

void MergeSeries(const Results& part, std::vector<IntervalSample>* series) {
  for (size_t i = 0; i < part.series.size(); ++i) {
    const IntervalSample& p = part.series[i];
    if (i >= series->size()) {
      series->push_back(p);
      continue;
    }
    IntervalSample& m = (*series)[i];
    uint64_t txns = m.transactions + p.transactions;
    m.mean_latency_ms =
        txns > 0 ? (m.mean_latency_ms * m.transactions + p.mean_latency_ms * p.transactions) / txns
                 : 0.0;
    m.transactions = txns;
    m.tps += p.tps;
    m.t_s = std::max(m.t_s, p.t_s);
  }
}

int64_t IntOr0(const nlohmann::json& config, const char* key) {
  return config.contains(key) && config[key].is_number() ? config[key].get<int64_t>() : 0;
}

}  // namespace

Status CheckSameExperiment(const std::vector<Results>& parts,
                           const std::vector<std::string>& names) {
  if (parts.empty()) return Status::Error("nothing to merge");
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& name = i < names.size() ? names[i] : "part " + std::to_string(i + 1);
    const std::string& first = names.empty() ? "part 1" : names[0];
    if (parts[i].kind != "run") {
      return Status::Error(name + ": kind '" + parts[i].kind + "' (merge joins run results)");
    }
    if (ServerKey(parts[i]) != ServerKey(parts[0])) {
      return Status::Error(name + " measured " + ServerKey(parts[i]) + ", " + first + " measured " +
                           ServerKey(parts[0]) + ": not the same server");
    }
    if (SchemaKey(parts[i]) != SchemaKey(parts[0])) {
      return Status::Error(name + " ran " + SchemaKey(parts[i]) + ", " + first + " ran " +
                           SchemaKey(parts[0]) + ": not the same schema and scripts");
    }
    if (IntervalOf(parts[i]) != IntervalOf(parts[0])) {
      return Status::Error(name + ": series interval differs from " + first + "'s");
    }
  }
  return Status::Ok();
}

StatusOr<Results> MergeResults(const std::vector<Results>& parts,
                               const std::vector<std::string>& names) {
  Status s = CheckSameExperiment(parts, names);
  if (!s.ok()) return s;
  Results merged = parts[0];
  merged.series.clear();
  MergeSeries(parts[0], &merged.series);
  nlohmann::json list = nlohmann::json::array();
  int64_t clients = 0, threads = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      merged.Merge(parts[i]);
      MergeSeries(parts[i], &merged.series);
    }
    clients += IntOr0(ScenarioOf(parts[i].config), "workload.clients");
    threads += IntOr0(parts[i].config, "threads");
    list.push_back({{"file", i < names.size() ? names[i] : ""},
                    {"client_host", parts[i].environment.value("hostname", "")},
                    {"created_utc", parts[i].created_utc},
                    {"transactions", parts[i].transactions},
                    {"tps", parts[i].tps},
                    {"duration_s", parts[i].duration_s}});
  }
  merged.config["threads"] = threads;
  // The merged run's clients are those of all the hosts.
  if (ScenarioOf(merged.config).contains("workload.clients")) {
    merged.config["scenario"]["workload.clients"] = clients;
  }
  merged.sections["merged_parts"] = list;
  if (merged.sections.contains("client_cpu")) merged.sections.erase("client_cpu");
  return merged;
}

}  // namespace pgstorsim
