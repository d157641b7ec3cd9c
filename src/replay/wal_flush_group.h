// PostgreSQL's group commit for the replay's workers (internal to src/replay).
//
// A committing backend inserts its WAL records, then flushes the WAL up to its commit
// record under WALWriteLock (XLogFlush): when it gets the lock and a flush that began
// after its insert has already made its record durable, it returns without I/O;
// otherwise it writes everything inserted so far (other backends' records included)
// and fsyncs, for all of them. So commits that arrive while a flush is in progress
// share the next one, as in PostgreSQL and the simulator's wal.cc.
// Here a commit's WAL records are the byte ranges its trace transaction writes to the
// WAL; the pending ranges are joined where they touch or overlap (consecutive commits
// rewrite the partial last page), and a flush writes each joined range once, then
// flushes each volume it wrote to.
// Units: byte offsets inside a volume. Thread safety: Commit may be called from any
// number of threads at once.
#ifndef PGSTORSIM_REPLAY_WAL_FLUSH_GROUP_H_
#define PGSTORSIM_REPLAY_WAL_FLUSH_GROUP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "replay/array_io.h"

namespace pgstorsim {

// Bytes [begin, end) of a WAL file at volume offsets of `volume` (not owned).
struct WalRange {
  const Volume* volume = nullptr;
  int64_t begin = 0, end = 0;
};

class WalFlushGroup {
 public:
  // Writes `ranges` and flushes their volumes; runs with the WAL write lock held.
  using Flush = std::function<AccessOutcome(const std::vector<WalRange>& ranges)>;

  // Makes the commit whose WAL is `mine` durable. Returns the flush that did it when the
  // caller led it (`*led` true), else an outcome without requests that ends when the
  // caller found its commit durable. start_ns is the call's start either way.
  AccessOutcome Commit(const std::vector<WalRange>& mine, const Flush& flush, bool* led);

  // Commits inserted and flushes done so far (readable at any time).
  uint64_t commits() const { return commits_.load(); }
  uint64_t flushes() const { return flushes_.load(); }

 private:
  // Joins `r` into pending_ (a range it touches or overlaps grows; others stay).
  void AddPending(const WalRange& r);

  std::mutex write_lock_;   // WALWriteLock: held through a flush.
  std::mutex insert_lock_;  // Guards the fields below.
  uint64_t inserted_ = 0;   // Commits inserted so far.
  uint64_t flushed_ = 0;    // Commits made durable (the first flushed_ inserted).
  std::vector<WalRange> pending_;
  std::atomic<uint64_t> commits_{0}, flushes_{0};
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_WAL_FLUSH_GROUP_H_
