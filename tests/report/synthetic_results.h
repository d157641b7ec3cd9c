// Test helper: synthetic results shaped like the ServeRAID M5110e field data
// (serveraid-m5110e-stripe-benchmarks.txt of the shared field data): warm pgbench, 10 clients,
// 32 KB stripe 254 tps vs 1 MB stripe 626 tps, UPDATE accounts and END dominating.
#ifndef PGSTORSIM_TESTS_REPORT_SYNTHETIC_RESULTS_H_
#define PGSTORSIM_TESTS_REPORT_SYNTHETIC_RESULTS_H_

#include <string>

#include "common/results.h"
#include "common/units.h"

namespace pgstorsim {
namespace testing_report {

inline StatementResult Statement(const std::string& name, double mean_ms, int n) {
  StatementResult s;
  s.name = name;
  for (int i = 0; i < n; ++i) s.latency.Record(MsToNs(mean_ms));
  return s;
}

inline nlohmann::json StripeConfig(int64_t stripe_bytes, int clients) {
  return {{"clients", clients},
          {"scale", 2000},
          {"array", {{"level", "raid10"}, {"stripe_bytes", stripe_bytes}}},
          {"controller", {{"write_cache", "write-back"}}}};
}

// A measured run with the given stripe and latencies; series climbs when `cold`.
inline Results MeasuredRun(const std::string& label, int64_t stripe_bytes, double tps,
                           double update_ms, double end_ms, int clients = 10, bool cold = false) {
  Results r = NewResults("run");
  r.label = label;
  r.config = StripeConfig(stripe_bytes, clients);
  r.duration_s = 900;
  r.tps = tps;
  r.transactions = static_cast<uint64_t>(tps * 900);
  r.statements = {Statement("UPDATE accounts", update_ms, 50),
                  Statement("SELECT abalance", 0.11, 50), Statement("END", end_ms, 50)};
  for (int i = 0; i < 50; ++i) r.transaction_latency.Record(MsToNs(update_ms + end_ms + 0.5));
  for (int t = 1; t <= 10; ++t) {
    double v = cold ? tps * t / 10.0 : tps;
    r.series.push_back({t * 90.0, static_cast<uint64_t>(v * 90), v, 1000.0 * clients / v});
  }
  r.sections["devices"] = nlohmann::json::array(
      {{{"name", "disk0"}, {"utilisation", 0.93}}, {{"name", "disk1"}, {"utilisation", 0.88}}});
  r.sections["server_stats"] = {{"unknown_to_report", true}};  // Must be tolerated.
  return r;
}

// A calibrated prediction for a stripe size, with a band and a stripe sweep.
inline Results Prediction(const std::string& label, int64_t stripe_bytes, double tps, double low,
                          double high) {
  Results r = NewResults("predict");
  r.label = label;
  r.config = StripeConfig(stripe_bytes, 10);
  r.tps = tps;
  r.sections["prediction"] = {{"tps", tps}, {"tps_low", low}, {"tps_high", high}};
  return r;
}

inline Results PredictionWithSweep() {
  Results r = Prediction("predict 32k sweep", 32768, 250, 235, 265);
  r.sections["sweep"] = nlohmann::json::array(
      {{{"settings", {{"array.stripe_bytes", 65536}}}, {"tps", 300}, {"latency_ms", 33.3}},
       {{"settings", {{"array.stripe_bytes", 1048576}}},
        {"tps", 625},
        {"latency_ms", 16.0},
        {"tps_low", 600},
        {"tps_high", 650}},
       {{"settings", {{"array.stripe_bytes", 131072}}}, {"tps", 410}, {"latency_ms", 24.4}},
       // The scenario's own configuration: listed last, found by "base".
       {{"settings", {{"array.stripe_bytes", 32768}}}, {"tps", 250}, {"base", true}}});
  return r;
}

// A replay of a captured trace on a file: a different kind from a run, no conditions.
inline Results ReplayOfTrace(const std::string& label, double tps) {
  Results r = NewResults("replay");
  r.label = label;
  r.config = {{"array", ""}, {"direct", true}, {"engine", "psync"},
              {"seed", 1},   {"workers", 4},   {"target", "data.img"}};
  r.duration_s = 10;
  r.tps = tps;
  r.transactions = static_cast<uint64_t>(tps * 10);
  return r;
}

}  // namespace testing_report
}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_REPORT_SYNTHETIC_RESULTS_H_
