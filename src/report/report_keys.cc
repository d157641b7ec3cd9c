// Config keys and values (report_data.h): comparisons of flattened configs by each
// key's role, and their display with the schema's units; number formatting.
#include <cmath>
#include <cstdio>
#include <set>

#include "common/units.h"
#include "report/report_data.h"
#include "scenario/key_roles.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace report {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The schema's entry for a report key: a results name as sweep rows carry it, or one
// under config.scenario (flattened: "scenario.array.stripe_bytes").
std::optional<ResultsName> SchemaEntry(const std::string& key) {
  if (auto found = FindResultsName(key)) return found;
  static const std::string kScenario = "scenario.";
  if (key.rfind(kScenario, 0) != 0) return std::nullopt;
  return FindResultsName(key.substr(kScenario.size()));
}

bool IsSizeKey(const std::string& key) { return UnitOf(key) == "bytes"; }

}  // namespace

std::vector<std::string> DifferingKeys(const std::vector<FlatConfig>& configs) {
  std::set<std::string> keys;
  for (const FlatConfig& c : configs) {
    for (const auto& [k, v] : c) keys.insert(k);
  }
  std::vector<std::string> out;
  for (const std::string& k : keys) {
    std::set<std::string> values;
    size_t present = 0;
    for (const FlatConfig& c : configs) {
      auto it = c.find(k);
      if (it != c.end()) values.insert(it->second), ++present;
    }
    if (values.size() > 1 || present != configs.size()) out.push_back(k);
  }
  return out;
}

std::vector<std::string> KeysThatDiffer(const FlatConfig& a, const FlatConfig& b) {
  return DifferingKeys({a, b});
}

KeyRole RoleOf(const std::string& key) {
  static const std::set<std::string> kConditions = {"clients",  "scale",    "cache", "cache_state",
                                                    "workload", "rate_tps", "rate"};
  static const std::set<std::string> kRunControl = {"seed",
                                                    "duration_s",
                                                    "duration",
                                                    "warmup_s",
                                                    "progress_s",
                                                    "threads",
                                                    "transactions_per_client",
                                                    "transactions",
                                                    "max_tries",
                                                    "protocol",
                                                    "series_interval_s"};
  // A scenario key the schema names (config.scenario, sweep settings) by its key table
  // role: labels never change the numbers; workload keys are conditions, except how long
  // and with which seed and protocol the load ran.
  if (const std::optional<ResultsName> entry = SchemaEntry(key)) {
    const std::string& name = entry->key;
    const std::string last = name.substr(name.rfind('.') + 1);
    switch (ScenarioKeyRole(name)) {
      case pgstorsim::KeyRole::kLabel:
        return KeyRole::kRunControl;
      case pgstorsim::KeyRole::kWorkload:
        return kRunControl.count(last) ? KeyRole::kRunControl : KeyRole::kCondition;
      case pgstorsim::KeyRole::kChoice:
        return KeyRole::kSetting;
    }
  }
  size_t dot = key.rfind('.');
  std::string last = dot == std::string::npos ? key : key.substr(dot + 1);
  if (kRunControl.count(last)) return KeyRole::kRunControl;
  if (kConditions.count(last)) return KeyRole::kCondition;
  return KeyRole::kSetting;
}

bool SameConditions(const FlatConfig& a, const FlatConfig& b) {
  for (const auto& [k, v] : a) {
    if (RoleOf(k) != KeyRole::kCondition) continue;
    auto it = b.find(k);
    if (it != b.end() && !SameValue(k, v, it->second)) return false;
  }
  return true;
}

bool Comparable(const Results& a, const Results& b) {
  if (a.kind != b.kind) return false;
  const FlatConfig x = FlattenConfig(a.config), y = FlattenConfig(b.config);
  auto covered = [](const FlatConfig& from, const FlatConfig& to) {
    for (const auto& [k, v] : from) {
      if (RoleOf(k) == KeyRole::kCondition && !to.count(k)) return false;
    }
    return true;
  };
  return covered(x, y) && covered(y, x) && SameConditions(x, y);
}

bool IsLongText(const std::string& value) {
  return value.find('\n') != std::string::npos || value.size() > 120;
}

bool SameValue(const std::string& key, const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (!IsSizeKey(key)) return false;
  auto x = ParseBytes(a), y = ParseBytes(b);
  return x.ok() && y.ok() && *x == *y;
}

bool ConfigsAgree(const FlatConfig& a, const FlatConfig& b) {
  size_t shared = 0;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end() || RoleOf(k) == KeyRole::kRunControl) continue;
    if (!SameValue(k, v, it->second)) return false;
    ++shared;
  }
  return shared > 0;
}

std::optional<std::string> LookupSetting(const std::map<std::string, std::string>& settings,
                                         const std::string& key) {
  for (const auto& [k, v] : settings) {
    if (k == key || EndsWith(key, "." + k) || EndsWith(k, "." + key)) return v;
  }
  return std::nullopt;
}

std::optional<double> ClientsOf(const FlatConfig& config) {
  for (const auto& [k, v] : config) {
    if (k != "clients" && !EndsWith(k, ".clients")) continue;
    double x = 0;
    if (ParseFiniteNumber(v, &x)) return x;
  }
  return std::nullopt;
}

std::string FormatNumber(double value, int decimals) {
  if (!std::isfinite(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string DisplayValue(const std::string& key, const std::string& value) {
  if (!IsSizeKey(key)) return value;
  double x = 0;
  if (!ParseFiniteNumber(value, &x) || x < 0 || x != std::floor(x)) return value;
  return FormatBytes(static_cast<int64_t>(x));
}

std::string ValueWithUnit(const std::string& key, const std::string& value) {
  const std::string unit = UnitOf(key);
  if (unit.empty() || unit == "bytes") return DisplayValue(key, value);
  double x = 0;
  if (!ParseFiniteNumber(value, &x)) return value;
  if (unit == "ns" && x == std::floor(x)) return FormatDurationNs(static_cast<int64_t>(x));
  return value + " " + unit;
}

std::string UnitOf(const std::string& key) {
  const std::optional<ResultsName> entry = SchemaEntry(key);
  return entry ? entry->unit : "";
}

std::string ShortKey(const std::string& key) {
  const std::optional<ResultsName> entry = SchemaEntry(key);
  const std::string& name = entry ? entry->key : key;
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

std::string SettingsText(const std::map<std::string, std::string>& settings) {
  std::string out;
  for (const auto& [k, v] : settings) {
    if (!out.empty()) out += ", ";
    out += ShortKey(k) + " " + DisplayValue(k, v);
  }
  return out.empty() ? "(current)" : out;
}

std::string PercentChange(double from, double to) {
  if (!(from > 0) || !std::isfinite(to)) return "n/a";
  double pct = (to / from - 1) * 100;
  if (std::abs(pct) < 0.5) return "0%";  // Never "-0%".
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", pct);
  return buf;
}

}  // namespace report
}  // namespace pgstorsim
