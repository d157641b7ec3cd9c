// The growth charts: tps and p95 against each swept workload key, one line per configuration.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "report/report_questions.h"
#include "report/report_sections.h"
#include "report/svg_chart.h"

namespace pgstorsim {
namespace report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// "1MiB, write-back": the values of `keys` only (legends; the keys are named beside).
std::string ValuesOf(const std::map<std::string, std::string>& settings,
                     const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& k : keys) {
    auto it = settings.find(k);
    if (it != settings.end()) out += (out.empty() ? "" : ", ") + it->second;
  }
  return out;
}

}  // namespace

std::optional<Section> GrowthSection(const Inputs& inputs) {
  Section s("growth", "Growth: throughput and p95 as the load grows");
  std::string legend_keys;
  for (const Question& q : QuestionsOf(inputs)) {
    if (q.rows.empty()) continue;
    const SweepRow* current = BaseRow(q.rows);
    for (const std::string& k : q.choices) {
      if (legend_keys.find(ShortKey(k)) == std::string::npos) {
        legend_keys += (legend_keys.empty() ? "" : ", ") + ShortKey(k);
      }
    }
    for (const std::string& axis : q.workload) {
      // Per configuration, the rows that differ from the current one only in `axis`.
      std::vector<std::string> others;
      for (const std::string& k : q.workload) {
        if (k != axis) others.push_back(k);
      }
      std::map<std::string, std::vector<const SweepRow*>> by_config;
      for (const SweepRow& r : q.rows) {
        auto v = r.settings.find(axis);
        if (v == r.settings.end() || !SameOn(r, *current, others)) continue;
        by_config[ValuesOf(r.settings, q.choices)].push_back(&r);
      }
      const std::string unit = UnitOf(axis);
      const std::string x_label = ShortKey(axis) + (unit.empty() ? "" : " (" + unit + ")");
      ChartSpec tps =
          MakeChart(q.input->label + ": tps vs " + ShortKey(axis), x_label, "throughput (tps)");
      ChartSpec p95 = MakeChart(q.input->label + ": p95 vs " + ShortKey(axis), x_label,
                                "transaction p95 (ms)");  // SweepRow::p95_ms.
      double x_min = 1e300, x_max = -1e300;
      for (const auto& [config, rows] : by_config) {
        ChartSeries t = MakeSeries(config.empty() ? "current" : config);
        ChartSeries p = MakeSeries(config.empty() ? "current" : config);
        for (const SweepRow* r : rows) {
          const double x = std::atof(r->settings.at(axis).c_str());
          x_min = std::min(x_min, x);
          x_max = std::max(x_max, x);
          t.x.push_back(x);
          t.values.push_back(r->tps);
          p.x.push_back(x);
          p.values.push_back(r->p95_ms.value_or(kNaN));
        }
        tps.series.push_back(std::move(t));
        p95.series.push_back(std::move(p));
      }
      if (tps.series.empty() || !(x_max > x_min)) continue;
      if (q.objective && (q.objective->metric == "p95_ms" || q.objective->metric == "tps")) {
        ChartSeries line = MakeSeries("objective " + q.objective->text);
        line.x = {x_min, x_max};
        line.values = {q.objective->limit, q.objective->limit};
        (q.objective->metric == "tps" ? tps : p95).series.push_back(std::move(line));
      }
      s.svgs.push_back(LineChartSvg(tps));
      s.svgs.push_back(LineChartSvg(p95));
    }
  }
  if (s.svgs.empty()) return std::nullopt;
  s.paragraphs.push_back(
      (legend_keys.empty()
           ? std::string("One configuration")
           : "Each line is one configuration (legend: its values of " + legend_keys + ")") +
      "; only the swept load changes along it (the other workload keys at their current "
      "values).");
  return s;
}

}  // namespace report
}  // namespace pgstorsim
