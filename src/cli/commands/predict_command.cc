// `pgstorsim predict`: the analytic model for one scenario, or a sweep table.
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/key_warnings.h"
#include "common/output_path.h"
#include "common/units.h"
#include "model/model_error.h"
#include "model/prediction_results.h"
#include "model/slo.h"
#include "model/storage_model.h"
#include "model/sweep.h"
#include "scenario/key_coverage.h"
#include "scenario/key_roles.h"
#include "scenario/scenario.h"
#include "scenario/sweep_spec.h"

namespace pgstorsim {
namespace {

// The latency lines, the per-statement (io: per-request) table, the devices and the
// host's `cpu_cores` (whose share the cpu line's utilisation is).
void PrintLatencies(const Prediction& p, const char* what, int cpu_cores) {
  const LatencyPercentiles& t = p.transaction_percentiles;
  std::printf("latency average = %.3f ms, p50 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms\n",
              p.transaction_latency_ms, t.p50_ms, t.p95_ms, t.p99_ms);
  std::printf("%s latencies in milliseconds (mean, p50, p95, p99):\n", what);
  for (const auto& [name, ms] : p.statement_latency_ms) {
    const auto it = p.statement_percentiles.find(name);
    const LatencyPercentiles q =
        it == p.statement_percentiles.end() ? LatencyPercentiles{} : it->second;
    std::printf("  %10.3f %10.3f %10.3f %10.3f  %s\n", ms, q.p50_ms, q.p95_ms, q.p99_ms,
                name.c_str());
  }
  for (const DeviceLoad& d : p.devices) {
    if (d.name == "cpu") {
      std::printf("  %-6s utilisation %.2f (of %d cores)\n", d.name.c_str(), d.utilization,
                  cpu_cores);
      continue;
    }
    std::printf("  %-6s utilisation %.2f (read %.2f, destage %.2f)\n", d.name.c_str(),
                d.utilization, d.read_utilization, d.destage_utilization);
  }
}

// What Prediction::cache_full_probability weighs: a write-back cache's full regime, or
// without one the regime where the disks' writes hold the load at their capacity.
const char* WeightName(const Scenario& s) {
  return s.controller.EffectiveWriteBack() ? "cache-full weight" : "write-capacity weight";
}

// An io workload: requests per second, bytes per second, latency per request kind.
void PrintIoPrediction(const Scenario& s, const Prediction& p) {
  std::printf("scenario: %s (io workload: requests per second; latencies per request)\n",
              s.name.c_str());
  std::printf(
      "iops = %.1f (band %.1f .. %.1f), %.2f MB/s, regime %s (file lock busy %.2f, "
      "%s %.2f)\n",
      p.tps, p.tps_low, p.tps_high, p.bytes_per_s / 1e6, p.regime.c_str(), p.file_lock_utilization,
      WeightName(s), p.cache_full_probability);
  std::printf("device reads/request %.3f, read command %.2f ms, destage command %.2f ms\n",
              p.reads_per_transaction, p.read_service_ms, p.destage_service_ms);
  PrintLatencies(p, "request", s.host.cpu_cores);
}

void PrintPrediction(const Scenario& s, const Prediction& p) {
  if (s.workload.type == WorkloadKind::kIo) return PrintIoPrediction(s, p);
  std::printf("scenario: %s\n", s.name.c_str());
  std::printf("tps = %.1f (band %.1f .. %.1f), regime %s (%s %.2f)\n", p.tps, p.tps_low, p.tps_high,
              p.regime.c_str(), WeightName(s), p.cache_full_probability);
  std::printf(
      "band: model error +-%.1f %% (covers %.0f %% of %d leave-one-out validation rows, "
      "class %s), parameters +-%.1f %%, in quadrature\n",
      100 * p.model_error_fraction, 100 * kBandCoverage, p.model_error_rows,
      p.model_error_class.c_str(), 100 * p.parameter_error_fraction);
  std::printf("reads/txn %.3f, read command %.2f ms, destage command %.2f ms\n",
              p.reads_per_transaction, p.read_service_ms, p.destage_service_ms);
  if (p.wal_flush_ms > 0 || p.checkpoint_stall_ms > 0) {
    std::printf(
        "END: WAL flush %.2f ms, checkpoint bursts %.2f ms per transaction (bursts of %.0f ms",
        p.wal_flush_ms, p.checkpoint_stall_ms, p.checkpoint_burst_ms);
    if (p.burst_flush_wait_ms > 0) {
      std::printf("; a commit in one waits %.1f ms behind the OS's writes", p.burst_flush_wait_ms);
    }
    std::printf(")\n");
  }
  if (p.stalled_transaction_share >= 0.001) {
    const bool burst = p.burst_flush_wait_ms > 0;
    std::printf(
        "stalls: %.1f %% of the transactions wait %.0f ms behind the OS's writes, once or more "
        "(%s)\n",
        100 * p.stalled_transaction_share,
        burst ? p.burst_flush_wait_ms : p.commit_behind_os_writes_ms,
        burst ? "their commit's WAL flush in a checkpoint's burst"
              : "their WAL write for room in the full write-back cache");
  }
  if (p.fill_s > 0) {
    std::printf("page cache: the first %.0f s at %.1f tps while the OS takes the dirty pages",
                p.fill_s, p.fill_tps);
    if (p.after_fill_tps > 0) {
      std::printf(", then %.1f tps once its dirty limit holds the clients to the disks' pace",
                  p.after_fill_tps);
    }
    std::printf("\n");
  }
  PrintLatencies(p, "statement", s.host.cpu_cores);
}

// The growth answers: the largest data meeting the objective and the scenario at twice
// its data (a scale, or an io workload's file); `rate`: "tps" or "requests/s".
void PrintDataHeadroom(const Headroom& h, const Scenario& s, const char* rate) {
  const bool file = h.data_key == "workload.file_size";
  const char* what = file ? "file" : "scale";
  if (h.data > 0) {
    const std::string data = file ? FormatBytes(h.data) : std::to_string(h.data);
    std::printf("  largest %s: %s (%s)\n", what, data.c_str(), h.data_limit.c_str());
  } else {
    std::printf("  largest %s: none (not even %s: %s)\n", what, file ? "1 MiB" : "scale 1",
                h.data_limit.c_str());
  }
  if (h.have_double_data) {
    const std::string twice = file ? "file " + FormatBytes(2 * s.workload.file_size_bytes)
                                   : "scale " + std::to_string(2 * s.workload.scale);
    std::printf("  at 2x data (%s): %.1f %s, p95 %.2f ms\n", twice.c_str(), h.at_double_data.tps,
                rate, h.at_double_data.transaction_percentiles.p95_ms);
  }
}

void PrintHeadroom(const std::map<std::string, std::string>& settings, const Slo& slo,
                   const Headroom& h, const Scenario& s) {
  std::string name;
  for (const auto& [k, v] : settings) name += (name.empty() ? "" : " ") + k + "=" + v;
  if (name.empty()) name = s.name;
  const char* rate = s.workload.type == WorkloadKind::kIo ? "requests/s" : "tps";
  std::printf("%s: %s %s (%.1f %s, p95 %.2f ms", name.c_str(), slo.text.c_str(),
              h.meets ? "met" : "missed", h.at_base.tps, rate,
              h.at_base.transaction_percentiles.p95_ms);
  std::printf(", margin %+.0f %%)\n", 100 * h.margin);
  const char* clients_what = slo.metric == "tps" ? "fewest clients reaching it" : "most clients";
  if (h.clients > 0) {
    std::printf("  %s: %d (%s)\n", clients_what, h.clients, h.clients_limit.c_str());
  } else {
    std::printf("  %s: none (%s)\n", clients_what, h.clients_limit.c_str());
  }
  PrintDataHeadroom(h, s, rate);
}

class PredictCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--scenario", scenario_path_, "Scenario TOML file")->required();
    app->add_option("--set", sets_, "Override key=value (repeatable)");
    app->add_option("--sweep", sweeps_, "Sweep key=v1,v2,... (repeatable: cartesian product)");
    app->add_option("--out", out_, "Write results JSON (kind predict) here");
    app->add_flag("--force", force_, "Replace an existing --out file");
    app->add_option("--shard", shard_text_,
                    "Only the i-th of n equal runs of the sweep's points (i/n; join with merge)");
    app->add_option("--slo", slo_text_,
                    "Objective, e.g. p95<50ms or tps>=500: per configuration, the most "
                    "clients and the largest scale that meet it");
  }

  int Run() override {
    if (!out_.empty()) {
      Status s = CheckOutputPath("--out", out_, {scenario_path_}, force_);
      if (!s.ok()) return ReportError("predict", s);
    }
    auto scenario = sweeps_.empty() ? LoadScenario(scenario_path_, sets_)
                                    : LoadSweepBase(scenario_path_, sets_, sweeps_);
    if (!scenario.ok()) return ReportError("predict", scenario.status());
    if (!shard_text_.empty()) {
      auto shard = ParseShard(shard_text_);
      if (!shard.ok()) return ReportError("predict", shard.status());
      if (sweeps_.empty()) return ReportError("predict", Status::Error("--shard needs --sweep"));
      shard_ = *shard;
    }
    if (!slo_text_.empty()) {
      auto slo = ParseSlo(slo_text_);
      if (!slo.ok()) return ReportError("predict", slo.status());
      slo_ = *slo;
    }
    if (!sweeps_.empty()) {
      WarnIgnoredKeys(*scenario, ScenarioModel::kPredict);
      return RunSweep(*scenario);
    }
    auto prediction = Predict(*scenario);
    if (!prediction.ok()) return ReportError("predict", prediction.status());
    WarnIgnoredKeys(*scenario, ScenarioModel::kPredict);
    PrintPrediction(*scenario, *prediction);
    Results results = PredictionToResults(*scenario, *prediction);
    if (slo_) {
      auto h = FindHeadroom(*scenario, *slo_);
      if (!h.ok()) return ReportError("predict", h.status());
      PrintHeadroom({}, *slo_, *h, *scenario);
      results.sections["slo"] =
          SloSectionJson(*slo_, nlohmann::json::array({HeadroomToJson({}, *slo_, *h)}));
    }
    if (out_.empty()) return 0;
    Status st = SaveResults(out_, results);
    if (!st.ok()) return ReportError("predict", st);
    std::printf("wrote %s\n", out_.c_str());
    return 0;
  }

 private:
  int RunSweep(const Scenario& base) {
    auto table = RunSweepTable(base, sweeps_, shard_);
    if (!table.ok()) return ReportError("predict", table.status());
    std::cout << FormatSweepTable(*table);
    if (out_.empty() && !slo_) return 0;
    // The headline is the base scenario's (no sweep override); if the base itself
    // cannot be predicted, the first valid point stands in for it.
    Prediction current;
    auto base_prediction = Predict(base);
    if (base_prediction.ok()) {
      current = *base_prediction;
    } else {
      for (const SweepPoint& p : table->points) {
        if (!p.ok) continue;
        current = p.prediction;
        break;
      }
    }
    Results results = SweepPredictionToResults(base, current, *table);
    if (slo_) {
      auto section = SloOverConfigurations(base, table->spec);
      if (!section.ok()) return ReportError("predict", section.status());
      results.sections["slo"] = *section;
    }
    if (out_.empty()) return 0;
    Status st = SaveResults(out_, results);
    if (!st.ok()) return ReportError("predict", st);
    std::printf("wrote %s\n", out_.c_str());
    return 0;
  }

  // The objective over each configuration: every combination of the sweep's choice
  // keys (workload keys are what the search varies), in this shard's share.
  StatusOr<nlohmann::json> SloOverConfigurations(const Scenario& base, const SweepSpec& sweep) {
    SweepSpec choices;
    for (size_t k = 0; k < sweep.keys.size(); ++k) {
      if (ScenarioKeyRole(sweep.keys[k]) != KeyRole::kChoice) continue;
      choices.keys.push_back(sweep.keys[k]);
      choices.values.push_back(sweep.values[k]);
    }
    const size_t count = choices.keys.empty() ? 1 : choices.PointCount();
    const auto [first, last] = ShardRange(count, shard_);
    nlohmann::json configurations = nlohmann::json::array();
    for (size_t i = first; i < last; ++i) {
      std::map<std::string, std::string> settings;
      std::vector<std::string> values;
      if (!choices.keys.empty()) values = choices.PointValues(i);
      for (size_t k = 0; k < values.size(); ++k) settings[choices.keys[k]] = values[k];
      // In the results, the keys and values as the sweep rows carry them.
      const nlohmann::json named = SweepSettingsJson(choices, values);
      auto s = ApplySweepPoint(base, choices, values);
      if (!s.ok()) {
        configurations.push_back({{"settings", named}, {"error", s.status().message()}});
        continue;
      }
      auto h = FindHeadroom(*s, *slo_);
      if (!h.ok()) {
        configurations.push_back({{"settings", named}, {"error", h.status().message()}});
        continue;
      }
      PrintHeadroom(settings, *slo_, *h, *s);
      configurations.push_back(HeadroomToJson(named, *slo_, *h));
    }
    return SloSectionJson(*slo_, configurations);
  }

  std::string scenario_path_;
  std::vector<std::string> sets_;
  std::vector<std::string> sweeps_;
  std::string out_;
  bool force_ = false;
  std::string shard_text_, slo_text_;
  Shard shard_;
  std::optional<Slo> slo_;
};

PGSTORSIM_REGISTER_COMMAND(PredictCommand, "predict",
                           "Predict tps and statement latencies with the analytic model");

}  // namespace
}  // namespace pgstorsim
