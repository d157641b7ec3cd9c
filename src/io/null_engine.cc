// The null engine: every request completes immediately with its full length and no
// I/O. Used for self-tests of the replay core and to measure the core's overhead.
#include <vector>

#include "io/io_engine.h"

namespace pgstorsim {
namespace {

class NullEngine : public IoEngine {
 public:
  const char* name() const override { return "null"; }
  Status Open(const std::vector<IoTargetSpec>& targets) override {
    targets_ = static_cast<int>(targets.size());
    return Status::Ok();
  }
  QueueOutcome Queue(IoRequest* r) override {
    if (r->target < 0 || r->target >= targets_) {
      r->result = -9;  // EBADF
    } else {
      r->result = r->direction == IoDirection::kFsync ? 0 : r->length_bytes;
    }
    return QueueOutcome::kCompleted;
  }
  Status Submit() override { return Status::Ok(); }
  StatusOr<int> Reap(int, std::vector<IoRequest*>*) override { return 0; }

 private:
  int targets_ = 0;
};

}  // namespace

StatusOr<std::unique_ptr<IoEngine>> CreateNullEngine() {
  return std::unique_ptr<IoEngine>(new NullEngine());
}

}  // namespace pgstorsim
