// The io_uring engine (liburing): requests (readv/writev for scattered buffers) are
// prepared as SQEs by Queue(), handed to
// the kernel by Submit() and collected by Reap(). Files are registered with the ring
// (IOSQE_FIXED_FILE). fsync uses IORING_FSYNC_DATASYNC (fdatasync semantics).
#include <liburing.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "io/engine_util.h"
#include "io/io_engine.h"

namespace pgstorsim {
namespace {

class UringEngine : public IoEngine {
 public:
  explicit UringEngine(int depth) : depth_(depth < 1 ? 1 : depth) {}
  ~UringEngine() override {
    if (ring_ok_) io_uring_queue_exit(&ring_);
    CloseFds(&fds_);
  }
  const char* name() const override { return "io_uring"; }

  Status Init() {
    const int rc = io_uring_queue_init(static_cast<unsigned>(depth_), &ring_, 0);
    if (rc < 0) return Status::Error(std::string("io_uring unavailable: ") + strerror(-rc));
    ring_ok_ = true;
    return Status::Ok();
  }

  Status Open(const std::vector<IoTargetSpec>& targets) override {
    Status s = OpenTargetFds(targets, &fds_);
    if (!s.ok()) return s;
    const int rc = io_uring_register_files(&ring_, fds_.data(), static_cast<unsigned>(fds_.size()));
    if (rc < 0) return Status::Error(std::string("io_uring_register_files: ") + strerror(-rc));
    return Status::Ok();
  }

  QueueOutcome Queue(IoRequest* r) override {
    if (r->target < 0 || r->target >= static_cast<int>(fds_.size())) {
      r->result = -EBADF;
      return QueueOutcome::kCompleted;
    }
    if (in_flight_ + pending_ >= depth_) return QueueOutcome::kBusy;
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) return QueueOutcome::kBusy;
    const unsigned len = static_cast<unsigned>(r->length_bytes);
    const auto offset = static_cast<__u64>(r->offset_bytes);
    const auto segments = static_cast<unsigned>(r->segment_count);
    switch (r->direction) {
      case IoDirection::kRead:
        if (segments > 0) {
          io_uring_prep_readv(sqe, r->target, r->segments, segments, offset);
        } else {
          io_uring_prep_read(sqe, r->target, r->buffer, len, offset);
        }
        break;
      case IoDirection::kWrite:
        if (segments > 0) {
          io_uring_prep_writev(sqe, r->target, r->segments, segments, offset);
        } else {
          io_uring_prep_write(sqe, r->target, r->buffer, len, offset);
        }
        break;
      case IoDirection::kFsync:
        io_uring_prep_fsync(sqe, r->target, IORING_FSYNC_DATASYNC);
        break;
    }
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, r);
    ++pending_;
    return QueueOutcome::kQueued;
  }

  Status Submit() override {
    while (pending_ > 0) {
      const int rc = io_uring_submit(&ring_);
      if (rc == -EINTR || rc == -EAGAIN) continue;
      if (rc < 0) return Status::Error(std::string("io_uring_submit: ") + strerror(-rc));
      pending_ -= rc;
      in_flight_ += rc;
      if (rc == 0) break;
    }
    return Status::Ok();
  }

  StatusOr<int> Reap(int min_completions, std::vector<IoRequest*>* done) override {
    int got = 0;
    while (in_flight_ > 0) {
      io_uring_cqe* cqe = nullptr;
      const int rc =
          got < min_completions ? io_uring_wait_cqe(&ring_, &cqe) : io_uring_peek_cqe(&ring_, &cqe);
      if (rc == -EAGAIN) break;  // Nothing ready and nothing more required.
      if (rc == -EINTR) continue;
      if (rc < 0) return Status::Error(std::string("io_uring_wait_cqe: ") + strerror(-rc));
      auto* r = static_cast<IoRequest*>(io_uring_cqe_get_data(cqe));
      r->result = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      --in_flight_;
      done->push_back(r);
      ++got;
    }
    return got;
  }

 private:
  int depth_;
  io_uring ring_{};
  bool ring_ok_ = false;
  int pending_ = 0;
  int in_flight_ = 0;
  std::vector<int> fds_;
};

}  // namespace

StatusOr<std::unique_ptr<IoEngine>> CreateUringEngine(int queue_depth) {
  auto engine = std::make_unique<UringEngine>(queue_depth);
  Status s = engine->Init();
  if (!s.ok()) return s;
  return std::unique_ptr<IoEngine>(std::move(engine));
}

}  // namespace pgstorsim
