// `pgstorsim run`: the live TPC-B driver. Prepares the cache, samples server
// statistics, runs the engine (engine.h), prints a pgbench-style summary and saves a
// "run" results document. SIGINT/SIGTERM stop the run: partial results are saved with
// complete=false and flag "interrupted", and the exit code is 130.
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "common/results.h"
#include "common/stop_signal.h"
#include "common/units.h"
#include "driver/cache_control.h"
#include "driver/engine.h"
#include "driver/environment.h"
#include "driver/schema.h"
#include "driver/summary.h"
#include "pg/server.h"
#include "pg/server_stats.h"
#include "trace/keys_log.h"

namespace pgstorsim {
namespace {

nlohmann::json StatsSection(const StatusOr<StatsSnapshot>& before,
                            const StatusOr<StatsSnapshot>& after) {
  nlohmann::json j = nlohmann::json::object();
  if (!before.ok()) j["error"] = before.status().message();
  if (!after.ok()) j["error"] = after.status().message();
  if (before.ok()) j["before"] = SnapshotToJson(*before);
  if (after.ok()) j["after"] = SnapshotToJson(*after);
  if (before.ok() && after.ok()) {
    j["delta"] = CountersToJson(StatsDelta(before->counters, after->counters));
  }
  return j;
}

std::string OneLine(std::string s) {
  for (char& ch : s) {
    if (ch == '\n' || ch == '\t') ch = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// Waits (up to 3 s) until the run's client sessions have exited, so that their
// statistics are flushed before the "after" snapshot.
void WaitForClientSessionsToEnd(const std::string& conninfo) {
  auto conn = Connect(conninfo);
  if (!conn.ok()) return;
  for (int i = 0; i < 60; ++i) {
    auto n = QueryValue(conn->get(),
                        "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                        "'pgstorsim' AND datname = current_database() AND pid <> pg_backend_pid()");
    if (!n.ok() || *n == "0") return;
    usleep(50 * 1000);
  }
}

class RunCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("-c,--clients", o_.clients, "Concurrent clients (one connection each)")
        ->capture_default_str();
    app->add_option("-j,--threads", o_.threads, "Driver threads")->capture_default_str();
    app->add_option("-T,--duration", o_.duration, "Measured duration, e.g. 60s (default 60s)");
    app->add_option("-t,--transactions", o_.transactions, "Transactions per client");
    app->add_option("--workload", o_.workload, "tpcb-like | simple-update | select-only")
        ->capture_default_str();
    app->add_option("-M,--protocol", o_.protocol, "simple | prepared")->capture_default_str();
    app->add_option("--warmup", o_.warmup, "Warm-up excluded from statistics, e.g. 30s")
        ->capture_default_str();
    app->add_option("-R,--rate", o_.rate_tps, "Open-loop Poisson arrival rate (tps)");
    app->add_option("-P,--progress", o_.progress, "Progress line every interval, e.g. 5s");
    app->add_option("--seed", o_.seed, "Random seed")->capture_default_str();
    app->add_option("--max-tries", o_.max_tries, "Tries for serialization/deadlock failures")
        ->capture_default_str();
    app->add_option("--cache", o_.cache, "cold | warm | as-is")->capture_default_str();
    app->add_option("--keys-log", o_.keys_log, "Write the keys of each transaction here");
    app->add_option("--out", o_.out, "Results file (default results/runs/run-<UTC>.json)");
    app->add_flag("--per-second", o_.per_second, "Report tps for each second");
    app->add_option("--db", o_.db,
                    "libpq conninfo or URI (default: PGSTORSIM_DB, PG* env, "
                    "else the embedded cluster)");
    app->add_option("--label", o_.label, "Free-text label stored in the results");
  }

  int Run() override {
    auto config = ValidateRunOptions(o_);
    if (!config.ok()) return ReportError("run", config.status());
    auto server = OpenServer(o_.db);
    if (!server.ok()) return ReportError("run", server.status());
    auto conn = Connect(server->conninfo);
    if (!conn.ok()) return ReportError("run", conn.status());
    auto scale = DetectScale(conn->get());
    if (!scale.ok()) return ReportError("run", scale.status());
    Results r = NewResults("run");
    r.label = o_.label;
    r.config = RunConfigToJson(*config, *scale);
    r.environment = DriverEnvironment(conn->get(), server->conninfo, server->source);
    conn.value().reset();

    CacheReport cache = PrepareCache(config->cache, server->conninfo, server->cluster.get());
    for (const auto& line : cache.not_done) std::cerr << "cache: not done: " << line << "\n";
    r.sections["cache"] = cache.ToJson();
    auto before = TakeSnapshot(server->conninfo);

    std::unique_ptr<KeysLogWriter> keys_log;
    if (!o_.keys_log.empty()) {
      auto w = OpenKeysLogWriter(o_.keys_log);
      if (!w.ok()) return ReportError("run", w.status());
      keys_log = std::move(w).value();
    }
    EngineInput in;
    in.config = *config;
    in.conninfo = server->conninfo;
    in.scale = *scale;
    in.keys_log = keys_log.get();
    in.stop = InstallStopSignals();
    in.progress = [](const std::string& line) { std::cerr << line << std::endl; };
    auto out = RunEngine(in);
    if (keys_log) keys_log->Close();
    if (!out.ok()) return ReportError("run", out.status());
    WaitForClientSessionsToEnd(server->conninfo);
    auto after = TakeSnapshot(server->conninfo);
    return Finish(*config, *scale, *out, before, after, &r);
  }

 private:
  int Finish(const RunConfig& c, int scale, const EngineOutput& out,
             const StatusOr<StatsSnapshot>& before, const StatusOr<StatsSnapshot>& after,
             Results* r) {
    r->complete = !out.interrupted;
    if (out.interrupted) r->flags.push_back("interrupted");
    bool restarted =
        before.ok() && after.ok() && before->postmaster_start_time != after->postmaster_start_time;
    if (out.connection_losses > 0 || restarted) r->flags.push_back("server-restarted");
    r->transactions = out.transactions;
    r->failed = out.failed;
    r->retried = out.retried;
    r->duration_s = out.measured_s;
    r->tps = SummaryTps(out);
    r->transaction_latency = out.txn_latency;
    r->statements = StatementResults(c, out);
    int interval_s = c.per_second ? 1
                     : c.progress_ns > 0
                         ? std::max(1, static_cast<int>(std::lround(NsToSec(c.progress_ns))))
                         : 5;
    r->series = SeriesFromPerSecond(out, interval_s);
    r->sections["series_interval_s"] = interval_s;
    r->sections["server_stats"] = StatsSection(before, after);
    if (before.ok()) r->sections["settings"] = before->settings;
    r->sections["retries"] = {{"transactions_retried", out.retried},
                              {"total_retries", out.retries}};
    r->sections["connections"] = {{"initial_connection_s", out.connect_s},
                                  {"connection_losses", out.connection_losses},
                                  {"reconnects", out.reconnects}};
    r->sections["client_cpu"] = ClientCpuJson(out.cpu);
    if (c.rate_tps > 0) r->sections["schedule_lag"] = out.schedule_lag.ToJson();
    if (!out.first_error.empty()) r->sections["first_error"] = OneLine(out.first_error);
    std::cout << FormatRunSummary(c, scale, out);
    if (c.per_second) PrintPerSecond(out);
    std::string path = o_.out.empty() ? DefaultResultsPath("run") : o_.out;
    Status s = SaveResults(path, *r);
    if (!s.ok()) return ReportError("run", s);
    std::cout << "results: " << path << (r->complete ? "" : " (partial: interrupted)") << "\n";
    return out.interrupted ? kInterruptedExitCode : 0;
  }

  void PrintPerSecond(const EngineOutput& out) {
    std::cout << "tps per second:";
    for (size_t i = 0; i < out.per_second_txns.size(); ++i) {
      std::cout << (i % 10 == 0 ? "\n  " : " ") << out.per_second_txns[i];
    }
    std::cout << "\n";
  }

  RunOptions o_;
};

PGSTORSIM_REGISTER_COMMAND(RunCommand, "run", "Run TPC-B-like transactions against PostgreSQL");

}  // namespace
}  // namespace pgstorsim
