// `pgstorsim simulate`: runs the discrete-event simulator on a scenario and writes a
// "simulate" results document; prints a pgbench-like summary with the -r block.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/key_warnings.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/units.h"
#include "scenario/key_coverage.h"
#include "scenario/scenario.h"
#include "scenario/sweep_spec.h"
#include "sim/io_clients.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"
#include "sim/sweep_runner.h"

namespace pgstorsim {
namespace sim {
namespace {

void PrintSummary(const Results& r, const nlohmann::json& devices) {
  std::printf("simulated transactions: %llu in %.1f s\n",
              static_cast<unsigned long long>(r.transactions), r.duration_s);
  std::printf("latency average = %.3f ms, p50 = %.3f ms, p95 = %.3f ms, p99 = %.3f ms\n",
              r.transaction_latency.mean_ns() / kNsPerMs,
              NsToMs(r.transaction_latency.PercentileNs(0.5)),
              NsToMs(r.transaction_latency.PercentileNs(0.95)),
              NsToMs(r.transaction_latency.PercentileNs(0.99)));
  std::printf("tps = %.6f (simulated)\n", r.tps);
  std::printf("statement latencies in milliseconds (mean, p50, p95, p99):\n");
  for (const StatementResult& s : r.statements) {
    std::printf("  %12.6f %10.3f %10.3f %10.3f  %s\n", s.latency.mean_ns() / kNsPerMs,
                NsToMs(s.latency.PercentileNs(0.5)), NsToMs(s.latency.PercentileNs(0.95)),
                NsToMs(s.latency.PercentileNs(0.99)), s.name.c_str());
  }
  for (const auto& d : devices) {
    std::printf("  %-6s util %5.1f %%  reads %llu  writes %llu  mean response %.3f ms\n",
                d["name"].get<std::string>().c_str(), 100 * d["utilization"].get<double>(),
                d["reads"].get<unsigned long long>(), d["writes"].get<unsigned long long>(),
                d["mean_response_ms"].get<double>());
  }
}

class SimulateCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--scenario", scenario_path_, "Scenario TOML file (default: built-in)");
    app->add_option("--set", overrides_, "Override a scenario key: key=value (repeatable)");
    app->add_option("--seed", seed_, "Random seed (workload.seed)");
    app->add_option("--duration", duration_, "Simulated duration (workload.duration)")
        ->check(DurationValidator());
    app->add_option("--transactions", transactions_,
                    "Transactions per client instead of a duration (workload.transactions)");
    app->add_option("--out", out_, "Results file (default: results/runs/simulate-<utc>.json)");
    app->add_flag("--quiet", quiet_, "Print only the results path");
    app->add_flag("--force", force_, "Replace an existing --out file");
    app->add_option("--sweep", sweeps_,
                    "Sweep key=v1,v2,... (repeatable: cartesian product; as predict)");
    app->add_option("--jobs", jobs_, "Sweep points simulated at once (threads)")
        ->check(Between(1, 256));
    app->add_option("--shard", shard_text_,
                    "Only the i-th of n equal runs of the sweep's points (i/n; join with merge)");
  }

  int Run() override {
    if (!out_.empty()) {
      Status s = CheckOutputPath("--out", out_, {scenario_path_}, force_);
      if (!s.ok()) return ReportError("simulate", s);
    }
    std::vector<std::string> overrides = overrides_;
    if (!seed_.empty()) overrides.push_back("workload.seed=" + seed_);
    if (!duration_.empty()) overrides.push_back("workload.duration=" + duration_);
    if (!transactions_.empty()) overrides.push_back("workload.transactions=" + transactions_);
    StatusOr<Scenario> scenario =
        !sweeps_.empty()         ? LoadSweepBase(scenario_path_, overrides, sweeps_)
        : scenario_path_.empty() ? DefaultScenario(overrides)
                                 : LoadScenario(scenario_path_, overrides);
    if (!scenario.ok()) return ReportError("simulate", scenario.status());
    if (!sweeps_.empty()) {
      WarnIgnoredKeys(*scenario, ScenarioModel::kSimulate);
      return RunSweep(*scenario);
    }
    if (!shard_text_.empty())
      return ReportError("simulate", Status::Error("--shard needs --sweep"));
    const auto wall_start = std::chrono::steady_clock::now();
    StatusOr<SimulationOutput> out = SimulateScenario(*scenario);
    if (!out.ok()) return ReportError("simulate", out.status());
    WarnIgnoredKeys(*scenario, ScenarioModel::kSimulate);
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    Results& results = out.value().results;
    if (results.transactions == 0) {
      return ReportError("simulate",
                         "no transaction completed in the simulated " +
                             FormatDurationNs(SecToNs(results.duration_s)) + " with " +
                             std::to_string(scenario->workload.clients) +
                             " clients, so there are no latencies to report; simulate longer "
                             "(--duration) or with fewer clients (--set workload.clients=N)");
    }
    if (results.transactions < static_cast<uint64_t>(scenario->workload.clients)) {
      std::fprintf(stderr,
                   "pgstorsim simulate: warning: only %llu transactions completed for %d "
                   "clients; latencies and tps are not steady-state figures\n",
                   static_cast<unsigned long long>(results.transactions),
                   scenario->workload.clients);
      results.flags.push_back("few-transactions");
    }
    results.label = scenario->name;
    const std::string path = out_.empty() ? DefaultResultsPath("simulate") : out_;
    Status saved = SaveResults(path, results);
    if (!saved.ok()) return ReportError("simulate", saved);
    if (!quiet_) {
      std::printf("scenario: %s  seed: %llu\n", scenario->name.c_str(),
                  static_cast<unsigned long long>(scenario->workload.seed));
      PrintSummary(results, results.sections["devices"]);
      std::printf("simulation: %llu events, %llu disk ops in %.2f s wall (%.0f disk ops/s)\n",
                  static_cast<unsigned long long>(out->events),
                  static_cast<unsigned long long>(out->disk_ops), wall_s,
                  wall_s > 0 ? out->disk_ops / wall_s : 0.0);
    }
    std::printf("results: %s\n", path.c_str());
    return 0;
  }

 private:
  int RunSweep(const Scenario& base) {
    auto spec = ParseSweepSpec(base, sweeps_);
    if (!spec.ok()) return ReportError("simulate", spec.status());
    Shard shard;
    if (!shard_text_.empty()) {
      auto parsed = ParseShard(shard_text_);
      if (!parsed.ok()) return ReportError("simulate", parsed.status());
      shard = *parsed;
    }
    const std::string path = out_.empty() ? DefaultResultsPath("simulate") : out_;
    std::mutex print_mu;
    auto progress = [&](const nlohmann::json& row) {
      if (quiet_) return;
      std::lock_guard<std::mutex> lock(print_mu);
      const size_t index = row["index"].get<size_t>();
      std::string line = std::to_string(index);
      for (const std::string& value : spec->PointValues(index)) line += "\t" + value;
      char buf[160];
      if (row.contains("error")) {
        std::printf("%s\trefused: %s\n", line.c_str(), row["error"].get<std::string>().c_str());
      } else {
        std::snprintf(buf, sizeof buf, "\t%.1f tps\tp95 %.2f ms\tp99 %.2f ms",
                      row["tps"].get<double>(), row["p95_ms"].get<double>(),
                      row["p99_ms"].get<double>());
        std::printf("%s%s\n", line.c_str(), buf);
      }
      std::fflush(stdout);
    };
    auto run = RunSimulationSweep(base, *spec, shard, jobs_, progress);
    if (!run.ok()) return ReportError("simulate", run.status());
    Status saved = SaveResults(path, run->results);
    if (!saved.ok()) return ReportError("simulate", saved);
    std::printf("results: %s\n", path.c_str());
    return 0;
  }

  std::string scenario_path_;
  std::vector<std::string> overrides_;
  std::string seed_, duration_, transactions_, out_;
  bool quiet_ = false, force_ = false;
  std::vector<std::string> sweeps_;
  int jobs_ = 1;
  std::string shard_text_;
};

PGSTORSIM_REGISTER_COMMAND(SimulateCommand, "simulate",
                           "Discrete-event simulation of a scenario (tps, latency, utilisation)");

}  // namespace
}  // namespace sim
}  // namespace pgstorsim
