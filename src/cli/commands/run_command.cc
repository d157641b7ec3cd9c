// `pgstorsim run`: the live TPC-B driver. Prepares the cache, samples server
// statistics, runs the engine (engine.h), prints a pgbench-style summary and saves a
// "run" results document. SIGINT/SIGTERM stop the run: partial results are saved with
// complete=false and flag "interrupted", and the exit code is 130. This file holds the
// options and the run's steps up to the "after" statistics; the results document and the
// printed summary are built by run_command_results.h.
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/commands/run_command_results.h"
#include "cli/run_scenario_keys.h"
#include "cli/server_flags.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/stop_signal.h"
#include "common/units.h"
#include "driver/cache_check.h"
#include "driver/cache_control.h"
#include "driver/engine.h"
#include "driver/environment.h"
#include "driver/schema.h"
#include "pg/server.h"
#include "pg/server_stats.h"
#include "workload/keys_log.h"

namespace pgstorsim {
namespace {

class RunCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    AddServerFlags(app, &o_.server, &positional_db_);  // pgbench's: -h is the host.
    app->add_option("-c,--clients", o_.clients, "Concurrent clients (one connection each)")
        ->capture_default_str();
    app->add_option("-j,--threads", o_.threads, "Driver threads")->capture_default_str();
    app->add_option("-T,--duration,--time", o_.duration,
                    "Measured duration, e.g. 60s or 60 (seconds; default 60s)");
    app->add_option("-t,--transactions", o_.transactions, "Transactions per client");
    app->add_option("--workload", o_.workload,
                    "Builtin script when no -b/-f/-S/-N: tpcb-like | simple-update | "
                    "select-only")
        ->capture_default_str();
    app->add_option("-b,--builtin", o_.builtins, "Builtin script NAME[@WEIGHT] (repeatable)");
    app->add_option("-f,--file", o_.files, "Custom pgbench script FILE[@WEIGHT] (repeatable)");
    app->add_option("-s,--scale", o_.scale,
                    ":scale in custom scripts (as pgbench: 1 unless given; builtin scripts use "
                    "the tables' scale)");
    app->add_flag("-S,--select-only", o_.select_only, "Same as -b select-only");
    app->add_flag("-N,--skip-some-updates", o_.simple_update, "Same as -b simple-update");
    app->add_flag("-n,--no-vacuum", o_.no_vacuum,
                  "Skip pgbench's pre-run VACUUM of branches/tellers and TRUNCATE of history");
    app->add_option("-M,--protocol", o_.protocol, "simple | prepared")->capture_default_str();
    app->add_flag("-r,--report-per-command", report_per_command_,
                  "Accepted for pgbench compatibility: statement latencies are always shown");
    app->add_option("--warmup", o_.warmup, "Warm-up excluded from statistics, e.g. 30s")
        ->capture_default_str();
    app->add_option("-R,--rate", o_.rate_tps, "Open-loop Poisson arrival rate (tps)");
    app->add_option("-P,--progress", o_.progress, "Progress line every interval, e.g. 5s");
    app->add_option("--seed,--random-seed", o_.seed, "Random seed")->capture_default_str();
    app->add_option("--max-tries", o_.max_tries, "Tries for serialization/deadlock failures")
        ->capture_default_str();
    app->add_option("--cache", o_.cache, "cold | warm | as-is")->capture_default_str();
    app->add_option("--cold-command", o_.cold_command,
                    "Command (sh -c) that empties the caches of a server pgstorsim does not "
                    "manage, e.g. an ssh that restarts it and drops its OS cache");
    app->add_flag("--create-extension", o_.create_extension,
                  "--cache warm may CREATE EXTENSION pg_prewarm, --cache cold|warm "
                  "pg_buffercache, in the database");
    app->add_flag("-l,--log", o_.log, "Per-transaction log in pgbench's format");
    app->add_option("--log-prefix", o_.log_prefix, "Log file prefix")->capture_default_str();
    app->add_option("--aggregate-interval", o_.aggregate_interval_s,
                    "With -l: aggregate the log over this many seconds");
    app->add_option("--start-at", o_.start_at,
                    "Start the clients at this wall-clock time (HH:MM[:SS] UTC, "
                    "YYYY-MM-DDTHH:MM:SSZ, @UNIX or +DURATION), for drivers on several hosts");
    app->add_option("--keys-log", o_.keys_log, "Write the keys of each transaction here");
    app->add_option("--out", o_.out, "Results file (default results/runs/run-<UTC>.json)");
    app->add_flag("--force", o_.force, "--out / --keys-log may replace an existing file");
    app->add_flag("--per-second", o_.per_second, "Report tps for each second");
    app->add_option("--label", o_.label, "Free-text label stored in the results");
    app->add_option("--max-reconnect-wait", o_.max_reconnect_wait,
                    "End the run (exit 3) after this long without a connection (default 30s)");
  }

  int Run() override {
    // Before anything slow (cache preparation restarts the server): a signal from here
    // on stops the run with partial results.
    const std::atomic<bool>* stop = InstallStopSignals();
    if (Status s = ApplyPositionalDbname(positional_db_, &o_.server); !s.ok()) {
      return ReportError("run", s, kExitUsage);
    }
    if (!o_.duration.empty() && o_.duration.find_first_not_of("0123456789") == std::string::npos) {
      o_.duration += "s";  // pgbench's -T takes seconds.
    }
    auto config = ValidateRunOptions(o_, UnixNowNs());
    if (!config.ok()) return ReportError("run", config.status(), kExitUsage);
    const std::string path = o_.out.empty() ? DefaultResultsPath("run") : o_.out;
    Status out_ok = CheckOutputPath("--out", path, InputPaths(), o_.force);
    if (out_ok.ok() && !o_.keys_log.empty()) {
      std::vector<std::string> inputs = InputPaths();
      inputs.back() = path;  // The keys log itself is not an input of its own check.
      out_ok = CheckOutputPath("--keys-log", o_.keys_log, inputs, o_.force);
    }
    if (!out_ok.ok()) return ReportError("run", out_ok);
    auto server = OpenServer(o_.server);
    if (!server.ok()) return ReportError("run", server.status());
    // The embedded cluster's database is pgstorsim's own: pg_prewarm may be created there.
    CacheOptions cache_options{config->cache, config->cold_command,
                               config->create_extension || server->cluster != nullptr};
    Status plan = CheckCachePlan(cache_options, server->cluster != nullptr);
    if (!plan.ok()) return ReportError("run", plan);
    auto conn = Connect(server->conninfo);
    if (!conn.ok()) return ReportError("run", conn.status());
    std::cerr << ServerBanner(*server, conn->get()) << std::endl;
    // pgbench's rule: builtin scripts take the scale from pgbench_branches; custom scripts
    // alone see :scale = -s, else 1.
    auto scale = DetectScale(conn->get());
    if (!scale.ok() && HasBuiltin(*config->mix)) {
      return ReportError("run", scale.status());
    }
    int scale_value = scale.ok() ? *scale : 1;
    if (config->mix->HasCustom() && !HasBuiltin(*config->mix)) {
      scale_value = o_.scale > 0 ? o_.scale : 1;
    } else if (o_.scale > 0 && o_.scale != scale_value) {
      std::cerr << "run: -s " << o_.scale << " ignored, using the scale of pgbench_branches ("
                << scale_value << ")" << std::endl;
    }
    Results r = NewResults("run");
    r.label = o_.label;
    r.config = RunConfigToJson(*config);
    r.config["scenario"] = RunScenarioKeys(*config, scale_value);
    r.environment = DriverEnvironment(conn->get(), server->conninfo, server->source);
    if (config->vacuum && scale.ok()) {
      std::cerr << "starting vacuum...";
      for (const std::string& e : PreRunVacuum(conn->get())) {
        std::cerr << "\n  " << e << " (ignoring this error and continuing anyway)";
      }
      std::cerr << "end." << std::endl;
    }
    conn.value().reset();

    auto cache = PrepareCache(cache_options, server->conninfo, server->cluster.get(),
                              [](const std::string& line) { std::cerr << line << std::endl; });
    if (!cache.ok()) return ReportError("run", cache.status());
    r.sections["cache"] = cache->ToJson();
    // One session reads the statistics before and after the run (idle in between).
    auto stats_conn = Connect(server->conninfo);
    auto before = stats_conn.ok() ? TakeSnapshot(stats_conn->get())
                                  : stats_conn.status().WithContext("server statistics");

    std::unique_ptr<KeysLogWriter> keys_log;
    if (!o_.keys_log.empty()) {
      auto w = OpenKeysLogWriter(o_.keys_log);
      if (!w.ok()) return ReportError("run", w.status());
      keys_log = std::move(w).value();
    }
    EngineInput in;
    in.config = *config;
    in.conninfo = server->conninfo;
    in.scale = scale_value;
    in.keys_log = keys_log.get();
    in.stop = stop;
    in.progress = [](const std::string& line) { std::cerr << line << std::endl; };
    if (config->start_at_unix_ns > 0) {
      std::cerr << "run: clients connect, then start at "
                << FormatUnixTime(config->start_at_unix_ns) << std::endl;
    }
    std::unique_ptr<ColdCheck> cold_check;
    if (config->cache == CacheMode::kCold) {
      cold_check = StartColdCheck(server->conninfo, server->cluster.get(),
                                  cache->has_residency ? &cache->residency : nullptr);
    }
    auto out = RunEngine(in);
    if (keys_log) {
      Status closed = !out.ok()          ? keys_log->CloseAsPartial("the run failed")
                      : out->server_lost ? keys_log->CloseAsPartial("server lost")
                      : out->interrupted ? keys_log->CloseAsPartial("interrupted")
                                         : keys_log->Close();
      if (!closed.ok()) std::cerr << "pgstorsim run: keys log: " << closed.message() << "\n";
    }
    if (cold_check != nullptr) {
      CacheCheck check = cold_check->Finish();
      std::cerr << check.Describe() << std::endl;
      r.sections["cache"]["first_seconds"] = check.ToJson();
      if (check.StartedWarm()) r.flags.push_back("cold-run-started-warm");
    }
    if (!out.ok()) return ReportError("run", out.status());
    for (const std::string& log : out->txn_logs) std::cerr << "transaction log: " << log << "\n";
    // A session the server dropped during the run (restart, outage) is opened again.
    if (!stats_conn.ok() || PQstatus(stats_conn->get()) != CONNECTION_OK ||
        !QueryValue(stats_conn->get(), "SELECT 1").ok()) {
      stats_conn = Connect(server->conninfo);
    }
    if (stats_conn.ok()) WaitForClientSessionsToEnd(stats_conn->get());
    auto after = stats_conn.ok() ? TakeSnapshot(stats_conn->get())
                                 : stats_conn.status().WithContext("server statistics");
    return FinishRun(*config, scale_value, *out, before, after, path, &r);
  }

 private:
  static bool HasBuiltin(const ScriptMix& mix) {
    for (const ScriptEntry& e : mix.entries) {
      if (e.builtin) return true;
    }
    return false;
  }

  // Files the run reads: an output must not replace one of them.
  std::vector<std::string> InputPaths() const {
    std::vector<std::string> inputs;
    for (const std::string& f : o_.files) inputs.push_back(f.substr(0, f.rfind('@')));
    if (!o_.keys_log.empty()) inputs.push_back(o_.keys_log);
    return inputs;
  }

  RunOptions o_;
  std::string positional_db_;
  bool report_per_command_ = false;
};

PGSTORSIM_REGISTER_COMMAND(RunCommand, "run", "Run TPC-B-like transactions against PostgreSQL");

}  // namespace
}  // namespace pgstorsim
