// Output consent: the one rule every command applies before it writes a file the user
// named. An output never replaces one of the command's inputs, and never replaces an
// existing file unless the user said so (--force). Non-regular files that already exist
// (/dev/null, /dev/stdout, a FIFO) are written in place and are always allowed.
// Default result names (DefaultResultsPath in results.h) never collide, so they need no
// consent. Thread safety: pure apart from stat(2).
#ifndef PGSTORSIM_COMMON_OUTPUT_PATH_H_
#define PGSTORSIM_COMMON_OUTPUT_PATH_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

// OK when `out` may be written. Errors, each naming `option` (e.g. "--out") and the path:
// `out` is the same file as one of `inputs` (same device and inode, or the same
// path once normalised when the input does not exist yet); `out` is an existing
// directory; `out` is an existing regular file and `force` is false.
Status CheckOutputPath(const std::string& option, const std::string& out,
                       const std::vector<std::string>& inputs, bool force);

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_OUTPUT_PATH_H_
