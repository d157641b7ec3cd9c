// `pgstorsim run`'s steps after the engine has run (run_command.cc): waiting for the
// client sessions to end before the "after" statistics snapshot, and filling, printing
// and saving the run's results. Used by the run command only.
#ifndef PGSTORSIM_CLI_COMMANDS_RUN_COMMAND_RESULTS_H_
#define PGSTORSIM_CLI_COMMANDS_RUN_COMMAND_RESULTS_H_

#include <string>

#include "common/results.h"
#include "common/status.h"
#include "driver/engine.h"
#include "driver/run_options.h"
#include "pg/server.h"
#include "pg/server_stats.h"

namespace pgstorsim {

// Waits (up to 3 s) until the run's client sessions have exited, so that their
// statistics are flushed before the "after" snapshot. `conn` is the statistics session.
void WaitForClientSessionsToEnd(PGconn* conn);

// Completes `r` from the engine's output `out` and the server statistics `before` /
// `after` the run (either may be an error), prints the pgbench-style summary, the server
// statistics and, with --per-second, each second's tps on stdout, and saves `r` to
// `path`. Returns the command's exit code: 0, kInterruptedExitCode after a stop signal,
// kExitServerLost, or 1 when the results cannot be saved (the error printed).
int FinishRun(const RunConfig& c, int scale, const EngineOutput& out,
              const StatusOr<StatsSnapshot>& before, const StatusOr<StatsSnapshot>& after,
              const std::string& path, Results* r);

}  // namespace pgstorsim

#endif  // PGSTORSIM_CLI_COMMANDS_RUN_COMMAND_RESULTS_H_
