// Sections about what was measured: inputs, configurations, throughput, clients,
// per-statement latency and tps over time.
#include "report/report_sections.h"

#include <algorithm>
#include <iterator>
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

std::optional<Section> RecommendationSection(const Inputs& inputs, bool answered) {
  std::optional<Recommendation> measured = RecommendFromMeasured(inputs);
  if (!measured && answered) return std::nullopt;
  const Recommendation rec = measured ? *measured : NoRecommendation();
  Section s("recommendation", "Recommendation");
  s.lead = rec.headline;
  s.bullets = rec.evidence;
  for (const std::string& a : rec.assumptions) s.bullets.push_back("Assumption: " + a);
  return s;
}

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
      row.push_back(it == c.end() ? "-" : ValueWithUnit(k, it->second));
    }
    s.table.rows.push_back(std::move(row));
  }
  return s;
}

Section ThroughputSection(const Inputs& inputs) {
  Section s("throughput", "Throughput");
  ChartSpec chart = MakeChart("Transactions per second", "", "throughput (tps)");
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
  ChartSpec chart = MakeChart("tps vs clients", "clients (connections)", "throughput (tps)");
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
  ChartSpec chart =
      MakeChart("Mean latency per transaction, by statement", "", "mean latency (ms)");
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

namespace {

// The cache state a result ran with ("cold", "warm"), from its config; "" if none.
std::string CacheStateOf(const FlatConfig& config) {
  for (const auto& [k, v] : config) {
    const size_t dot = k.rfind('.');
    const std::string last = dot == std::string::npos ? k : k.substr(dot + 1);
    if (last == "cache" || last == "cache_state") return v;
  }
  return "";
}

// Same machine and workload, cache state aside: measured with measured, model with
// model, every other condition equal.
bool SameRampGroup(const ReportInput& a, const ReportInput& b) {
  if (IsMeasured(a.results) != IsMeasured(b.results) || a.results.kind != b.results.kind) {
    return false;
  }
  FlatConfig ca = FlattenConfig(a.results.config), cb = FlattenConfig(b.results.config);
  for (FlatConfig* c : {&ca, &cb}) {
    for (auto it = c->begin(); it != c->end();) {
      const std::string state = CacheStateOf({*it});
      it = state.empty() ? std::next(it) : c->erase(it);
    }
  }
  return SameConditions(ca, cb) && SameConditions(cb, ca);
}

// Mean tps over the second half of a series (a warm run's steady state).
double SteadyTps(const std::vector<IntervalSample>& series) {
  double sum = 0;
  size_t n = 0;
  for (size_t i = series.size() / 2; i < series.size(); ++i, ++n) sum += series[i].tps;
  return n ? sum / n : 0;
}

// First time a series reaches `tps` (3-interval moving mean); < 0 if never.
double TimeToReach(const std::vector<IntervalSample>& series, double tps) {
  for (size_t i = 0; i < series.size(); ++i) {
    double sum = 0;
    size_t n = 0;
    for (size_t j = i >= 2 ? i - 2 : 0; j <= i; ++j, ++n) sum += series[j].tps;
    if (sum / n >= tps) return series[i].t_s;
  }
  return -1;
}

}  // namespace

std::optional<Section> SeriesSection(const Inputs& inputs) {
  Section s("series", "Throughput over time (cold vs warm)");
  s.table.header = {"group",
                    "label",
                    "cache",
                    "intervals",
                    "steady tps (second half)",
                    "time to 90 % of warm tps (s)"};
  std::vector<const ReportInput*> with_series;
  for (const ReportInput& in : inputs) {
    if (!in.results.series.empty()) with_series.push_back(&in);
  }
  std::vector<bool> placed(with_series.size(), false);
  int group = 0;
  for (size_t i = 0; i < with_series.size(); ++i) {
    if (placed[i]) continue;
    std::vector<const ReportInput*> members;
    for (size_t j = i; j < with_series.size(); ++j) {
      if (!placed[j] && SameRampGroup(*with_series[i], *with_series[j])) {
        placed[j] = true;
        members.push_back(with_series[j]);
      }
    }
    ++group;
    // The warm reference: the first member whose cache is not cold.
    const ReportInput* warm = nullptr;
    for (const ReportInput* m : members) {
      if (CacheStateOf(FlattenConfig(m->results.config)) != "cold") {
        warm = m;
        break;
      }
    }
    const double warm_tps = warm ? SteadyTps(warm->results.series) : 0;
    ChartSpec chart = MakeChart("Group " + std::to_string(group) + ": tps over time (" +
                                    members.front()->results.kind + ")",
                                "time since start (s)", "throughput (tps)");
    for (const ReportInput* m : members) {
      ChartSeries line = MakeSeries(m->label);
      for (const IntervalSample& p : m->results.series) {
        line.x.push_back(p.t_s);
        line.values.push_back(p.tps);
      }
      chart.series.push_back(line);
      const std::string state = CacheStateOf(FlattenConfig(m->results.config));
      const double reach = warm && m != warm ? TimeToReach(m->results.series, 0.9 * warm_tps) : -2;
      s.table.rows.push_back({std::to_string(group), m->label, state.empty() ? "-" : state,
                              std::to_string(m->results.series.size()),
                              FormatNumber(SteadyTps(m->results.series), 1),
                              reach >= 0    ? FormatNumber(reach, 0)
                              : reach == -1 ? "not reached"
                                            : "-"});
    }
    s.svgs.push_back(LineChartSvg(chart));
  }
  if (s.svgs.empty()) return std::nullopt;
  s.paragraphs.push_back(
      "One chart per group of comparable results (same kind, same workload apart from the "
      "cache state), so runs of different lengths or machines never share a time axis. A "
      "cold cache starts low and climbs as the working set is read in; the table gives the "
      "time it takes to reach 90 % of the warm run's steady throughput.");
  return s;
}

}  // namespace report
}  // namespace pgstorsim
