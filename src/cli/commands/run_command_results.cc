// `pgstorsim run`'s results (run_command_results.h): the server statistics section,
// the wait for the client sessions to end, and the results document, console summary
// and exit code built from the engine's output.
#include "cli/commands/run_command_results.h"

#include <unistd.h>

#include <cmath>
#include <iostream>

#include "cli/command.h"
#include "common/exit_codes.h"
#include "common/stop_signal.h"
#include "common/units.h"
#include "driver/summary.h"

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

void PrintPerSecond(const EngineOutput& out) {
  std::cout << "tps per second:";
  for (size_t i = 0; i < out.per_second_txns.size(); ++i) {
    std::cout << (i % 10 == 0 ? "\n  " : " ") << out.per_second_txns[i];
  }
  std::cout << "\n";
}

}  // namespace

void WaitForClientSessionsToEnd(PGconn* conn) {
  for (int i = 0; i < 60; ++i) {
    auto n = QueryValue(conn,
                        "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                        "'pgstorsim' AND datname = current_database() AND pid <> pg_backend_pid()");
    if (!n.ok() || *n == "0") return;
    usleep(50 * 1000);
  }
}

int FinishRun(const RunConfig& c, int scale, const EngineOutput& out,
              const StatusOr<StatsSnapshot>& before, const StatusOr<StatsSnapshot>& after,
              const std::string& path, Results* r) {
  r->complete = !out.interrupted && !out.server_lost;
  if (out.interrupted) r->flags.push_back("interrupted");
  if (out.server_lost) r->flags.push_back("server-lost");
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
  r->sections["retries"] = {{"transactions_retried", out.retried}, {"total_retries", out.retries}};
  r->sections["connections"] = {{"initial_connection_s", out.connect_s},
                                {"connection_losses", out.connection_losses},
                                {"reconnects", out.reconnects}};
  r->sections["client_cpu"] = ClientCpuJson(out.cpu);
  if (c.rate_tps > 0) r->sections["schedule_lag"] = out.schedule_lag.ToJson();
  if (!out.first_error.empty()) r->sections["first_error"] = OneLine(out.first_error);
  std::cout << FormatRunSummary(c, scale, out);
  if (before.ok() && after.ok()) {
    std::cout << FormatServerStats(StatsDelta(before->counters, after->counters),
                                   out.transactions + out.unmeasured_committed);
  } else {
    std::cout << "server statistics: not available ("
              << (before.ok() ? after.status() : before.status()).message() << ")\n";
  }
  if (c.per_second) PrintPerSecond(out);
  Status s = SaveResults(path, *r);
  if (!s.ok()) return ReportError("run", s);
  std::cout << "results: " << path
            << (out.server_lost ? " (partial: server lost)"
                : r->complete   ? ""
                                : " (partial: interrupted)")
            << "\n";
  if (out.server_lost) {
    return ReportError("run", "server lost: " + out.server_lost_reason, kExitServerLost);
  }
  return out.interrupted ? kInterruptedExitCode : 0;
}

}  // namespace pgstorsim
