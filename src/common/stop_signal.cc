#include "common/stop_signal.h"

#include <signal.h>
#include <unistd.h>

namespace pgstorsim {
namespace {

std::atomic<bool> g_stop_requested{false};
std::atomic<int> g_stop_signals{0};

void Say(const char* text, size_t len) {
  const ssize_t ignored = write(STDERR_FILENO, text, len);
  (void)ignored;
}

extern "C" void OnStopDeadline(int) {
  static const char kMsg[] =
      "pgstorsim: partial results not saved within the stop deadline; exiting\n";
  Say(kMsg, sizeof kMsg - 1);
  _exit(kInterruptedExitCode);
}

// Async-signal-safe: atomics, alarm(2), write(2).
extern "C" void OnStopSignal(int) {
  if (g_stop_signals.fetch_add(1) != 0) return;  // Already stopping: ignored.
  g_stop_requested.store(true);
  alarm(kStopDeadlineSeconds);
  static const char kMsg[] =
      "pgstorsim: stopping: saving partial results (further signals are ignored)\n";
  Say(kMsg, sizeof kMsg - 1);
}

}  // namespace

const std::atomic<bool>* InstallStopSignals() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  struct sigaction deadline {};
  deadline.sa_handler = OnStopDeadline;
  sigemptyset(&deadline.sa_mask);
  sigaction(SIGALRM, &deadline, nullptr);
  return &g_stop_requested;
}

int StopSignalsReceived() { return g_stop_signals.load(); }

}  // namespace pgstorsim
