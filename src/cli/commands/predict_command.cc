// `pgstorsim predict`: the analytic model for one scenario, or a sweep table.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "common/output_path.h"
#include "model/prediction_results.h"
#include "model/storage_model.h"
#include "model/model_error.h"
#include "model/sweep.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

void PrintPrediction(const Scenario& s, const Prediction& p) {
  std::printf("scenario: %s\n", s.name.c_str());
  std::printf("tps = %.1f (band %.1f .. %.1f), regime %s (cache-full weight %.2f)\n", p.tps,
              p.tps_low, p.tps_high, p.regime.c_str(), p.cache_full_probability);
  std::printf("band: model error +-%.1f %% (covers %.0f %% of %d leave-one-out validation rows, "
              "class %s), parameters +-%.1f %%, in quadrature\n",
              100 * p.model_error_fraction, 100 * kBandCoverage, p.model_error_rows,
              p.model_error_class.c_str(), 100 * p.parameter_error_fraction);
  std::printf("reads/txn %.3f, read command %.2f ms, destage command %.2f ms\n",
              p.reads_per_transaction, p.read_service_ms, p.destage_service_ms);
  std::printf("statement latencies in milliseconds:\n");
  for (const auto& [name, ms] : p.statement_latency_ms) {
    std::printf("  %10.3f  %s\n", ms, name.c_str());
  }
  for (const DeviceLoad& d : p.devices) {
    std::printf("  %-6s utilisation %.2f (read %.2f, destage %.2f)\n", d.name.c_str(),
                d.utilization, d.read_utilization, d.destage_utilization);
  }
}

class PredictCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--scenario", scenario_path_, "Scenario TOML file")->required();
    app->add_option("--set", sets_, "Override key=value (repeatable)");
    app->add_option("--sweep", sweeps_, "Sweep key=v1,v2,... (repeatable: cartesian product)");
    app->add_option("--out", out_, "Write results JSON (kind predict) here");
    app->add_flag("--force", force_, "Replace an existing --out file");
  }

  int Run() override {
    if (!out_.empty()) {
      Status s = CheckOutputPath("--out", out_, {scenario_path_}, force_);
      if (!s.ok()) return ReportError("predict", s);
    }
    auto scenario = LoadScenario(scenario_path_, sets_);
    if (!scenario.ok()) return ReportError("predict", scenario.status());
    if (!sweeps_.empty()) return RunSweep(*scenario);
    auto prediction = Predict(*scenario);
    if (!prediction.ok()) return ReportError("predict", prediction.status());
    PrintPrediction(*scenario, *prediction);
    if (out_.empty()) return 0;
    Status st = SaveResults(out_, PredictionToResults(*scenario, *prediction));
    if (!st.ok()) return ReportError("predict", st);
    std::printf("wrote %s\n", out_.c_str());
    return 0;
  }

 private:
  int RunSweep(const Scenario& base) {
    auto table = RunSweepTable(base, sweeps_);
    if (!table.ok()) return ReportError("predict", table.status());
    std::cout << FormatSweepTable(*table);
    if (out_.empty()) return 0;
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
    Status st = SaveResults(out_, SweepPredictionToResults(base, current, *table));
    if (!st.ok()) return ReportError("predict", st);
    std::printf("wrote %s\n", out_.c_str());
    return 0;
  }

  std::string scenario_path_;
  std::vector<std::string> sets_;
  std::vector<std::string> sweeps_;
  std::string out_;
  bool force_ = false;
};

PGSTORSIM_REGISTER_COMMAND(PredictCommand, "predict",
                           "Predict tps and statement latencies with the analytic model");

}  // namespace
}  // namespace pgstorsim
