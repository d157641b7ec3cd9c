// Sections about what was measured: inputs, configurations, throughput, clients,
// per-statement latency and tps over time.
#include "report/report_sections.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "common/units.h"
#include "report/recommendation.h"
#include "report/svg_chart.h"

namespace pgstorsim {
namespace report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string MeanMs(const LatencyHistogram& h) {
  return h.count() ? FormatNumber(h.mean_ns() / kNsPerMs, 3) : "-";
}

}  // namespace

Section RecommendationSection(const Inputs& inputs) {
  Recommendation rec = Recommend(inputs);
  Section s("recommendation", "Recommendation");
  s.lead = rec.headline;
  s.bullets = rec.evidence;
  for (const std::string& a : rec.assumptions) s.bullets.push_back("Assumption: " + a);
  return s;
}

bool RecommendationFromSweep(const Inputs& inputs) { return Recommend(inputs).from_model_sweep; }

Section InputsSection(const Inputs& inputs) {
  Section s("inputs", "Provenance: results used");
  s.table.header = {"label",        "kind", "file", "created (UTC)", "tps", "txn latency mean (ms)",
                    "duration (s)", "flags"};
  for (const ReportInput& in : inputs) {
    const Results& r = in.results;
    std::string flags = r.complete ? "" : "incomplete";
    for (const std::string& f : r.flags) flags += (flags.empty() ? "" : ", ") + f;
    s.table.rows.push_back({in.label, r.kind, in.path, r.created_utc, FormatNumber(r.tps, 1),
                            MeanMs(r.transaction_latency), FormatNumber(r.duration_s, 1), flags});
  }
  return s;
}

std::optional<Section> ConfigSection(const Inputs& inputs) {
  std::vector<FlatConfig> configs;
  for (const ReportInput& in : inputs) configs.push_back(FlattenConfig(in.results.config));
  std::vector<std::string> keys, omitted;
  for (const std::string& k : DifferingKeys(configs)) {
    bool long_text = std::any_of(configs.begin(), configs.end(), [&k](const FlatConfig& c) {
      auto it = c.find(k);
      return it != c.end() && IsLongText(it->second);
    });
    (long_text ? omitted : keys).push_back(k);
  }
  if (inputs.size() < 2 || keys.empty()) return std::nullopt;
  Section s("config", "Configuration differences");
  s.collapsed = true;
  s.paragraphs.push_back("Config keys whose values differ between the results (" +
                         std::to_string(keys.size()) + " of them); '-' means absent.");
  if (!omitted.empty()) {
    std::string names;
    for (const std::string& k : omitted) names += (names.empty() ? "" : ", ") + k;
    s.paragraphs.push_back("Omitted (long text): " + names + ".");
  }
  s.table.header = {"key"};
  for (const ReportInput& in : inputs) s.table.header.push_back(in.label);
  for (const std::string& k : keys) {
    std::vector<std::string> row = {k};
    for (const FlatConfig& c : configs) {
      auto it = c.find(k);
      row.push_back(it == c.end() ? "-" : DisplayValue(k, it->second));
    }
    s.table.rows.push_back(std::move(row));
  }
  return s;
}

Section ThroughputSection(const Inputs& inputs) {
  Section s("throughput", "Throughput");
  ChartSpec chart = MakeChart("Transactions per second", "", "tps");
  ChartSeries measured = MakeSeries("measured"), model = MakeSeries("model");
  for (const ReportInput& in : inputs) {
    chart.categories.push_back(in.label);
    // Other kinds (calibrate) carry no throughput of their own: no bar.
    measured.values.push_back(IsMeasured(in.results) ? in.results.tps : kNaN);
    model.values.push_back(IsModel(in.results) ? in.results.tps : kNaN);
  }
  chart.series = {measured, model};
  s.svgs.push_back(BarChartSvg(chart));
  s.table.header = {"label", "kind", "tps", "transactions", "failed"};
  for (const ReportInput& in : inputs) {
    s.table.rows.push_back({in.label, in.results.kind, FormatNumber(in.results.tps, 1),
                            std::to_string(in.results.transactions),
                            std::to_string(in.results.failed)});
  }
  return s;
}

std::optional<Section> ClientsSection(const Inputs& inputs) {
  // One line per (kind, config without the client count); x = clients.
  std::map<std::string, ChartSeries> lines;
  std::set<double> client_counts;
  for (const ReportInput& in : inputs) {
    FlatConfig cfg = FlattenConfig(in.results.config);
    auto clients = ClientsOf(cfg);
    if (!clients) continue;
    client_counts.insert(*clients);
    std::string group = in.results.kind;
    for (const auto& [k, v] : cfg) {
      bool is_clients =
          k == "clients" || (k.size() > 8 && k.compare(k.size() - 8, 8, ".clients") == 0);
      if (!is_clients && RoleOf(k) != KeyRole::kRunControl) group += " " + k + "=" + v;
    }
    ChartSeries& line = lines[group];
    if (line.name.empty()) line.name = in.label;
    line.x.push_back(*clients);
    line.values.push_back(in.results.tps);
  }
  if (client_counts.size() < 2) return std::nullopt;
  Section s("clients", "Throughput vs clients");
  ChartSpec chart = MakeChart("tps vs clients", "clients", "tps");
  for (auto& [group, line] : lines) chart.series.push_back(line);
  s.svgs.push_back(LineChartSvg(chart));
  s.paragraphs.push_back(
      "Each line joins results that differ only in the client count; "
      "it is named after its first result.");
  return s;
}

ValueGrid BuildValueGrid(const Inputs& inputs,
                         const std::function<NamedValues(const ReportInput&)>& entries_of) {
  ValueGrid grid;
  std::vector<NamedValues> entries;
  for (const ReportInput& in : inputs) {
    entries.push_back(entries_of(in));
    for (const auto& [name, value] : entries.back()) {
      if (std::find(grid.names.begin(), grid.names.end(), name) == grid.names.end()) {
        grid.names.push_back(name);
      }
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (entries[i].empty()) continue;
    ValueGrid::Row row{&inputs[i], std::vector<double>(grid.names.size(), kNaN)};
    for (const auto& [name, value] : entries[i]) {
      auto at = std::find(grid.names.begin(), grid.names.end(), name) - grid.names.begin();
      row.values[at] = value;
    }
    grid.rows.push_back(std::move(row));
  }
  return grid;
}

std::optional<Section> StatementsSection(const Inputs& inputs) {
  ValueGrid grid = BuildValueGrid(inputs, [](const ReportInput& in) {
    NamedValues out;
    for (const StatementResult& st : in.results.statements) {
      out.emplace_back(st.name, st.latency.count() ? st.latency.mean_ns() / kNsPerMs : kNaN);
    }
    return out;
  });
  if (grid.names.empty()) return std::nullopt;
  Section s("statements", "Where the time goes: per-statement mean latency");
  ChartSpec chart = MakeChart("Mean latency per transaction, by statement", "", "ms");
  s.table.header = {"statement"};
  for (const ValueGrid::Row& row : grid.rows) {
    chart.categories.push_back(row.input->label);
    s.table.header.push_back(row.input->label + " (ms)");
  }
  for (size_t n = 0; n < grid.names.size(); ++n) {
    ChartSeries series = MakeSeries(grid.names[n]);
    std::vector<std::string> cells = {grid.names[n]};
    for (const ValueGrid::Row& row : grid.rows) {
      series.values.push_back(row.values[n]);
      cells.push_back(FormatNumber(row.values[n], 3));
    }
    chart.series.push_back(series);
    s.table.rows.push_back(std::move(cells));
  }
  s.svgs.push_back(StackedBarChartSvg(chart));
  s.paragraphs.push_back(
      "Stacked statement means add up to about the transaction latency; "
      "the tallest segment is where a change will pay off.");
  return s;
}

std::optional<Section> SeriesSection(const Inputs& inputs) {
  ChartSpec chart = MakeChart("tps over time", "seconds since start", "tps");
  Section s("series", "Throughput over time (cold vs warm)");
  s.table.header = {"label", "intervals", "first interval tps", "last interval tps"};
  for (const ReportInput& in : inputs) {
    if (in.results.series.empty()) continue;
    ChartSeries line = MakeSeries(in.label);
    for (const IntervalSample& p : in.results.series) {
      line.x.push_back(p.t_s);
      line.values.push_back(p.tps);
    }
    chart.series.push_back(line);
    s.table.rows.push_back({in.label, std::to_string(in.results.series.size()),
                            FormatNumber(in.results.series.front().tps, 1),
                            FormatNumber(in.results.series.back().tps, 1)});
  }
  if (chart.series.empty()) return std::nullopt;
  s.svgs.push_back(LineChartSvg(chart));
  s.paragraphs.push_back(
      "A cold cache starts low and climbs as the working set is read in; "
      "a warm one is flat from the start.");
  return s;
}

}  // namespace report
}  // namespace pgstorsim
