// Sections about the model and the hardware: sweeps, measured vs predicted, device
// utilisation; and the assembly of all sections into one document.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "report/report_sections.h"
#include "report/svg_chart.h"

namespace pgstorsim {
namespace report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string BandText(std::optional<double> low, std::optional<double> high) {
  if (!low || !high) return "-";
  return FormatNumber(*low, 0) + "-" + FormatNumber(*high, 0);
}

// The measured result a prediction describes: explicit sections.prediction.measured_tps,
// else the first run/replay whose config agrees on every shared key.
const ReportInput* MatchMeasured(const Inputs& inputs, const ReportInput& model) {
  FlatConfig cfg = FlattenConfig(model.results.config);
  for (const ReportInput& in : inputs) {
    if (IsMeasured(in.results) && ConfigsAgree(cfg, FlattenConfig(in.results.config))) {
      return &in;
    }
  }
  return nullptr;
}

std::optional<double> ExplicitMeasuredTps(const Results& r) {
  const auto& s = r.sections;
  if (!s.is_object() || !s.contains("prediction") || !s["prediction"].is_object()) {
    return std::nullopt;
  }
  const auto& p = s["prediction"];
  if (!p.contains("measured_tps") || !p["measured_tps"].is_number()) return std::nullopt;
  return p["measured_tps"].get<double>();
}

// Axis label of a sweep row: the values only ("1MiB, write-back"); the table names keys.
std::string ValuesText(const std::map<std::string, std::string>& settings) {
  std::string out;
  for (const auto& [k, v] : settings) out += (out.empty() ? "" : ", ") + DisplayValue(k, v);
  return out.empty() ? "(current)" : out;
}

}  // namespace

std::optional<Section> SweepSection(const Inputs& inputs) {
  Section s("sweep", "Predicted sweep");
  s.table.header = {"model", "settings", "tps", "tps band", "latency (ms)", "vs current"};
  for (const ReportInput& in : inputs) {
    std::vector<SweepRow> rows = SweepRowsOf(in.results);
    if (rows.empty()) continue;
    double current = IsModel(in.results) ? PredictionOf(in.results)->tps : in.results.tps;
    ChartSpec chart = MakeChart("Sweep: " + in.label, "", "throughput (tps)");
    ChartSeries tps = MakeSeries("tps");
    for (const SweepRow& row : rows) {
      chart.categories.push_back(ValuesText(row.settings));
      tps.values.push_back(row.tps);
      tps.low.push_back(row.tps_low.value_or(kNaN));
      tps.high.push_back(row.tps_high.value_or(kNaN));
      s.table.rows.push_back({in.label, SettingsText(row.settings), FormatNumber(row.tps, 1),
                              BandText(row.tps_low, row.tps_high),
                              row.latency_ms ? FormatNumber(*row.latency_ms, 3) : "-",
                              PercentChange(current, row.tps)});
    }
    chart.series.push_back(tps);
    s.svgs.push_back(BarChartSvg(chart));
  }
  if (s.svgs.empty()) return std::nullopt;
  s.paragraphs.push_back(
      "Each bar is one point of the sweep; whiskers show the calibrated "
      "tps band where the model provides one.");
  return s;
}

std::optional<Section> PredictionSection(const Inputs& inputs) {
  Section s("prediction", "Measured vs predicted");
  s.table.header = {"model", "kind", "measured", "measured tps", "predicted tps", "band", "error"};
  ChartSpec chart = MakeChart("Measured vs predicted tps", "", "throughput (tps)");
  ChartSeries measured = MakeSeries("measured"), predicted = MakeSeries("predicted");
  for (const ReportInput& in : inputs) {
    auto p = PredictionOf(in.results);
    if (!p) continue;
    const ReportInput* match = MatchMeasured(inputs, in);
    std::optional<double> m = ExplicitMeasuredTps(in.results);
    std::string match_label = m ? "(given)" : "-";
    if (!m && match) m = match->results.tps, match_label = match->label;
    chart.categories.push_back(in.label);
    measured.values.push_back(m.value_or(kNaN));
    predicted.values.push_back(p->tps);
    predicted.low.push_back(p->tps_low.value_or(kNaN));
    predicted.high.push_back(p->tps_high.value_or(kNaN));
    s.table.rows.push_back({in.label, in.results.kind, match_label, m ? FormatNumber(*m, 1) : "-",
                            FormatNumber(p->tps, 1), BandText(p->tps_low, p->tps_high),
                            m ? PercentChange(*m, p->tps) : "-"});
  }
  if (chart.categories.empty()) return std::nullopt;
  chart.series = {measured, predicted};
  s.svgs.push_back(BarChartSvg(chart));
  s.paragraphs.push_back(
      "A prediction is paired with the first measured result whose config "
      "agrees on every shared key; error = predicted / measured - 1.");
  return s;
}

std::optional<Section> DevicesSection(const Inputs& inputs) {
  ValueGrid grid = BuildValueGrid(inputs, [](const ReportInput& in) {
    NamedValues out;
    for (const DeviceUse& d : DevicesOf(in.results)) out.emplace_back(d.name, d.utilisation * 100);
    return out;
  });
  if (grid.names.empty()) return std::nullopt;
  Section s("devices", "Device utilisation");
  ChartSpec chart = MakeChart("Device utilisation", "", "busy (%)");
  chart.categories = grid.names;
  s.table.header = {"result"};
  for (const std::string& n : grid.names) s.table.header.push_back(n + " (% busy)");
  for (const ValueGrid::Row& row : grid.rows) {
    ChartSeries series = MakeSeries(row.input->label);
    series.values = row.values;
    std::vector<std::string> cells = {row.input->label};
    for (double v : row.values) cells.push_back(FormatNumber(v, 1));
    chart.series.push_back(series);
    s.table.rows.push_back(std::move(cells));
  }
  s.svgs.push_back(BarChartSvg(chart));
  s.paragraphs.push_back(
      "A device near 100% busy is the bottleneck; spreading its load "
      "(stripe size, more members, cache) is what can raise tps.");
  return s;
}

Content BuildContent(const Inputs& inputs, const ReportOptions& options) {
  Content c;
  c.title = options.title;
  std::optional<Section> answer = AnswerSection(inputs);
  std::optional<Section> recommendation = RecommendationSection(inputs, answer.has_value());
  if (answer) c.sections.push_back(std::move(*answer));
  if (recommendation) c.sections.push_back(std::move(*recommendation));
  std::vector<std::string> skipped;
  auto add = [&](std::optional<Section> s, const char* name) {
    if (s) {
      c.sections.push_back(std::move(*s));
    } else {
      skipped.push_back(name);
    }
  };
  add(GrowthSection(inputs), "growth (no swept workload key)");
  c.sections.push_back(ThroughputSection(inputs));
  add(ClientsSection(inputs), "tps vs clients (fewer than two client counts)");
  add(StatementsSection(inputs), "per-statement latency (no statements)");
  add(SweepSection(inputs), "sweep (no sections.sweep)");
  add(SeriesSection(inputs), "tps over time (no series)");
  add(PredictionSection(inputs), "measured vs predicted (no simulate/predict results)");
  add(AgreementSection(inputs), "simulator vs analytic model (no simulate/predict pair)");
  add(DevicesSection(inputs), "device utilisation (no sections.devices)");
  add(ConfigSection(inputs), "configurations (no differing keys)");
  c.sections.push_back(InputsSection(inputs));
  if (!skipped.empty()) {
    Section notes("notes", "Not shown");
    notes.paragraphs.push_back("These inputs carry no data for the following sections:");
    notes.bullets = skipped;
    c.sections.push_back(std::move(notes));
  }
  return c;
}

}  // namespace report
}  // namespace pgstorsim
