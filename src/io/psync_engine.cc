// The psync engine: pread/pwrite (preadv/pwritev for scattered buffers)/fdatasync on
// the calling thread, one request at a
// time (PostgreSQL's own pattern: one backend, one synchronous I/O). Short transfers
// are reported as such (result < length), not retried, so the core can count them.
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "io/engine_util.h"
#include "io/io_engine.h"

namespace pgstorsim {
namespace {

class PsyncEngine : public IoEngine {
 public:
  ~PsyncEngine() override { CloseFds(&fds_); }
  const char* name() const override { return "psync"; }
  Status Open(const std::vector<IoTargetSpec>& targets) override {
    return OpenTargetFds(targets, &fds_);
  }
  QueueOutcome Queue(IoRequest* r) override {
    if (r->target < 0 || r->target >= static_cast<int>(fds_.size())) {
      r->result = -EBADF;
      return QueueOutcome::kCompleted;
    }
    const int fd = fds_[r->target];
    ssize_t n = 0;
    switch (r->direction) {
      case IoDirection::kRead:
        n = r->segment_count > 0
                ? preadv(fd, r->segments, r->segment_count, r->offset_bytes)
                : pread(fd, r->buffer, static_cast<size_t>(r->length_bytes), r->offset_bytes);
        break;
      case IoDirection::kWrite:
        n = r->segment_count > 0
                ? pwritev(fd, r->segments, r->segment_count, r->offset_bytes)
                : pwrite(fd, r->buffer, static_cast<size_t>(r->length_bytes), r->offset_bytes);
        break;
      case IoDirection::kFsync:
        n = fdatasync(fd);
        break;
    }
    r->result = n < 0 ? -errno : n;
    return QueueOutcome::kCompleted;
  }
  Status Submit() override { return Status::Ok(); }
  StatusOr<int> Reap(int, std::vector<IoRequest*>*) override { return 0; }

 private:
  std::vector<int> fds_;
};

}  // namespace

StatusOr<std::unique_ptr<IoEngine>> CreatePsyncEngine() {
  return std::unique_ptr<IoEngine>(new PsyncEngine());
}

}  // namespace pgstorsim
