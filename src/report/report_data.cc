#include "report/report_data.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "common/units.h"
#include "scenario/key_roles.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace report {
namespace {

using nlohmann::json;

std::optional<double> NumberAt(const json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  double v = it->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::string ValueText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

void Flatten(const json& j, const std::string& prefix, FlatConfig* out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      Flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    }
    return;
  }
  if (!prefix.empty()) (*out)[prefix] = ValueText(j);
}

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

FlatConfig FlattenConfig(const json& config) {
  FlatConfig out;
  Flatten(config, "", &out);
  return out;
}

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

bool IsMeasured(const Results& r) { return r.kind == "run" || r.kind == "replay"; }
bool IsModel(const Results& r) { return r.kind == "simulate" || r.kind == "predict"; }

std::optional<Prediction> PredictionOf(const Results& r) {
  if (!IsModel(r)) return std::nullopt;
  Prediction p;
  p.tps = r.tps;
  const json& section = r.sections.is_object() && r.sections.contains("prediction")
                            ? r.sections["prediction"]
                            : json();
  if (auto tps = NumberAt(section, "tps")) p.tps = *tps;
  const Band band = BandOf(section);
  p.tps_low = band.low;
  p.tps_high = band.high;
  return p;
}

Band BandOf(const json& holder) {
  // The band object predict writes (docs/model.md, "Bands from model error"), else the
  // plain tps_low / tps_high of older results and sweep rows.
  const json& from = holder.is_object() && holder.contains("band") && holder["band"].is_object()
                         ? holder["band"]
                         : holder;
  Band b;
  b.low = NumberAt(from, "tps_low");
  b.high = NumberAt(from, "tps_high");
  if (!b.low || !b.high) b.low.reset(), b.high.reset();
  return b;
}

namespace {

// config.sweep.<field> as a key -> string map.
std::map<std::string, std::string> SweepMapOf(const Results& r, const char* field) {
  std::map<std::string, std::string> out;
  if (!r.config.is_object() || !r.config.contains("sweep")) return out;
  const json& sweep = r.config["sweep"];
  if (!sweep.is_object() || !sweep.contains(field) || !sweep[field].is_object()) return out;
  for (const auto& [key, value] : sweep[field].items()) {
    if (value.is_string()) out[key] = value.get<std::string>();
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> SweepRolesOf(const Results& r) { return SweepMapOf(r, "roles"); }

std::vector<SweepRow> SweepRowsOf(const Results& r) {
  std::vector<SweepRow> rows;
  if (!r.sections.is_object() || !r.sections.contains("sweep")) return rows;
  const json& sweep = r.sections["sweep"];
  if (!sweep.is_array()) return rows;
  for (const json& row : sweep) {
    auto tps = NumberAt(row, "tps");
    if (!tps) continue;
    SweepRow out;
    out.tps = *tps;
    out.latency_ms = NumberAt(row, "latency_ms");
    const Band band = BandOf(row);
    out.tps_low = band.low;
    out.tps_high = band.high;
    out.p95_ms = NumberAt(row, "p95_ms");
    if (row.contains("regime") && row["regime"].is_string()) out.regime = row["regime"];
    if (row.contains("settings")) out.settings = FlattenConfig(row["settings"]);
    auto base = row.find("base");
    out.base = base != row.end() && base->is_boolean() && base->get<bool>();
    rows.push_back(std::move(out));
  }
  return rows;
}

const SweepRow* BaseRow(const std::vector<SweepRow>& rows) {
  for (const SweepRow& r : rows) {
    if (r.base) return &r;
  }
  return rows.empty() ? nullptr : &rows[0];
}

std::vector<DeviceUse> DevicesOf(const Results& r) {
  std::vector<DeviceUse> out;
  if (!r.sections.is_object() || !r.sections.contains("devices")) return out;
  const json& devices = r.sections["devices"];
  if (!devices.is_array()) return out;
  for (const json& d : devices) {
    auto u = NumberAt(d, "utilisation");
    if (!u) u = NumberAt(d, "utilization");  // The simulator's spelling.
    if (!u || !d.contains("name")) continue;
    out.push_back({ValueText(d["name"]), *u});
  }
  return out;
}

std::optional<double> ClientsOf(const FlatConfig& config) {
  for (const auto& [k, v] : config) {
    if (k != "clients" && !EndsWith(k, ".clients")) continue;
    double x = 0;
    if (ParseFiniteNumber(v, &x)) return x;
  }
  return std::nullopt;
}

ChartSpec MakeChart(std::string title, std::string x_label, std::string y_label) {
  ChartSpec spec;
  spec.title = std::move(title);
  spec.x_label = std::move(x_label);
  spec.y_label = std::move(y_label);
  return spec;
}

ChartSeries MakeSeries(std::string name) {
  ChartSeries s;
  s.name = std::move(name);
  return s;
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
