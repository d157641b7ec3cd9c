// IoCore and DeviceStats: the core around an IoEngine. The core, not the engine,
// stamps every request's issue and completion time (CLOCK_MONOTONIC ns) and counts
// operations, bytes, errors, short transfers and busy time per target.
//
// DeviceStats is shared by all workers (thread-safe and lock-free: relaxed atomics, so
// a worker preempted on a busy CPU never blocks the others). Busy time is the wall
// time during which the target had at least one request in flight (as iostat's %util,
// accounted like the kernel's io_ticks: at each issue/completion the time since the
// previous event is added if a request was in flight), so it does not exceed the
// elapsed time.
// IoCore belongs to one worker thread, like its engine.
#ifndef PGSTORSIM_IO_IO_CORE_H_
#define PGSTORSIM_IO_IO_CORE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "io/io_engine.h"

namespace pgstorsim {

struct DeviceCounters {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t fsyncs = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t errors = 0;           // result < 0 (EIO, EINVAL from misalignment, ...).
  uint64_t short_transfers = 0;  // 0 <= result < length.
  int64_t busy_ns = 0;
  int in_flight = 0;
};

class DeviceStats {
 public:
  explicit DeviceStats(int targets);
  int targets() const { return static_cast<int>(slots_.size()); }
  void OnIssue(int target, int64_t now_ns);
  void OnComplete(const IoRequest& request);
  // A copy of one target's counters (exact once no request is in flight).
  DeviceCounters Get(int target) const;
  int InFlight(int target) const;

 private:
  struct Slot {
    std::atomic<uint64_t> reads{0}, writes{0}, fsyncs{0}, bytes_read{0}, bytes_written{0};
    std::atomic<uint64_t> errors{0}, short_transfers{0};
    std::atomic<int64_t> busy_ns{0}, last_event_ns{0};
    std::atomic<int> in_flight{0};
    void AddBusySincePrevious(int64_t now_ns, bool was_busy);
  };
  std::vector<std::unique_ptr<Slot>> slots_;
};

class IoCore {
 public:
  // Does not take ownership; both must outlive the core.
  IoCore(IoEngine* engine, DeviceStats* stats) : engine_(engine), stats_(stats) {}

  // Issues every request of `batch` (concurrently as far as the engine allows) and
  // returns when all have completed, with issue_ns, complete_ns and result set.
  // Per-request failures are in `result` and counted; a non-OK Status means the
  // engine itself failed (then requests may be incomplete).
  Status RunBatch(const std::vector<IoRequest*>& batch);
  // Convenience for one request.
  Status RunOne(IoRequest* request);

 private:
  void Complete(IoRequest* r);
  Status ReapAtLeast(int n, int* outstanding);

  IoEngine* engine_;
  DeviceStats* stats_;
  std::vector<IoRequest*> reaped_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_IO_IO_CORE_H_
