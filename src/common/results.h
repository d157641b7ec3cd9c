// Results: the one versioned results document written by run, replay, simulate and
// predict, and read by calibrate and report.
//
// JSON layout (schema "pgstorsim-results", version 1):
//   {"schema":"pgstorsim-results","version":1,"kind":"run|replay|simulate|predict|calibrate",
//    "tool_version":"..","created_utc":"..","label":"..","complete":true,"flags":[..],
//    "config":{..},"environment":{..},
//    "summary":{"transactions":N,"failed":N,"retried":N,"duration_s":x,"tps":x,
//               "latency_ms":{"mean":..,"stddev":..,"p50":..,"p95":..,"p99":..,"max":..}},
//    "transaction_latency":<histogram>,
//    "statements":[{"name":"UPDATE accounts","sql":"..","failures":N,"latency":<histogram>}],
//    "series":[{"t_s":1.0,"transactions":N,"tps":x,"mean_latency_ms":x}],
//    "sections":{..kind-specific: server statistics, devices, predictions..}}
// Histograms are LatencyHistogram JSON, so results from shards merge exactly.
// Latencies inside are nanoseconds (histograms) or milliseconds where the key says _ms.
// Thread safety: plain value type.
#ifndef PGSTORSIM_COMMON_RESULTS_H_
#define PGSTORSIM_COMMON_RESULTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/histogram.h"
#include "common/status.h"

namespace pgstorsim {

inline constexpr const char* kResultsSchema = "pgstorsim-results";
inline constexpr int kResultsVersion = 1;

struct StatementResult {
  std::string name;  // Short label, e.g. "UPDATE accounts", "END".
  std::string sql;   // Statement text as run (or modelled); may be empty.
  uint64_t failures = 0;
  LatencyHistogram latency;
};

struct IntervalSample {
  double t_s = 0;  // End of the interval, seconds since the measured start.
  uint64_t transactions = 0;
  double tps = 0;
  double mean_latency_ms = 0;
};

struct Results {
  std::string kind;  // "run", "replay", "simulate", "predict", "calibrate".
  std::string label;
  std::string created_utc;  // ISO 8601; filled by NewResults().
  bool complete = true;
  std::vector<std::string> flags;  // e.g. "interrupted", "server-restarted".
  nlohmann::json config = nlohmann::json::object();
  nlohmann::json environment = nlohmann::json::object();
  uint64_t transactions = 0;
  uint64_t failed = 0;
  uint64_t retried = 0;
  double duration_s = 0;
  double tps = 0;
  LatencyHistogram transaction_latency;
  std::vector<StatementResult> statements;
  std::vector<IntervalSample> series;
  nlohmann::json sections = nlohmann::json::object();

  nlohmann::json ToJson() const;
  static StatusOr<Results> FromJson(const nlohmann::json& j);
  // Adds another shard of the same experiment: counts and histograms add, statements
  // are matched by name, tps adds (shards run concurrently), duration is the maximum.
  void Merge(const Results& other);
};

// A Results of `kind` stamped with the current UTC time.
Results NewResults(const std::string& kind);
// Loads and validates a results file; errors name the file.
StatusOr<Results> LoadResults(const std::string& path);
Status SaveResults(const std::string& path, const Results& results);
// results/runs/<kind>-<UTC time to the microsecond>Z-<pid>[-<n>].json under the current
// directory; a name already taken gets the next n, so default names never collide.
std::string DefaultResultsPath(const std::string& kind);

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_RESULTS_H_
