// PostgreSQL's group commit for the replay's workers (internal to src/replay).
//
// A committing backend inserts its WAL records, then flushes the WAL up to its commit
// record under WALWriteLock (XLogFlush): when it gets the lock and a flush that began
// after its insert has already made its record durable, it returns without I/O;
// otherwise it writes everything inserted so far (other backends' records included)
// and fsyncs, for all of them. So commits that arrive while a flush is in progress
// share the next one, as in PostgreSQL and the simulator's wal.cc.
// The WAL is one file appended in the order the replay's commits insert (not the
// trace's order, which the workers do not keep): a commit advances the insert position
// by the whole pages its trace transaction added to the WAL, and a flush writes, as
// PostgreSQL does, the last page it wrote before (partly filled then) up to the insert
// position's page: at least that one page, contiguous in the file (two ranges where it
// wraps round).
// Units: bytes, file offsets. Thread safety: Commit may be called from any number of
// threads at once.
#ifndef PGSTORSIM_REPLAY_WAL_FLUSH_GROUP_H_
#define PGSTORSIM_REPLAY_WAL_FLUSH_GROUP_H_

#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "common/units.h"
#include "replay/array_io.h"

namespace pgstorsim {

// Bytes [begin, end) of WAL file `file`.
struct WalRange {
  uint32_t file = 0;
  int64_t begin = 0, end = 0;
};

// A commit: the trace's WAL file (id and size, a multiple of the page; the same for
// every commit) and the WAL bytes it adds (AdvanceBytes).
struct WalCommit {
  uint32_t file = 0;
  int64_t file_bytes = 0;
  int64_t advance_bytes = 0;
};

class WalFlushGroup {
 public:
  // Writes `ranges` and flushes their file; runs with the WAL write lock held.
  using Flush = std::function<AccessOutcome(const std::vector<WalRange>& ranges)>;

  // The WAL pages a trace transaction's commit adds: its WAL writes' bytes less the
  // partly filled page each flush writes again (at least 0).
  static int64_t AdvanceBytes(int64_t written_bytes);

  // Makes commit `c` durable. Returns the flush that did it when the caller led it
  // (`*led`, if given, true), else an outcome without requests that ends when the caller
  // found its commit durable. start_ns is the call's start. REQUIRES: c.file_bytes > 0.
  AccessOutcome Commit(const WalCommit& c, const Flush& flush, bool* led = nullptr);

  // Commits inserted and flushes done so far (readable at any time).
  uint64_t commits() const;
  uint64_t flushes() const;

 private:
  // [begin, end) of the WAL stream as ranges of the file (split where it wraps).
  std::vector<WalRange> RangesOf(int64_t begin, int64_t end) const;

  std::mutex write_lock_;           // WALWriteLock: held through a flush.
  mutable std::mutex insert_lock_;  // Guards the fields below.
  uint32_t file_ = 0;               // The WAL file, from the first commit.
  int64_t file_bytes_ = 0;
  uint64_t inserted_ = 0;  // Commits inserted so far.
  uint64_t flushed_ = 0;   // Commits made durable (the first flushed_ inserted).
  // Insert and flushed positions in the WAL stream (bytes, whole pages): a flush writes
  // from the page before flushed_end_ to insert_end_.
  int64_t insert_end_ = kPageBytes, flushed_end_ = kPageBytes;
  uint64_t flushes_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_WAL_FLUSH_GROUP_H_
