// IoEngine: one interface for issuing block I/O (after fio's ioengine_ops), with
// psync, io_uring and null implementations, and IoCore, which wraps an engine and does
// all timing and accounting so the engines stay small.
//
// Lifecycle: CreateIoEngine(name) -> Open(targets) -> repeatedly Queue()... Submit()
// Reap() -> destroy (closes the files). An engine never creates, truncates or resizes
// a file: targets must exist (see replay/target.h for the safety rules).
// Thread safety: one engine instance per thread; engines share nothing.
#ifndef PGSTORSIM_IO_IO_ENGINE_H_
#define PGSTORSIM_IO_IO_ENGINE_H_

#include <sys/uio.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

enum class IoDirection : uint8_t { kRead, kWrite, kFsync };

// One I/O unit. The caller owns it and its buffer; both must stay valid until the
// request is returned completed by Queue() or Reap().
struct IoRequest {
  int target = 0;  // Index into the targets given to Open().
  IoDirection direction = IoDirection::kRead;
  int64_t offset_bytes = 0;  // Ignored for kFsync.
  int64_t length_bytes = 0;  // Ignored for kFsync.
  void* buffer = nullptr;    // Aligned (AllocateAligned) for O_DIRECT targets.
  uint64_t tag = 0;          // Free for the caller.
  // Filled by IoCore (never by engines):
  int64_t issue_ns = 0;     // CLOCK_MONOTONIC at queue time.
  int64_t complete_ns = 0;  // CLOCK_MONOTONIC when the completion was seen.
  // Filled by the engine: bytes transferred (0 for fsync) or -errno.
  int64_t result = 0;
  // Scatter/gather (preadv/pwritev): when segment_count > 0 the request transfers
  // `length_bytes` (= the sum of the segments' lengths) at `offset_bytes` from/to
  // these segments in order, and `buffer` is ignored. Same ownership and alignment
  // rules as `buffer`; at most kMaxIoSegments.
  const iovec* segments = nullptr;
  int segment_count = 0;
};

inline constexpr int kMaxIoSegments = 64;

struct IoTargetSpec {
  std::string path;
  bool writable = false;  // O_RDWR, else O_RDONLY.
  bool direct = true;     // O_DIRECT.
};

enum class QueueOutcome { kCompleted, kQueued, kBusy };

class IoEngine {
 public:
  virtual ~IoEngine() = default;
  virtual const char* name() const = 0;
  // Opens every target; errors name the path and errno text.
  virtual Status Open(const std::vector<IoTargetSpec>& targets) = 0;
  // kCompleted: done synchronously (result set). kQueued: will come back from Reap()
  // after Submit(). kBusy: queue full, Reap() first.
  virtual QueueOutcome Queue(IoRequest* request) = 0;
  // Hands queued requests to the kernel; returns a Status naming the failure.
  virtual Status Submit() = 0;
  // Waits until at least `min_completions` queued requests completed (0 = poll),
  // appends them to *done and returns how many were appended, or an error.
  virtual StatusOr<int> Reap(int min_completions, std::vector<IoRequest*>* done) = 0;
};

// "psync", "io_uring" or "null"; `queue_depth` bounds in-flight requests (io_uring).
StatusOr<std::unique_ptr<IoEngine>> CreateIoEngine(const std::string& name, int queue_depth);
StatusOr<std::unique_ptr<IoEngine>> CreatePsyncEngine();
StatusOr<std::unique_ptr<IoEngine>> CreateNullEngine();
StatusOr<std::unique_ptr<IoEngine>> CreateUringEngine(int queue_depth);

int64_t MonotonicNowNs();

// A buffer aligned to 4096 bytes (posix_memalign), freed on destruction.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(int64_t size_bytes);
  ~AlignedBuffer();
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  uint8_t* data() const { return data_; }
  int64_t size_bytes() const { return size_bytes_; }
  // Grows (contents not kept) so that size_bytes() >= size.
  void Reserve(int64_t size_bytes);

 private:
  uint8_t* data_ = nullptr;
  int64_t size_bytes_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_IO_IO_ENGINE_H_
