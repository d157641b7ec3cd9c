// The "simulator vs analytic model" section: each `simulate` result paired with the
// `predict` result (or `predict --sweep` point) that describes the same scenario, so the
// report says where the two models differ by more than the 10 % on tps they must agree within.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "report/report_sections.h"
#include "report/svg_chart.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace report {
namespace {

constexpr double kAgreementTolerance = 0.10;  // |simulate / predict - 1| allowed.

// The scenario a model result ran, from config.scenario_toml; nullopt when absent or
// unparsable (older results, or results of other kinds).
std::optional<Scenario> ScenarioOf(const Results& r) {
  if (!r.config.is_object() || !r.config.contains("scenario_toml")) return std::nullopt;
  const auto& text = r.config["scenario_toml"];
  if (!text.is_string()) return std::nullopt;
  auto parsed = ParseScenarioToml(text.get<std::string>(), r.kind + " results");
  if (!parsed.ok()) return std::nullopt;
  return *parsed;
}

// Canonical text of what the models are asked, without run control (seed, duration,
// transaction count) and names: equal keys mean the same question.
std::string QuestionKey(Scenario s) {
  s.name.clear();
  s.description.clear();
  s.workload.seed = 1;
  s.workload.duration_ns = 0;
  s.workload.transactions = 0;
  return ScenarioToToml(s);
}

struct PredictPoint {
  const ReportInput* input = nullptr;
  std::string settings;  // "array.stripe=1MiB" or "(base)".
  double tps = 0;
  std::string key;
};

// Every point a predict result answers: its base scenario and each valid sweep row.
std::vector<PredictPoint> PredictPoints(const Inputs& inputs) {
  std::vector<PredictPoint> points;
  for (const ReportInput& in : inputs) {
    if (in.results.kind != "predict") continue;
    std::optional<Scenario> base = ScenarioOf(in.results);
    auto prediction = PredictionOf(in.results);
    if (!base || !prediction) continue;
    points.push_back({&in, "(base)", prediction->tps, QuestionKey(*base)});
    for (const SweepRow& row : SweepRowsOf(in.results)) {
      Scenario s = *base;
      bool ok = true;
      for (const auto& [name, value] : row.settings) {
        ok = ok && SetScenarioKeyFromResults(&s, name, value).ok();
      }
      if (ok) points.push_back({&in, SettingsText(row.settings), row.tps, QuestionKey(s)});
    }
  }
  return points;
}

}  // namespace

std::optional<Section> AgreementSection(const Inputs& inputs) {
  const std::vector<PredictPoint> points = PredictPoints(inputs);
  Section s("agreement", "Simulator vs analytic model");
  s.table.header = {"simulate",    "predict", "point",       "simulate tps",
                    "predict tps", "ratio",   "agree (10 %)"};
  ChartSpec chart = MakeChart("simulate vs predict tps", "", "throughput (tps)");
  ChartSeries sim = MakeSeries("simulate"), model = MakeSeries("predict");
  int differ = 0;
  for (const ReportInput& in : inputs) {
    if (in.results.kind != "simulate") continue;
    std::optional<Scenario> scenario = ScenarioOf(in.results);
    if (!scenario) continue;
    const std::string key = QuestionKey(*scenario);
    for (const PredictPoint& p : points) {
      if (p.key != key || p.tps <= 0) continue;
      const double ratio = in.results.tps / p.tps;
      const bool agree = std::fabs(ratio - 1) <= kAgreementTolerance;
      differ += agree ? 0 : 1;
      s.table.rows.push_back({in.label, p.input->label, p.settings, FormatNumber(in.results.tps, 1),
                              FormatNumber(p.tps, 1), FormatNumber(ratio, 3),
                              agree ? "yes" : "NO"});
      chart.categories.push_back(in.label);
      sim.values.push_back(in.results.tps);
      model.values.push_back(p.tps);
      break;
    }
  }
  if (s.table.rows.empty()) return std::nullopt;
  chart.series = {sim, model};
  s.svgs.push_back(BarChartSvg(chart));
  s.lead = differ == 0 ? "The simulator and the analytic model agree within 10 % on every "
                         "configuration both answered."
                       : std::to_string(differ) +
                             " configuration(s) where the simulator and the analytic model "
                             "differ by more than 10 %: trust neither there without a "
                             "measurement.";
  s.paragraphs.push_back(
      "Pairs are made on the whole scenario (calibration included), ignoring seed and "
      "duration; ratio = simulate tps / predict tps.");
  return s;
}

}  // namespace report
}  // namespace pgstorsim
