// Lenient readers of results files (report_data.h): flattened configs, prediction bands,
// sweep rows, device use; and the chart helpers.
#include "report/report_data.h"

#include <cmath>

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

}  // namespace

FlatConfig FlattenConfig(const json& config) {
  FlatConfig out;
  Flatten(config, "", &out);
  return out;
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

namespace {

// sections.sweep of `r`: its rows, or none.
const json& SweepSectionOf(const Results& r) {
  static const json kNone = json::array();
  if (!r.sections.is_object() || !r.sections.contains("sweep")) return kNone;
  const json& sweep = r.sections["sweep"];
  return sweep.is_array() ? sweep : kNone;
}

}  // namespace

std::vector<SweepRow> SweepRowsOf(const Results& r) {
  std::vector<SweepRow> rows;
  for (const json& row : SweepSectionOf(r)) {
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

std::vector<RefusedRow> RefusedSweepRowsOf(const Results& r) {
  std::vector<RefusedRow> rows;
  for (const json& row : SweepSectionOf(r)) {
    if (!row.is_object() || !row.contains("error") || !row["error"].is_string()) continue;
    RefusedRow out;
    out.error = row["error"].get<std::string>();
    if (row.contains("settings")) out.settings = FlattenConfig(row["settings"]);
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

}  // namespace report
}  // namespace pgstorsim
