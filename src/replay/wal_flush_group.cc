// WalFlushGroup (wal_flush_group.h): PostgreSQL's XLogFlush for the replay's workers.
#include "replay/wal_flush_group.h"

#include <algorithm>

#include "io/io_engine.h"

namespace pgstorsim {

void WalFlushGroup::AddPending(const WalRange& r) {
  WalRange joined = r;
  std::vector<WalRange> kept;
  for (const WalRange& p : pending_) {
    const bool touches =
        p.volume == joined.volume && p.begin <= joined.end && joined.begin <= p.end;
    if (!touches) {
      kept.push_back(p);
      continue;
    }
    joined.begin = std::min(joined.begin, p.begin);
    joined.end = std::max(joined.end, p.end);
  }
  kept.push_back(joined);
  pending_ = std::move(kept);
}

AccessOutcome WalFlushGroup::Commit(const std::vector<WalRange>& mine, const Flush& flush,
                                    bool* led) {
  const int64_t start_ns = MonotonicNowNs();
  uint64_t my_commit = 0;
  {
    std::lock_guard<std::mutex> insert(insert_lock_);
    my_commit = ++inserted_;
    ++commits_;
    for (const WalRange& r : mine) AddPending(r);
  }
  std::lock_guard<std::mutex> write(write_lock_);
  std::vector<WalRange> ranges;
  uint64_t upto = 0;
  {
    std::lock_guard<std::mutex> insert(insert_lock_);
    if (flushed_ >= my_commit) {
      *led = false;
      return {start_ns, MonotonicNowNs(), 0, 0};
    }
    ranges.swap(pending_);
    upto = inserted_;
  }
  AccessOutcome out = flush(ranges);
  out.start_ns = start_ns;
  {
    std::lock_guard<std::mutex> insert(insert_lock_);
    flushed_ = upto;
    ++flushes_;
  }
  *led = true;
  return out;
}

}  // namespace pgstorsim
