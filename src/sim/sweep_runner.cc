#include "sim/sweep_runner.h"

#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include "common/units.h"
#include "scenario/scenario_results.h"
#include "sim/io_clients.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"

namespace pgstorsim {
namespace sim {
namespace {

nlohmann::json Quantiles(const LatencyHistogram& h) {
  return {{"mean", h.mean_ns() / kNsPerMs},
          {"p50", NsToMs(h.PercentileNs(0.5))},
          {"p95", NsToMs(h.PercentileNs(0.95))},
          {"p99", NsToMs(h.PercentileNs(0.99))}};
}

// One point's row (settings and index filled by the caller).
nlohmann::json SimulatePoint(const Scenario& base, const SweepSpec& spec,
                             const std::vector<std::string>& values, const std::string& base_toml) {
  nlohmann::json row = nlohmann::json::object();
  auto s = ApplySweepPoint(base, spec, values);
  Status st = s.status();
  StatusOr<SimulationOutput> out = Status::Error("");
  if (st.ok()) {
    out = SimulateScenario(*s);
    st = out.status();
  }
  if (!st.ok()) {
    row["error"] = st.message();
    return row;
  }
  const Results& r = out->results;
  const nlohmann::json t = Quantiles(r.transaction_latency);
  row["tps"] = r.tps;
  row["latency_ms"] = t["mean"];
  row["p50_ms"] = t["p50"];
  row["p95_ms"] = t["p95"];
  row["p99_ms"] = t["p99"];
  row["transactions"] = r.transactions;
  row["duration_s"] = r.duration_s;
  nlohmann::json statements = nlohmann::json::object();
  for (const StatementResult& st_result : r.statements) {
    statements[st_result.name] = Quantiles(st_result.latency);
  }
  row["statements_ms"] = statements;
  nlohmann::json devices = nlohmann::json::array();
  if (r.sections.contains("devices")) {
    for (const auto& d : r.sections.at("devices")) {
      devices.push_back(
          {{"name", d.value("name", "")}, {"utilization", d.value("utilization", 0.0)}});
    }
  }
  row["devices"] = devices;
  row["base"] = ScenarioToToml(*s) == base_toml;
  return row;
}

}  // namespace

StatusOr<SweepRun> RunSimulationSweep(const Scenario& base, const SweepSpec& spec,
                                      const Shard& shard, int jobs,
                                      const std::function<void(const nlohmann::json&)>& progress) {
  // Plain variables: the workers' lambda captures them (C++17 lambdas cannot capture
  // structured bindings).
  const std::pair<size_t, size_t> range = ShardRange(spec.PointCount(), shard);
  const size_t first = range.first, last = range.second;
  const std::string base_toml = ScenarioToToml(base);
  std::vector<nlohmann::json> rows(last - first);
  std::atomic<size_t> next{first};
  auto worker = [&] {
    for (size_t i = next++; i < last; i = next++) {
      const std::vector<std::string> values = spec.PointValues(i);
      nlohmann::json row = SimulatePoint(base, spec, values, base_toml);
      row["settings"] = SweepSettingsJson(spec, values);
      row["index"] = i;
      if (progress) progress(row);
      rows[i - first] = std::move(row);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs && static_cast<size_t>(j) < last - first; ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();

  SweepRun run;
  Results& r = run.results;
  r = NewResults("simulate");
  r.label = base.name + " sweep";
  r.config = ScenarioResultsConfig(base);  // The base scenario, as predict's sweep.
  r.config["sweep_keys"] = spec.keys;
  r.config["sweep"] = SweepConfigJson(spec, shard);
  nlohmann::json section = nlohmann::json::array();
  bool have_headline = false;
  for (nlohmann::json& row : rows) {
    if (row.contains("error")) {
      ++run.refused;
    } else if (!have_headline || row.value("base", false)) {
      // The summary is the base point's when the sweep has it, else the first valid one.
      have_headline = true;
      r.tps = row["tps"].get<double>();
      r.duration_s = row["duration_s"].get<double>();
      r.transactions = row["transactions"].get<uint64_t>();
    }
    section.push_back(std::move(row));
  }
  r.sections["sweep"] = section;
  return run;
}

}  // namespace sim
}  // namespace pgstorsim
