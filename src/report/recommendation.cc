#include "report/recommendation.h"

#include <map>
#include <optional>

#include "common/units.h"
#include "report/report_data.h"

namespace pgstorsim {
namespace report {
namespace {

// Gains below this fraction are not recommended: repeated pgbench runs differ this much.
constexpr double kNoiseFraction = 0.05;

struct Band {
  std::string source;  // Label of the model result.
  double tps = 0;
  std::optional<double> low, high;
};

std::string BandText(const Band& b) {
  if (b.low && b.high) return FormatNumber(*b.low, 0) + "-" + FormatNumber(*b.high, 0);
  return FormatNumber(b.tps, 0);
}

// A model prediction or sweep row that agrees with `target` on every key in `keys`.
std::optional<Band> FindPrediction(const std::vector<ReportInput>& inputs, const FlatConfig& target,
                                   const std::vector<std::string>& keys) {
  for (const ReportInput& in : inputs) {
    auto p = PredictionOf(in.results);
    if (!p) continue;
    const FlatConfig cfg = FlattenConfig(in.results.config);
    bool match = !keys.empty();
    for (const std::string& k : keys) {
      auto a = cfg.find(k), b = target.find(k);
      match = match && a != cfg.end() && b != target.end() && SameValue(k, a->second, b->second);
    }
    if (match) return Band{in.label, p->tps, p->tps_low, p->tps_high};
    for (const SweepRow& row : SweepRowsOf(in.results)) {
      bool row_match = !keys.empty();
      for (const std::string& k : keys) {
        auto v = LookupSetting(row.settings, k);
        auto t = target.find(k);
        row_match = row_match && v && t != target.end() && SameValue(k, *v, t->second);
      }
      if (row_match) return Band{in.label, row.tps, row.tps_low, row.tps_high};
    }
  }
  return std::nullopt;
}

std::string ChangeText(const FlatConfig& best, const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& k : keys) {
    auto it = best.find(k);
    if (!out.empty()) out += ", ";
    out += ShortKey(k) + " " + (it == best.end() ? "unset" : DisplayValue(k, it->second));
  }
  return out;
}

void AddStatementEvidence(const Results& base, const Results& best, Recommendation* rec) {
  for (const StatementResult& b : base.statements) {
    for (const StatementResult& s : best.statements) {
      if (s.name != b.name || b.latency.count() == 0 || s.latency.count() == 0) continue;
      double from = b.latency.mean_ns() / kNsPerMs, to = s.latency.mean_ns() / kNsPerMs;
      rec->evidence.push_back(s.name + ": mean " + FormatNumber(from, 2) + " -> " +
                              FormatNumber(to, 2) + " ms (" + PercentChange(from, to) + ")");
    }
  }
}

void AddRunCaveats(const ReportInput& in, Recommendation* rec) {
  const Results& r = in.results;
  rec->assumptions.push_back(in.label + ": " + r.kind + ", " + FormatNumber(r.duration_s, 0) +
                             " s, " + std::to_string(r.transactions) + " transactions.");
  if (!r.complete || !r.flags.empty()) {
    std::string flags;
    for (const std::string& f : r.flags) flags += (flags.empty() ? "" : ", ") + f;
    rec->assumptions.push_back("Warning: " + in.label + " is flagged" +
                               (r.complete ? "" : " incomplete") +
                               (flags.empty() ? "" : " (" + flags + ")") + ".");
  }
}

// `group`: results comparable with its first (the baseline), in input order.
Recommendation FromMeasured(const std::vector<ReportInput>& inputs,
                            const std::vector<size_t>& group) {
  Recommendation rec;
  const ReportInput& base = inputs[group[0]];
  FlatConfig base_cfg = FlattenConfig(base.results.config);
  size_t best = group[0];
  for (size_t i : group) {
    if (inputs[i].results.tps > inputs[best].results.tps) best = i;
  }
  const ReportInput& top = inputs[best];
  rec.assumptions.push_back("Baseline: " + base.label + " (the first " + base.results.kind +
                            " result with a comparable one); compared with " +
                            std::to_string(group.size()) + " " + base.results.kind +
                            " result(s) under the same workload conditions (clients, "
                            "scale, cache state). Results of other kinds or conditions "
                            "are not compared with it.");
  if (best == group[0]) {
    rec.headline = "Keep the current configuration (" + base.label + "): its " +
                   FormatNumber(base.results.tps, 0) + " tps is the highest measured.";
    AddRunCaveats(base, &rec);
    return rec;
  }
  FlatConfig top_cfg = FlattenConfig(top.results.config);
  std::vector<std::string> keys;
  for (const std::string& k : KeysThatDiffer(base_cfg, top_cfg)) {
    if (RoleOf(k) == KeyRole::kSetting) keys.push_back(k);
  }
  std::string change = keys.empty() ? top.label : ChangeText(top_cfg, keys);
  rec.headline = change + ": " + PercentChange(base.results.tps, top.results.tps) + " tps (" +
                 FormatNumber(top.results.tps, 0) + " vs " + FormatNumber(base.results.tps, 0) +
                 " measured)";
  if (top.results.tps < base.results.tps * (1 + kNoiseFraction)) {
    rec.headline = "No clear gain: " + rec.headline + " is within the " +
                   FormatNumber(kNoiseFraction * 100, 0) +
                   "% run-to-run noise; keep the current configuration";
  }
  if (auto band = FindPrediction(inputs, top_cfg, keys)) {
    rec.headline += ", predicted " + BandText(*band);
    rec.assumptions.push_back("Prediction from " + band->source +
                              (band->low ? " with its calibrated error band."
                                         : " (no calibrated band: treat as a point estimate)."));
  }
  AddStatementEvidence(base.results, top.results, &rec);
  rec.assumptions.push_back(
      keys.empty() ? "The two results have the same settings: the difference is noise or "
                     "something the config does not record."
                   : "Only the settings named above differ between the two runs; the gain is "
                     "attributed to them and assumes the same workload, scale and cache "
                     "state as measured.");
  AddRunCaveats(base, &rec);
  AddRunCaveats(top, &rec);
  return rec;
}

// Indices of the results comparable with the first result in `candidates` that has
// a comparable partner (the baseline first); empty when no such pair exists.
std::vector<size_t> FirstComparableGroup(const std::vector<ReportInput>& inputs,
                                         const std::vector<size_t>& candidates) {
  for (size_t i : candidates) {
    std::vector<size_t> group = {i};
    for (size_t j : candidates) {
      if (j != i && Comparable(inputs[i].results, inputs[j].results)) group.push_back(j);
    }
    if (group.size() >= 2) return group;
  }
  return {};
}

}  // namespace

std::optional<Recommendation> RecommendFromMeasured(const std::vector<ReportInput>& inputs) {
  std::vector<size_t> measured;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (IsMeasured(inputs[i].results)) measured.push_back(i);
  }
  std::vector<size_t> group = FirstComparableGroup(inputs, measured);
  if (group.empty()) return std::nullopt;
  return FromMeasured(inputs, group);
}

Recommendation NoRecommendation() {
  Recommendation rec;
  rec.headline =
      "No recommendation: the inputs hold no two comparable measured results (same "
      "kind, same workload conditions) and no planning question (a predicted sweep or "
      "objective).";
  rec.assumptions.push_back(
      "Give at least two run (or two replay) results under the same workload that "
      "differ in one setting, or a predict result with a sweep section.");
  return rec;
}

}  // namespace report
}  // namespace pgstorsim
