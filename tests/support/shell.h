// Test support: run a shell command or the pgstorsim binary and capture its output.
// Standard input is always /dev/null (nothing may wait on stdin). Header-only; used by
// tests in several subsystems. Thread safety: none needed (popen per call).
#ifndef PGSTORSIM_TESTS_SUPPORT_SHELL_H_
#define PGSTORSIM_TESTS_SUPPORT_SHELL_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace pgstorsim {

struct ShellResult {
  int exit_code = -1;  // -1 when the command could not be started or did not exit.
  std::string output;  // stdout, plus stderr when merged.
};

// Runs `command` through /bin/sh; stderr goes into `output` when `merge_stderr`.
inline ShellResult RunShell(const std::string& command, bool merge_stderr = true) {
  ShellResult r;
  std::string full = command + (merge_stderr ? " 2>&1" : "") + " </dev/null";
  FILE* pipe = ::popen(full.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

#ifdef PGSTORSIM_BINARY
// Runs the built pgstorsim binary with `args` (stdout and stderr captured).
inline ShellResult RunPgstorsim(const std::string& args) {
  return RunShell(std::string(PGSTORSIM_BINARY) + " " + args);
}
#endif

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_SUPPORT_SHELL_H_
