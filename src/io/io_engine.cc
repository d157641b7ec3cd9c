#include "io/io_engine.h"

#include <time.h>

#include <cstdlib>
#include <new>
#include <utility>

namespace pgstorsim {

int64_t MonotonicNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

StatusOr<std::unique_ptr<IoEngine>> CreateIoEngine(const std::string& name, int queue_depth) {
  if (name == "psync") return CreatePsyncEngine();
  if (name == "null") return CreateNullEngine();
  if (name == "io_uring" || name == "uring") return CreateUringEngine(queue_depth);
  return Status::Error("unknown I/O engine '" + name + "' (expected psync, io_uring or null)");
}

AlignedBuffer::AlignedBuffer(int64_t size_bytes) { Reserve(size_bytes); }

AlignedBuffer::~AlignedBuffer() { free(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_bytes_(std::exchange(other.size_bytes_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_bytes_ = std::exchange(other.size_bytes_, 0);
  }
  return *this;
}

void AlignedBuffer::Reserve(int64_t size_bytes) {
  if (size_bytes <= size_bytes_) return;
  free(data_);
  data_ = nullptr;
  size_bytes_ = 0;
  const int64_t rounded = (size_bytes + 4095) / 4096 * 4096;
  void* p = nullptr;
  if (posix_memalign(&p, 4096, static_cast<size_t>(rounded)) != 0) throw std::bad_alloc();
  data_ = static_cast<uint8_t*>(p);
  size_bytes_ = rounded;
}

}  // namespace pgstorsim
