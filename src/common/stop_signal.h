// Graceful stop for long-running commands (run, replay): the first SIGINT or SIGTERM
// sets a flag the command polls, so it can stop its workers and save partial results
// (complete=false, flag "interrupted", exit code kInterruptedExitCode). Every further
// SIGINT/SIGTERM is ignored (GNU timeout and service managers signal both the process
// and its process group, so two arrive at once), and a hard deadline of
// kStopDeadlineSeconds bounds the wait: if the command has not exited by then, the
// process exits with kInterruptedExitCode, saying so in one line on stderr.
// Thread safety: InstallStopSignals may be called more than once (it re-arms the
// handlers and keeps the flag); the returned flag is process-wide, lives for the whole
// process and is safe to read from any thread.
#ifndef PGSTORSIM_COMMON_STOP_SIGNAL_H_
#define PGSTORSIM_COMMON_STOP_SIGNAL_H_

#include <atomic>

#include "common/exit_codes.h"

namespace pgstorsim {

constexpr int kInterruptedExitCode = kExitInterrupted;  // 128 + SIGINT, as shells report.
constexpr unsigned kStopDeadlineSeconds = 20;

// Installs the handlers for SIGINT and SIGTERM (SIGALRM for the deadline) and returns
// the flag they set.
const std::atomic<bool>* InstallStopSignals();

// How many stop signals arrived so far (the first included).
int StopSignalsReceived();

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_STOP_SIGNAL_H_
