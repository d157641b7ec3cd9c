// Internal to src/sim: the OS's state of the io workload's one file (io_clients.h),
// which the io clients (io_client_loop.h) hold: BlockLru, the OS cache of the file's
// filesystem blocks, and FileLock, the filesystem's reader-writer lock on the file.
// Not for use outside src/sim.
// Units: blocks are filesystem-block indices into the file, times ns; clients are
// numbered by slot. Thread safety: none; each simulation owns its own.
#ifndef PGSTORSIM_SIM_IO_FILE_STATE_H_
#define PGSTORSIM_SIM_IO_FILE_STATE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace pgstorsim {
namespace sim {

// An LRU of filesystem blocks: a stamp per block (0 = absent) and a queue of
// (stamp, block) whose stale entries are skipped on eviction.
class BlockLru {
 public:
  // `blocks`: the file's blocks (0 .. blocks-1); `capacity`: the most held at once
  // (<= 0: none are ever held).
  BlockLru(int64_t blocks, int64_t capacity)
      : stamps_(static_cast<size_t>(blocks), 0), capacity_(capacity) {}
  bool Contains(int64_t b) const { return stamps_[static_cast<size_t>(b)] != 0; }
  // Makes b the most recently used block, evicting the least recently used ones when
  // it was absent and the cache is full.
  void Touch(int64_t b);

 private:
  void Evict();
  void Compact();
  std::vector<uint32_t> stamps_;
  std::deque<std::pair<uint32_t, int64_t>> queue_;
  int64_t capacity_ = 0, size_ = 0;
  uint32_t clock_ = 0;
};

// A reader-writer lock preferring writers (io_clients.h): a shared request waits while
// an exclusive one is queued; a release wakes the first exclusive waiter, else every
// shared one. The caller resumes the granted slots.
class FileLock {
 public:
  // True when granted at once; else queued until a release grants it.
  bool Acquire(uint32_t slot, bool exclusive, int64_t now_ns);
  // Releases and appends the slots granted now to *granted.
  void Release(bool exclusive, int64_t now_ns, std::vector<uint32_t>* granted);
  // Time the lock has been held (shared or exclusive) up to now_ns.
  int64_t busy_ns(int64_t now_ns) const {
    return busy_ns_ + (readers_ > 0 || writer_ ? now_ns - held_since_ns_ : 0);
  }

 private:
  struct Waiter {
    uint32_t slot;
    bool exclusive;
  };
  void Take(bool exclusive, int64_t now_ns);
  int readers_ = 0;
  bool writer_ = false;
  int waiting_exclusive_ = 0;
  std::deque<Waiter> waiters_;
  int64_t busy_ns_ = 0, held_since_ns_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_IO_FILE_STATE_H_
