#include "cli/run_scenario_keys.h"

#include <map>
#include <string>

#include "common/units.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace {

// The scenario keys the run states, as scenario values ("10", "20s", "tpcb-like").
std::map<std::string, std::string> StatedKeys(const RunConfig& c, int scale) {
  std::map<std::string, std::string> keys = {
      {"workload.clients", std::to_string(c.clients)},
      {"workload.scale", std::to_string(scale)},
      {"workload.seed", std::to_string(c.seed)},
      {"workload.rate", std::to_string(c.rate_tps)},
      {"workload.protocol", c.prepared ? "prepared" : "simple"}};
  if (c.duration_ns > 0) keys["workload.duration"] = std::to_string(c.duration_ns) + "ns";
  if (c.transactions_per_client > 0) {
    keys["workload.transactions"] = std::to_string(c.transactions_per_client);
  }
  const ScriptMix& mix = c.Mix();
  if (mix.entries.size() == 1 && mix.entries.front().builtin) {
    keys["workload.type"] = WorkloadKindName(c.workload);
  }
  if (c.cache != CacheMode::kAsIs) keys["workload.cache"] = CacheModeName(c.cache);
  return keys;
}

}  // namespace

nlohmann::json RunScenarioKeys(const RunConfig& config, int scale) {
  auto keys = StatedResultsKeys(StatedKeys(config, scale));
  return keys.ok() ? *keys : nlohmann::json::object();
}

}  // namespace pgstorsim
