// Options of `pgstorsim run` as typed on the command line (RunOptions) and validated
// into the engine's configuration (RunConfig). Validation is pure and its errors name
// the offending option. Thread safety: values.
#ifndef PGSTORSIM_DRIVER_RUN_OPTIONS_H_
#define PGSTORSIM_DRIVER_RUN_OPTIONS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/status.h"
#include "workload/tpcb.h"

namespace pgstorsim {

enum class CacheMode { kAsIs, kCold, kWarm };

struct RunOptions {
  int clients = 1;
  int threads = 1;
  std::string duration;      // e.g. "60s"; exclusive with transactions.
  int64_t transactions = 0;  // Per client, as pgbench -t; 0 = unset.
  std::string workload = "tpcb-like";
  std::string protocol = "simple";
  std::string warmup = "0s";
  double rate_tps = 0;   // 0 = closed loop.
  std::string progress;  // e.g. "5s"; empty = none.
  uint64_t seed = 1;
  int max_tries = 1;
  std::string cache = "as-is";
  std::string keys_log;
  std::string out;
  bool per_second = false;
  std::string db;
  std::string label;
};

struct RunConfig {
  int clients = 1;
  int threads = 1;
  int64_t duration_ns = 0;              // 0 in transactions mode.
  int64_t transactions_per_client = 0;  // 0 in duration mode.
  WorkloadKind workload = WorkloadKind::kTpcbLike;
  bool prepared = false;
  int64_t warmup_ns = 0;
  double rate_tps = 0;
  int64_t progress_ns = 0;
  uint64_t seed = 1;
  int max_tries = 1;
  CacheMode cache = CacheMode::kAsIs;
  bool per_second = false;
};

// Neither --duration nor --transactions: 60 s. Errors: "--clients must be >= 1", ...
StatusOr<RunConfig> ValidateRunOptions(const RunOptions& options);

const char* CacheModeName(CacheMode mode);
// The config block of the results document.
nlohmann::json RunConfigToJson(const RunConfig& config, int scale);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_RUN_OPTIONS_H_
