// OsWriteback: the OS page cache's write-back of data pages, emulated for the replay of
// PostgreSQL's write path (io.data_writes = buffered, the default; docs/replay.md,
// "Data writes"). A data-page write is write() into the page cache: it marks its range
// dirty and returns. The pages reach the volume later, as Linux writes them
// (mm/page-writeback.c, with its default sysctls; pgmodel/os_dirty_limits.h):
// - the flusher (the kernel's writeback worker; a thread of the replay) writes the
//   oldest dirty ranges while dirty bytes exceed the background threshold
//   (vm.dirty_background_ratio, 10 % of the OS cache) and every range older than
//   vm.dirty_expire_centisecs (30 s);
// - a writer that finds dirty bytes above the dirty limit (vm.dirty_ratio, 20 %) is
//   throttled (balance_dirty_pages): it writes back the oldest ranges itself until
//   below, so its write() waits for that much device writing;
// - an fsync of a data file writes back that file's dirty ranges, then flushes.
// A range dirtied again while dirty is written once. With no OS cache (cache_bytes 0)
// every write is written back at once by its writer.
// Units: bytes, ns. Thread safety: all methods are safe to call from any thread.
#ifndef PGSTORSIM_REPLAY_OS_WRITEBACK_H_
#define PGSTORSIM_REPLAY_OS_WRITEBACK_H_

#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <utility>

#include "pgmodel/os_dirty_limits.h"
#include "replay/volume.h"

namespace pgstorsim {

struct OsWritebackConfig {
  int64_t cache_bytes = 0;  // The OS page cache; its thresholds: pgmodel::OsDirtyLimitsFor.
  int64_t background_bytes = 0;  // host.dirty_background (0 = the default).
  int64_t limit_bytes = 0;       // host.dirty_limit (0 = the default).
};

// One dirty range: a page write as the trace gave it.
struct DirtyRange {
  const Volume* volume = nullptr;
  uint32_t file = 0;
  int64_t volume_offset_bytes = 0;
  int64_t length_bytes = 0;
  int64_t dirtied_ns = 0;
};

class OsWriteback {
 public:
  explicit OsWriteback(const OsWritebackConfig& config);

  // write(): marks the range dirty (keeps its first dirtying time if already dirty).
  void MarkDirty(const DirtyRange& range);
  // The oldest range a writer must write back itself (dirty bytes above the limit).
  bool TakeThrottled(DirtyRange* out);
  // The oldest range the flusher should write at `now_ns` (above the background
  // threshold, or expired); false when none.
  bool TakeForFlusher(int64_t now_ns, DirtyRange* out);
  // The oldest dirty range of `file` (fsync).
  bool TakeOfFile(uint32_t file, DirtyRange* out);
  // Waits up to `timeout_ns` for dirty bytes above the background threshold or stop.
  void WaitForWork(int64_t timeout_ns);
  void Stop();
  bool stopped() const;

  int64_t dirty_bytes() const;
  int64_t background_bytes() const { return limits_.background_bytes; }
  int64_t limit_bytes() const { return limits_.limit_bytes; }

 private:
  using Key = std::pair<const Volume*, int64_t>;
  bool TakeOldestLocked(DirtyRange* out);
  void EraseLocked(std::list<DirtyRange>::iterator it);

  const pgmodel::OsDirtyLimits limits_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::list<DirtyRange> age_order_;  // Oldest first.
  std::map<Key, std::list<DirtyRange>::iterator> by_offset_;
  int64_t dirty_bytes_ = 0;
  bool stop_ = false;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_OS_WRITEBACK_H_
