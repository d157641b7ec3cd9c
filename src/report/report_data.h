// Private to src/report: lenient accessors that pull chart data out of Results,
// returning empty/nullopt for anything absent or malformed (never throwing), and the
// intermediate document (sections of paragraphs, an SVG and a table) rendered both as
// HTML and as Markdown. Section shapes read here are documented in docs/report.md.
#ifndef PGSTORSIM_REPORT_REPORT_DATA_H_
#define PGSTORSIM_REPORT_REPORT_DATA_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/results.h"
#include "report/report.h"
#include "report/svg_chart.h"

namespace pgstorsim {
namespace report {

// ---- Intermediate document ----
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

struct Section {
  Section() = default;
  Section(std::string id_in, std::string title_in)
      : id(std::move(id_in)), title(std::move(title_in)) {}
  std::string id;  // HTML anchor.
  std::string title;
  std::string lead;                     // Emphasised first line (may be empty).
  std::vector<std::string> paragraphs;  // Plain text (escaped by the renderers).
  std::vector<std::string> bullets;
  std::vector<std::string> svgs;  // Complete <svg> elements (HTML only).
  Table table;
  bool collapsed = false;  // HTML: folded in a <details> until opened.
};

struct Content {
  std::string title;
  std::vector<Section> sections;
};

// ---- Data access ----
// Nested config objects flattened to dotted keys ("array.stripe"); values as text
// (strings unquoted, numbers as JSON prints them, arrays as JSON).
using FlatConfig = std::map<std::string, std::string>;
FlatConfig FlattenConfig(const nlohmann::json& config);
// Keys whose value is not the same (or is missing) in every input, sorted.
std::vector<std::string> DifferingKeys(const std::vector<FlatConfig>& configs);
// Keys where a and b differ, sorted (a key missing on one side differs).
std::vector<std::string> KeysThatDiffer(const FlatConfig& a, const FlatConfig& b);

// What a config key means for comparisons: a scenario key the schema names
// ("scenario.workload.clients", "workload.duration_ns") by its key table role (a label
// is run control; a workload key a condition, or run control when it is the seed,
// duration, transactions or protocol; a choice a setting); any other key by its last
// dotted component:
//  condition: the workload the numbers were measured under (clients, scale, cache,
//    cache_state, workload, workload.type, rate_tps); results are comparable only when
//    their conditions agree;
//  run-control: how long or with which seed it ran (seed, duration_s, warmup_s,
//    progress_s, threads, transactions_per_client, max_tries, protocol, ...): ignored
//    when matching and never presented as a change to make;
//  setting: everything else (stripe, cache policy, RAM, ...): what a DBA can change.
enum class KeyRole { kCondition, kRunControl, kSetting };
KeyRole RoleOf(const std::string& key);
// Conditions agree: every condition key present in both has the same value.
bool SameConditions(const FlatConfig& a, const FlatConfig& b);
// Like with like: same kind, and every condition key present in either is present in
// both with the same value (a replay is never comparable with a run).
bool Comparable(const Results& a, const Results& b);
// Long multi-line values (an embedded scenario file): left out of comparisons.
bool IsLongText(const std::string& value);

// Same value for `key`; sizes compare by bytes ("1MiB" == "1048576") for the keys whose
// schema unit is bytes (UnitOf).
bool SameValue(const std::string& key, const std::string& a, const std::string& b);
// Every key present in both agrees (run-control keys ignored), and at least one
// key is shared.
bool ConfigsAgree(const FlatConfig& a, const FlatConfig& b);
// Looks up `key` in settings exactly or by dotted suffix ("stripe" matches "array.stripe").
std::optional<std::string> LookupSetting(const std::map<std::string, std::string>& settings,
                                         const std::string& key);

bool IsMeasured(const Results& r);  // run, replay.
bool IsModel(const Results& r);     // simulate, predict.

// A prediction's tps band, wherever it is carried (sections.prediction, a sweep row):
// the one reader of band fields, so a change of how bands are written lands here.
struct Band {
  std::optional<double> low, high;  // Both or neither.
};
Band BandOf(const nlohmann::json& holder);

struct Prediction {
  double tps = 0;
  std::optional<double> tps_low, tps_high;
};
// sections.prediction (tps defaults to summary tps) for model results; else nullopt.
std::optional<Prediction> PredictionOf(const Results& r);

struct SweepRow {
  std::map<std::string, std::string> settings;
  double tps = 0;
  std::optional<double> latency_ms, tps_low, tps_high;
  std::optional<double> p95_ms;  // Transaction p95 ("p95_ms").
  std::string regime;            // Prediction::regime (predict rows).
  bool base = false;             // "base": true marks the model's unchanged configuration.
};
std::vector<SweepRow> SweepRowsOf(const Results& r);  // sections.sweep.
// The sweep's points the scenario rules refused (rows with "error" instead of tps).
struct RefusedRow {
  std::map<std::string, std::string> settings;
  std::string error;
};
std::vector<RefusedRow> RefusedSweepRowsOf(const Results& r);
// The row a sweep is compared against: the one marked "base", else the first row.
const SweepRow* BaseRow(const std::vector<SweepRow>& rows);
// config.sweep.roles: swept key -> "choice" | "workload" | "label" as the results
// recorded them (scenario KeyRole); empty when the results carry none.
std::map<std::string, std::string> SweepRolesOf(const Results& r);

struct DeviceUse {
  std::string name;
  double utilisation = 0;  // Fraction busy, 0..1.
};
std::vector<DeviceUse> DevicesOf(const Results& r);  // sections.devices.

// config "clients" (top level or any "*.clients"); nullopt when absent.
std::optional<double> ClientsOf(const FlatConfig& config);

// ---- Chart helpers ----
ChartSpec MakeChart(std::string title, std::string x_label, std::string y_label);
ChartSeries MakeSeries(std::string name);

// ---- Formatting ----
std::string FormatNumber(double value, int decimals);
// The unit of a results key from the schema (scenario/scenario_results.h FindResultsName):
// a results name as sweep rows carry it ("array.stripe_bytes" -> "bytes") or one under
// config.scenario ("scenario.postgres.checkpoint_timeout_ns" -> "ns"); "" for keys the
// schema does not hold, whatever their name ends in ("duration_s", "sim.ram_bytes").
std::string UnitOf(const std::string& key);
// Config value for people: numbers of the keys whose unit is bytes (UnitOf) as sizes
// ("1 MiB"); every other value as it is.
std::string DisplayValue(const std::string& key, const std::string& value);
// Config value with its unit from the schema (UnitOf), for the configuration table:
// sizes as DisplayValue gives them ("1 MiB"), durations in ns as times ("300.000 s"),
// numbers of every other unit followed by it ("10 connections"); values of keys
// outside the schema, and text, as they are.
std::string ValueWithUnit(const std::string& key, const std::string& value);
// The last part of the scenario key the schema names ("array.stripe_bytes" -> "stripe");
// keys outside the schema keep their last part whole ("run.duration_s" -> "duration_s").
// Used in headlines.
std::string ShortKey(const std::string& key);
std::string SettingsText(const std::map<std::string, std::string>& settings);
std::string PercentChange(double from, double to);  // "+146%", "-12%".

}  // namespace report
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_REPORT_DATA_H_
