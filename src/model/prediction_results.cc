#include "model/prediction_results.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/units.h"
#include "model/model_error.h"
#include "model/percentiles.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {

namespace {

// A model distribution as a histogram of this many values, one per 1 / n slice of its
// mass (percentiles.h): its p50, p95 and p99 are the model's within half a slice.
constexpr int kValues = 1000;

// The histogram's mean is made the model's `mean_ms` without moving its p50, p95 and
// p99: the top value also carries what the distribution holds beyond the last slice's
// midpoint (rare stalls), or the values above a percentile, down to it, give back
// what the slices' midpoints overstate (those above the p99 first).
LatencyHistogram ModelHistogram(std::vector<double> quantiles_ms, double mean_ms) {
  const size_t n = quantiles_ms.size();
  double rest = mean_ms * n;
  for (double ms : quantiles_ms) rest -= ms;
  if (rest > 0) quantiles_ms.back() += rest;
  size_t top = n;  // Values at and above `top` are settled.
  for (double q : {0.99, 0.95, 0.50}) {
    const size_t floor = static_cast<size_t>(std::ceil(q * n)) - 1;  // The percentile's value.
    for (size_t i = top - 1; rest < 0 && i > floor; --i) {
      const double cut = std::min(-rest, quantiles_ms[i] - quantiles_ms[floor]);
      quantiles_ms[i] -= cut;
      rest += cut;
    }
    top = floor;
  }
  LatencyHistogram h;
  for (double ms : quantiles_ms) h.Record(MsToNs(ms));
  return h;
}

// Without a distribution (a prediction made without its percentiles): the mean alone.
LatencyHistogram MeanOnly(double ms) {
  LatencyHistogram h;
  h.Record(MsToNs(ms));
  return h;
}

// The transaction's (io: the request's, a mixture of its kinds) distribution.
LatencyHistogram TransactionHistogram(const Prediction& p) {
  if (p.statement_shapes.empty()) return MeanOnly(p.transaction_latency_ms);
  if (p.statement_shares.empty()) {
    return ModelHistogram(TransactionQuantiles(p.statement_shapes, kValues),
                          p.transaction_latency_ms);
  }
  return ModelHistogram(MixtureQuantiles(RequestMix(p), kValues), p.transaction_latency_ms);
}

}  // namespace

nlohmann::json PredictionToJson(const Prediction& p) {
  nlohmann::json devices = nlohmann::json::array();
  for (const DeviceLoad& d : p.devices) {
    devices.push_back({{"name", d.name},
                       {"utilization", d.utilization},
                       {"read_utilization", d.read_utilization},
                       {"destage_utilization", d.destage_utilization}});
  }
  auto percentiles = [](const LatencyPercentiles& q) {
    return nlohmann::json{{"p50", q.p50_ms}, {"p95", q.p95_ms}, {"p99", q.p99_ms}};
  };
  nlohmann::json statement_percentiles = nlohmann::json::object();
  for (const auto& [name, q] : p.statement_percentiles) {
    statement_percentiles[name] = percentiles(q);
  }
  return {{"tps", p.tps},
          {"tps_low", p.tps_low},
          {"tps_high", p.tps_high},
          // The band and what it is made of (docs/model.md, "Bands from model error").
          {"band",
           {{"tps_low", p.tps_low},
            {"tps_high", p.tps_high},
            {"coverage_fraction", kBandCoverage},
            {"parameter_error_fraction", p.parameter_error_fraction},
            {"model_error_fraction", p.model_error_fraction},
            {"model_error_class", p.model_error_class},
            {"model_error_validation_rows", p.model_error_rows}}},
          {"statement_latency_ms", p.statement_latency_ms},
          {"transaction_latency_ms", p.transaction_latency_ms},
          {"statement_percentiles_ms", statement_percentiles},
          {"transaction_percentiles_ms", percentiles(p.transaction_percentiles)},
          {"regime", p.regime},
          {"cache_full_probability", p.cache_full_probability},
          {"reads_per_transaction", p.reads_per_transaction},
          {"writes_per_transaction", p.writes_per_transaction},
          {"read_service_ms", p.read_service_ms},
          {"destage_service_ms", p.destage_service_ms},
          {"end_wal_flush_ms", p.wal_flush_ms},
          {"end_wal_flush_wait_ms", p.wal_flush_wait_ms},
          {"end_checkpoint_stall_ms", p.checkpoint_stall_ms},
          {"checkpoint_burst_ms", p.checkpoint_burst_ms},
          {"checkpoint_burst_flush_wait_ms", p.burst_flush_wait_ms},
          {"commit_behind_os_writes_ms", p.commit_behind_os_writes_ms},
          {"stalled_transaction_share", p.stalled_transaction_share},
          {"page_cache_fill_s", p.fill_s},
          {"page_cache_fill_tps", p.fill_tps},
          {"after_page_cache_fill_tps", p.after_fill_tps},
          {"io_bytes_per_s", p.bytes_per_s},
          {"file_lock_utilization", p.file_lock_utilization},
          {"devices", devices}};
}

Results PredictionToResults(const Scenario& s, const Prediction& p) {
  Results r = NewResults("predict");
  r.label = s.name;
  r.config = ScenarioResultsConfig(s);
  r.tps = p.tps;
  // pgbench -t: every client runs workload.transactions; the run lasts what they take.
  const double all = static_cast<double>(s.workload.transactions) * s.workload.clients;
  r.duration_s = all > 0 && p.tps > 0 ? all / p.tps : NsToSec(s.workload.duration_ns);
  r.transactions =
      all > 0 ? static_cast<uint64_t>(all) : static_cast<uint64_t>(p.tps * r.duration_s);
  r.transaction_latency = TransactionHistogram(p);
  const auto& shapes = p.statement_shapes;
  for (const auto& [name, ms] : p.statement_latency_ms) {
    StatementResult st;
    st.name = name;
    auto shape = shapes.find(name);
    st.latency = shape == shapes.end()
                     ? MeanOnly(ms)
                     : ModelHistogram(StatementQuantiles(shape->second, kValues), ms);
    r.statements.push_back(std::move(st));
  }
  r.sections["prediction"] = PredictionToJson(p);
  return r;
}

nlohmann::json SweepRowsToJson(const Scenario& base, const SweepTable& table) {
  const std::string base_toml = ScenarioToToml(base);
  nlohmann::json rows = nlohmann::json::array();
  for (const SweepPoint& p : table.points) {
    Scenario s = base;
    bool applied = true;
    for (size_t k = 0; k < table.keys.size() && k < p.values.size(); ++k) {
      applied = applied && SetScenarioKey(&s, table.keys[k], p.values[k]).ok();
    }
    nlohmann::json row = {{"settings", SweepSettingsJson(table.spec, p.values)},
                          {"index", p.index}};
    if (!p.ok) {
      row["error"] = p.error;
      rows.push_back(row);
      continue;
    }
    row["tps"] = p.prediction.tps;
    row["tps_low"] = p.prediction.tps_low;
    row["tps_high"] = p.prediction.tps_high;
    row["latency_ms"] = p.prediction.transaction_latency_ms;
    row["p95_ms"] = p.prediction.transaction_percentiles.p95_ms;
    row["regime"] = p.prediction.regime;
    row["base"] = applied && ScenarioToToml(s) == base_toml;
    rows.push_back(row);
  }
  return rows;
}

Results SweepPredictionToResults(const Scenario& base, const Prediction& current,
                                 const SweepTable& table) {
  Results r = PredictionToResults(base, current);
  r.label = base.name + " sweep";
  r.config["sweep_keys"] = table.keys;
  r.config["sweep"] = SweepConfigJson(table.spec, table.shard);
  r.sections["sweep"] = SweepRowsToJson(base, table);
  return r;
}

nlohmann::json HeadroomToJson(const nlohmann::json& settings, const Slo& slo, const Headroom& h) {
  nlohmann::json j = {{"settings", settings},
                      {"tps", h.at_base.tps},
                      {"p95_ms", h.at_base.transaction_percentiles.p95_ms},
                      {"value", slo.Value(h.at_base)},
                      {"meets", h.meets},
                      {"margin", h.margin},
                      {"clients", h.clients},
                      {"clients_limit", h.clients_limit}};
  // The data's keys: "scale", or an io workload's "file_size_bytes"; "at_double_scale"
  // or "at_double_file_size".
  const bool file = h.data_key == "workload.file_size";
  const std::string data = file ? "file_size" : "scale";
  j[file ? "file_size_bytes" : "scale"] = h.data;
  j[data + "_limit"] = h.data_limit;
  if (h.have_double_data) {
    j["tps_at_double_" + data] = h.at_double_data.tps;
    j["p95_ms_at_double_" + data] = h.at_double_data.transaction_percentiles.p95_ms;
    j["value_at_double_" + data] = slo.Value(h.at_double_data);
  }
  return j;
}

nlohmann::json SloSectionJson(const Slo& slo, const nlohmann::json& configurations) {
  int met = 0;
  for (const auto& c : configurations) met += c.value("meets", false) ? 1 : 0;
  return {{"objective", slo.text},
          {"metric", slo.metric},
          {"limit", slo.limit},
          {"at_most", slo.at_most},
          {"configurations", configurations},
          {"met_by", met}};
}

}  // namespace pgstorsim
