// Test support: waiting with a deadline instead of a fixed sleep. PollUntil checks a
// condition every `interval` until it holds or the deadline passes; WaitExitWithin
// waits for a child process the same way. Header-only. Thread safety: none needed.
#ifndef PGSTORSIM_TESTS_SUPPORT_POLL_H_
#define PGSTORSIM_TESTS_SUPPORT_POLL_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>

namespace pgstorsim::testing_util {

// True as soon as `done()` holds; false once `seconds` have passed without it.
inline bool PollUntil(const std::function<bool()>& done, double seconds,
                      std::chrono::milliseconds interval = std::chrono::milliseconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(interval);
  }
  return true;
}

// Waits up to `seconds` for the child `pid`: its exit code, 128+signal if killed, or -1
// on timeout, after which the child is killed and reaped.
inline int WaitExitWithin(pid_t pid, double seconds) {
  int status = 0;
  if (!PollUntil([&] { return waitpid(pid, &status, WNOHANG) == pid; }, seconds)) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace pgstorsim::testing_util

#endif  // PGSTORSIM_TESTS_SUPPORT_POLL_H_
