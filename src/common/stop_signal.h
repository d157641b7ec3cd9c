// Graceful stop on Ctrl-C for long-running commands (run, replay): the first SIGINT or
// SIGTERM sets a flag the command polls, so it can stop its workers and save partial
// results (complete=false, flag "interrupted", exit code kInterruptedExitCode); a second
// signal of the same kind terminates the process as usual.
// Thread safety: InstallStopSignals may be called more than once (it re-arms the
// handlers); the returned flag is process-wide, lives for the whole process and is
// safe to read from any thread.
#ifndef PGSTORSIM_COMMON_STOP_SIGNAL_H_
#define PGSTORSIM_COMMON_STOP_SIGNAL_H_

#include <atomic>

namespace pgstorsim {

constexpr int kInterruptedExitCode = 130;  // 128 + SIGINT, as shells report it.

// Installs the handlers for SIGINT and SIGTERM and returns the flag they set.
const std::atomic<bool>* InstallStopSignals();

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_STOP_SIGNAL_H_
