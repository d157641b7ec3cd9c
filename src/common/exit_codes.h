// The process exit codes of every pgstorsim command (documented in README.md and
// docs/reliability.md): one meaning each, so scripts can tell what happened.
#ifndef PGSTORSIM_COMMON_EXIT_CODES_H_
#define PGSTORSIM_COMMON_EXIT_CODES_H_

namespace pgstorsim {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;          // Bad input, I/O or SQL error, refusal (one line).
constexpr int kExitUsage = 2;          // The command line does not parse or validate.
constexpr int kExitServerLost = 3;     // run: no connection for --max-reconnect-wait.
constexpr int kExitInterrupted = 130;  // SIGINT/SIGTERM: partial results saved.

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_EXIT_CODES_H_
