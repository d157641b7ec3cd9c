// RunProcess: runs a program to completion without a shell, stdin from /dev/null,
// stdout+stderr captured (truncated to 64 KiB). Used to drive initdb / pg_ctl.
// Thread safety: safe to call concurrently (fork/exec per call).
#ifndef PGSTORSIM_PG_PROCESS_H_
#define PGSTORSIM_PG_PROCESS_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal.
  std::string output;  // Combined stdout and stderr.
};

// REQUIRES: !argv.empty(). argv[0] is looked up in PATH when it has no '/'.
// Returns an error only when the program could not be started at all.
StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv);

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_PROCESS_H_
