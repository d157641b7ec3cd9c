// The stop-signal contract (common/stop_signal.h), in child processes so the test
// runner keeps its own signal dispositions: the first SIGTERM/SIGINT sets the flag,
// later ones are ignored, and a process that does not finish within the deadline exits
// with kInterruptedExitCode anyway.
#include "common/stop_signal.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace pgstorsim {
namespace {

// Waits up to `seconds` for `pid`; its exit code, 128+signal if killed, -1 on timeout
// (then it is killed).
int WaitWithDeadline(pid_t pid, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) != pid) {
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(StopSignalTest, FirstSignalStopsLaterOnesAreIgnored) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::atomic<bool>* stop = InstallStopSignals();
    raise(SIGTERM);
    if (!stop->load() || StopSignalsReceived() != 1) _exit(10);
    raise(SIGTERM);  // Would kill with the default disposition.
    raise(SIGINT);
    if (StopSignalsReceived() != 3) _exit(11);
    _exit(0);  // "Results saved".
  }
  ASSERT_GT(pid, 0);
  EXPECT_EQ(WaitWithDeadline(pid, 30), 0);
}

// A command stuck while saving (here: it never returns) still ends, at the deadline.
TEST(StopSignalTest, HardDeadlineEndsAStuckProcess) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    InstallStopSignals();
    raise(SIGINT);
    while (true) pause();
  }
  ASSERT_GT(pid, 0);
  EXPECT_EQ(WaitWithDeadline(pid, kStopDeadlineSeconds + 30), kInterruptedExitCode);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, kStopDeadlineSeconds - 1);
}

}  // namespace
}  // namespace pgstorsim
