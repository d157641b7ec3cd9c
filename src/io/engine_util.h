// Internal helpers shared by the engines in src/io/ (not a public interface).
#ifndef PGSTORSIM_IO_ENGINE_UTIL_H_
#define PGSTORSIM_IO_ENGINE_UTIL_H_

#include <vector>

#include "io/io_engine.h"

namespace pgstorsim {

// Opens every target (never O_CREAT/O_TRUNC). On error closes what it opened and
// returns a Status naming the path.
Status OpenTargetFds(const std::vector<IoTargetSpec>& targets, std::vector<int>* fds);
void CloseFds(std::vector<int>* fds);

}  // namespace pgstorsim

#endif  // PGSTORSIM_IO_ENGINE_UTIL_H_
