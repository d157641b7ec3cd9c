// Options of `pgstorsim run` as typed on the command line (RunOptions) and validated
// into the engine's configuration (RunConfig). Validation reads the -f script files and
// nothing else; its errors name the offending option (or script file and line).
// Thread safety: values.
#ifndef PGSTORSIM_DRIVER_RUN_OPTIONS_H_
#define PGSTORSIM_DRIVER_RUN_OPTIONS_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "driver/script_mix.h"
#include "pg/conninfo.h"
#include "workload/tpcb.h"

namespace pgstorsim {

enum class CacheMode { kAsIs, kCold, kWarm };

struct RunOptions {
  int clients = 1;
  int threads = 1;
  std::string duration;      // e.g. "60s"; exclusive with transactions.
  int64_t transactions = 0;  // Per client, as pgbench -t; 0 = unset.
  std::string workload = "tpcb-like";  // Default builtin when no -b/-f/-S/-N.
  std::vector<std::string> builtins;   // -b NAME[@W]
  std::vector<std::string> files;      // -f FILE[@W]
  bool select_only = false;            // -S: -b select-only
  bool simple_update = false;          // -N: -b simple-update
  bool no_vacuum = false;              // -n
  bool log = false;                    // -l
  std::string log_prefix = "pgbench_log";
  int aggregate_interval_s = 0;        // --aggregate-interval
  std::string start_at;                // --start-at: wall-clock time the run starts
  std::string cold_command;            // --cold-command
  bool create_extension = false;       // --create-extension (pg_prewarm, pg_buffercache)
  int scale = 0;                       // -s: :scale of custom scripts (0 = unset)
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
  ServerFlags server;  // --db, -h, -p, -U, -d / positional database name.
  std::string label;
  bool force = false;  // --force: --out / --keys-log may replace an existing file.
  std::string max_reconnect_wait = "30s";
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
  std::shared_ptr<const ScriptMix> mix;  // Never null after validation; see Mix().
  bool vacuum = true;                    // pgbench's pre-run vacuum and history truncation.
  bool log = false;
  std::string log_prefix = "pgbench_log";
  int aggregate_interval_s = 0;
  int64_t start_at_unix_ns = 0;  // 0 = start at once.
  std::string cold_command;
  bool create_extension = false;
  // A client that has had no successful connection for this long ends the run
  // (EngineOutput::server_lost).
  int64_t max_reconnect_wait_ns = 30 * int64_t{1000000000};

  // The scripts: `mix`, or the builtin script of `workload` alone when mix is unset.
  const ScriptMix& Mix() const;
};

// Neither --duration nor --transactions: 60 s. Errors name the option and the allowed
// values in words: "--clients must be at least 1 (got 0)", ...
// `now_unix_ns` anchors --start-at (a time of day means its next occurrence).
StatusOr<RunConfig> ValidateRunOptions(const RunOptions& options, int64_t now_unix_ns);

// --start-at: "HH:MM[:SS[.frac]]" (UTC, today or tomorrow, whichever comes first after
// now), "YYYY-MM-DDTHH:MM:SS[.frac][Z]" (UTC), "@<unix seconds>" or "+<duration>"
// (from now). Returns Unix nanoseconds.
StatusOr<int64_t> ParseStartAt(const std::string& text, int64_t now_unix_ns);
// The wall clock (CLOCK_REALTIME) in Unix nanoseconds, and a time as
// "2026-12-01T19:30:00.000Z".
int64_t UnixNowNs();
std::string FormatUnixTime(int64_t unix_ns);

const char* CacheModeName(CacheMode mode);
// The run's own options for the results' config block: threads, warm-up, progress,
// tries, scripts, vacuum, start time, reconnect wait (durations in seconds). The workload
// it ran (clients, scale, seed, rate, duration, protocol, type, cache) is stated once,
// under config.scenario in the scenario vocabulary (cli/run_scenario_keys.h).
nlohmann::json RunConfigToJson(const RunConfig& config);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_RUN_OPTIONS_H_
