#include "trace/trace_scenario.h"

#include "pgmodel/host_scenario.h"

namespace pgstorsim {

StatusOr<GeneratorOptions> GeneratorOptionsFromScenario(const Scenario& s) {
  GeneratorOptions o;
  o.clients = s.workload.clients;
  o.seed = s.workload.seed;
  if (s.workload.transactions > 0) o.transactions = s.workload.transactions * s.workload.clients;
  if (s.workload.rate_tps > 0) o.rate_tps = s.workload.rate_tps;
  o.host = pgmodel::HostConfigFromScenario(s);
  return o;
}

std::map<std::string, std::string> TraceWorkloadKeys(const nlohmann::json& meta) {
  static const std::pair<const char*, const char*> kMetaKeys[] = {
      {"workload", "workload.type"}, {"scale", "workload.scale"},   {"clients", "workload.clients"},
      {"seed", "workload.seed"},     {"rate_tps", "workload.rate"}, {"cache", "workload.cache"}};
  std::map<std::string, std::string> out;
  if (!meta.is_object() || !meta.contains("generator")) return out;
  for (const auto& [field, key] : kMetaKeys) {
    if (!meta.contains(field)) continue;
    const nlohmann::json& v = meta[field];
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    if (auto value = CanonicalScenarioValue(key, text); value.ok()) out[key] = *value;
  }
  return out;
}

}  // namespace pgstorsim
