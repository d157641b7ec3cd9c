// Test support: runs a shell command as the leader of its own process group (as a
// service manager or GNU timeout would see it), signals the whole group, and waits for
// it with deadlines (polling; no fixed sleeps). Header-only; used by the signal tests
// of run and replay. Thread safety: none needed.
#ifndef PGSTORSIM_TESTS_SUPPORT_SIGNAL_GROUP_H_
#define PGSTORSIM_TESTS_SUPPORT_SIGNAL_GROUP_H_

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "support/poll.h"

namespace pgstorsim {

class GroupProcess {
 public:
  // Starts `command` (via /bin/sh -c "exec ...", so the group leader is the command
  // itself) with stdin from /dev/null and stdout+stderr appended to `log`.
  GroupProcess(const std::string& command, const std::string& log) : log_(log) {
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      const std::string full = "exec " + command + " </dev/null >>" + log + " 2>&1";
      execl("/bin/sh", "sh", "-c", full.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    if (pid_ > 0) setpgid(pid_, pid_);  // Either side may win the race; both set it.
  }
  ~GroupProcess() {
    if (pid_ > 0 && !exited_) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  std::string Log() const {
    std::ifstream in(log_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // Polls every 20 ms until `pred` holds or `seconds` pass; false on timeout.
  static bool WaitFor(const std::function<bool()>& pred, double seconds) {
    return testing_util::PollUntil(pred, seconds);
  }

  bool LogContains(const std::string& text, double seconds) const {
    return WaitFor([&] { return Log().find(text) != std::string::npos; }, seconds);
  }

  // Sends `sig` to every process of the group.
  void SignalGroup(int sig) const { kill(-pid_, sig); }

  // Waits up to `seconds` for the process to exit; its exit code, 128+signal if killed,
  // -1 on timeout.
  int WaitExit(double seconds) {
    int status = 0;
    const bool done = WaitFor(
        [&] {
          const pid_t r = waitpid(pid_, &status, WNOHANG);
          return r == pid_;
        },
        seconds);
    if (!done) return -1;
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  pid_t pid() const { return pid_; }

 private:
  std::string log_;
  pid_t pid_ = -1;
  bool exited_ = false;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_SUPPORT_SIGNAL_GROUP_H_
