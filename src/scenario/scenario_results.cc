#include "scenario/scenario_results.h"

#include <cstdlib>
#include <map>

#include "common/units.h"
#include "scenario/scenario_keys.h"

namespace pgstorsim {
namespace {

nlohmann::json NumberOrText(const std::string& text) {
  double v = 0;
  if (!ParseFiniteNumber(text, &v)) return text;
  return v;
}

// The results name of a table entry: sizes and durations carry their unit column in the
// name (their values are in it: bytes, ns), every other key is its own name.
std::string ResultsNameOf(const ScenarioKeyEntry& e) {
  const std::string& kind = e.info.kind;
  return kind == "size" || kind == "duration" ? e.info.key + "_" + e.unit : e.info.key;
}

}  // namespace

std::optional<ResultsName> FindResultsName(const std::string& name) {
  static const std::map<std::string, ResultsName> names = [] {
    std::map<std::string, ResultsName> out;
    for (const ScenarioKeyEntry& e : KeyTable()) out[ResultsNameOf(e)] = {e.info.key, e.unit};
    return out;
  }();
  auto it = names.find(name);
  if (it == names.end()) return std::nullopt;
  return it->second;
}

std::pair<std::string, nlohmann::json> ResultsKeyValue(const std::string& key,
                                                       const std::string& text) {
  const ScenarioKeyEntry* entry = FindKey(key);
  if (entry == nullptr) return {key, NumberOrText(text)};
  const std::string& kind = entry->info.kind;
  if (kind == "size") {
    auto bytes = ParseBytes(text);
    if (bytes.ok()) return {ResultsNameOf(*entry), *bytes};
  } else if (kind == "duration") {
    auto ns = ParseDurationNs(text);
    if (ns.ok()) return {ResultsNameOf(*entry), *ns};
  } else if (kind == "rpm") {
    auto rpm = ParseRpm(text);
    if (rpm.ok()) return {key, *rpm};
  } else if (kind == "int") {
    return {key, std::strtoll(text.c_str(), nullptr, 10)};
  } else if (kind == "double") {
    return {key, NumberOrText(text)};
  } else if (kind == "bool") {
    return {key, text == "on"};
  }
  return {key, text};
}

Status SetScenarioKeyFromResults(Scenario* s, const std::string& name,
                                 const std::string& value_text) {
  const std::optional<ResultsName> found = FindResultsName(name);
  if (!found) return SetScenarioKey(s, name, value_text);
  // A duration's number is in its unit ("ns"); a size's bare number is bytes already.
  const bool duration = FindKey(found->key)->info.kind == "duration";
  return SetScenarioKey(s, found->key, duration ? value_text + found->unit : value_text);
}

nlohmann::json ScenarioResultsKeys(const Scenario& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const ScenarioKeyEntry& e : KeyTable()) {
    auto [name, value] = ResultsKeyValue(e.info.key, e.get(s));
    out[name] = value;
  }
  return out;
}

StatusOr<nlohmann::json> StatedResultsKeys(const std::map<std::string, std::string>& texts) {
  Scenario s;
  for (const auto& [key, text] : texts) {
    Status set = SetScenarioKey(&s, key, text);
    if (!set.ok()) return set;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const ScenarioKeyEntry& e : KeyTable()) {
    if (!texts.count(e.info.key)) continue;
    auto [name, value] = ResultsKeyValue(e.info.key, e.get(s));
    out[name] = value;
  }
  return out;
}

nlohmann::json ScenarioResultsConfig(const Scenario& s) {
  return {{"scenario_toml", ScenarioToToml(s)},
          {"scenario_file", s.source_file},
          {"scenario", ScenarioResultsKeys(s)}};
}

}  // namespace pgstorsim
