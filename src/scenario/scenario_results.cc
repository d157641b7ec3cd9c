#include "scenario/scenario_results.h"

#include <cstdlib>

#include "common/units.h"
#include "scenario/scenario_keys.h"

namespace pgstorsim {
namespace {

nlohmann::json NumberOrText(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return text;
  return v;
}

}  // namespace

std::pair<std::string, nlohmann::json> ResultsKeyValue(const std::string& key,
                                                       const std::string& text) {
  const ScenarioKeyEntry* entry = FindKey(key);
  if (entry == nullptr) return {key, NumberOrText(text)};
  const std::string& kind = entry->info.kind;
  if (kind == "size") {
    auto bytes = ParseBytes(text);
    if (bytes.ok()) return {key + "_bytes", *bytes};
  } else if (kind == "duration") {
    auto ns = ParseDurationNs(text);
    if (ns.ok()) return {key + "_ns", *ns};
  } else if (kind == "rpm") {
    auto rpm = ParseRpm(text);
    if (rpm.ok()) return {key, *rpm};  // "disks.rpm" names its unit already.
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
  for (const ScenarioKeyEntry& e : KeyTable()) {
    const std::string& kind = e.info.kind;
    if (kind == "size" && name == e.info.key + "_bytes") return SetScenarioKey(s, e.info.key, value_text);
    if (kind == "duration" && name == e.info.key + "_ns") {
      return SetScenarioKey(s, e.info.key, value_text + "ns");
    }
  }
  return SetScenarioKey(s, name, value_text);
}

nlohmann::json ScenarioResultsKeys(const Scenario& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const ScenarioKeyEntry& e : KeyTable()) {
    auto [name, value] = ResultsKeyValue(e.info.key, e.get(s));
    out[name] = value;
  }
  return out;
}

}  // namespace pgstorsim
