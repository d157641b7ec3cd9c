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

#include "support/poll.h"

namespace pgstorsim {
namespace {

using testing_util::WaitExitWithin;

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
  EXPECT_EQ(WaitExitWithin(pid, 30), 0);
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
  EXPECT_EQ(WaitExitWithin(pid, kStopDeadlineSeconds + 30), kInterruptedExitCode);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, kStopDeadlineSeconds - 1);
}

}  // namespace
}  // namespace pgstorsim
