// WalFlushGroup (wal_flush_group.h): PostgreSQL's XLogFlush for the replay's workers.
#include "replay/wal_flush_group.h"

#include <algorithm>

#include "common/units.h"
#include "io/io_engine.h"

namespace pgstorsim {

int64_t WalFlushGroup::AdvanceBytes(int64_t written_bytes) {
  return std::max<int64_t>(0, written_bytes - kPageBytes);
}

std::vector<WalRange> WalFlushGroup::RangesOf(int64_t begin, int64_t end) const {
  std::vector<WalRange> out;
  for (int64_t pos = begin; pos < end;) {
    const int64_t offset = pos % file_bytes_;
    const int64_t length = std::min(end - pos, file_bytes_ - offset);
    out.push_back({file_, offset, offset + length});
    pos += length;
  }
  return out;
}

uint64_t WalFlushGroup::commits() const {
  std::lock_guard<std::mutex> insert(insert_lock_);
  return inserted_;
}

uint64_t WalFlushGroup::flushes() const {
  std::lock_guard<std::mutex> insert(insert_lock_);
  return flushes_;
}

AccessOutcome WalFlushGroup::Commit(const WalCommit& c, const Flush& flush, bool* led) {
  const int64_t start_ns = MonotonicNowNs();
  uint64_t my_commit = 0;
  {
    std::lock_guard<std::mutex> insert(insert_lock_);
    if (inserted_ == 0) file_ = c.file, file_bytes_ = c.file_bytes;
    my_commit = ++inserted_;
    insert_end_ += c.advance_bytes / kPageBytes * kPageBytes;
  }
  std::lock_guard<std::mutex> write(write_lock_);
  uint64_t upto = 0;
  int64_t end = 0;
  std::vector<WalRange> ranges;
  {
    std::lock_guard<std::mutex> insert(insert_lock_);
    if (flushed_ >= my_commit) {
      if (led != nullptr) *led = false;
      return {start_ns, MonotonicNowNs(), 0, 0};
    }
    upto = inserted_;
    end = insert_end_;
    ranges = RangesOf(flushed_end_ - kPageBytes, end);
  }
  AccessOutcome out = flush(ranges);
  out.start_ns = start_ns;
  {
    std::lock_guard<std::mutex> insert(insert_lock_);
    flushed_ = upto;
    flushed_end_ = end;
    ++flushes_;
  }
  if (led != nullptr) *led = true;
  return out;
}

}  // namespace pgstorsim
