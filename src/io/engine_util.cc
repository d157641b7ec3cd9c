#include "io/engine_util.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace pgstorsim {

Status OpenTargetFds(const std::vector<IoTargetSpec>& targets, std::vector<int>* fds) {
  CloseFds(fds);
  for (const IoTargetSpec& t : targets) {
    int flags = (t.writable ? O_RDWR : O_RDONLY) | O_CLOEXEC;
    if (t.direct) flags |= O_DIRECT;
    const int fd = open(t.path.c_str(), flags);
    if (fd < 0) {
      const std::string err = strerror(errno);
      CloseFds(fds);
      return Status::Error(t.path + ": cannot open" + (t.direct ? " with O_DIRECT" : "") + ": " +
                           err);
    }
    fds->push_back(fd);
  }
  return Status::Ok();
}

void CloseFds(std::vector<int>* fds) {
  for (int fd : *fds) close(fd);
  fds->clear();
}

}  // namespace pgstorsim
