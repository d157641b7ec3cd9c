// The replay threads' issue loops: a Worker's timed transactions and the Flusher's write-back.
#include "replay/replay_worker.h"

#include <time.h>

#include <algorithm>

namespace pgstorsim {

bool Stopped(const ReplayOptions& o) {
  return o.stop != nullptr && o.stop->load(std::memory_order_relaxed);
}

namespace {

// Sleeps until `when_ns` (CLOCK_MONOTONIC) in slices of at most 50 ms, so a stop
// request is seen soon; false if it returned early because of one.
bool SleepUntil(int64_t when_ns, const ReplayOptions& o) {
  constexpr int64_t kSliceNs = 50LL * 1000 * 1000;
  while (true) {
    if (Stopped(o)) return false;
    const int64_t now_ns = MonotonicNowNs();
    if (now_ns >= when_ns) return true;
    const int64_t until_ns = std::min(when_ns, now_ns + kSliceNs);
    timespec ts{static_cast<time_t>(until_ns / 1000000000LL),
                static_cast<long>(until_ns % 1000000000LL)};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
  }
}

}  // namespace

void Worker::Run(const std::vector<Txn>& txns, int64_t start_ns, int64_t span_ns,
                 IntervalBoard* board) {
  board_ = board;
  RunPasses(txns, start_ns, span_ns);
  end_ns_ = MonotonicNowNs();
  board_->Finish(id_, result_.intervals);
}

const Volume& Worker::VolumeOf(uint32_t file) const {
  const FilePlacement& f = setup_->placement.files[file];
  return f.volume == VolumeId::kWal && setup_->wal_volume != nullptr ? *setup_->wal_volume
                                                                     : *setup_->data_volume;
}

AccessOutcome Worker::Exec(const TraceRecord& r) {
  const FilePlacement& f = setup_->placement.files[r.file];
  const Volume& v = VolumeOf(r.file);
  const bool buffered = writeback_ != nullptr && r.stream == IoStream::kData;
  switch (r.op) {
    case IoOp::kRead:
      return io_.Read(v, f.VolumeOffset(r.offset_bytes), r.length_bytes);
    case IoOp::kWrite:
      if (!buffered) return io_.Write(v, f.VolumeOffset(r.offset_bytes), r.length_bytes);
      return BufferedWrite(r, v, f.VolumeOffset(r.offset_bytes));
    case IoOp::kFsync:
      if (!buffered) return io_.Flush(v);
      return WriteBackFile(r.file, io_.Flush(v));
  }
  return {};
}

AccessOutcome Worker::BufferedWrite(const TraceRecord& r, const Volume& v, int64_t offset) {
  AccessOutcome o;
  o.start_ns = o.end_ns = MonotonicNowNs();
  writeback_->MarkDirty({&v, r.file, offset, r.length_bytes, o.start_ns});
  DirtyRange d;
  while (writeback_->TakeThrottled(&d))
    Add(&o, io_.Write(*d.volume, d.volume_offset_bytes, d.length_bytes));
  return o;
}

AccessOutcome Worker::WriteBackFile(uint32_t file, AccessOutcome flush) {
  AccessOutcome o;
  o.start_ns = o.end_ns = MonotonicNowNs();
  DirtyRange d;
  while (writeback_->TakeOfFile(file, &d)) {
    Add(&o, io_.Write(*d.volume, d.volume_offset_bytes, d.length_bytes));
  }
  Add(&o, flush);
  return o;
}

bool Worker::CommitWal(const Txn& txn, size_t first, size_t* next, AccessOutcome* out) {
  auto is_wal = [&](size_t i) { return i < txn.size() && txn[i].stream == IoStream::kWal; };
  if (wal_ == nullptr || txn[first].stream != IoStream::kWal || txn[first].op != IoOp::kWrite) {
    return false;
  }
  int64_t written_bytes = 0;
  size_t i = first;
  for (; is_wal(i) && txn[i].op == IoOp::kWrite; ++i) written_bytes += txn[i].length_bytes;
  if (!is_wal(i) || txn[i].op != IoOp::kFsync) return false;  // No commit: as issued.
  const uint32_t file = txn[first].file;
  const int64_t file_bytes = setup_->placement.files[file].size_bytes;
  if (file_bytes <= 0) return false;
  *next = i + 1;
  const WalCommit commit{file, file_bytes, WalFlushGroup::AdvanceBytes(written_bytes)};
  *out = wal_->Commit(commit, [this](const std::vector<WalRange>& r) { return FlushWal(r); });
  return true;
}

AccessOutcome Worker::FlushWal(const std::vector<WalRange>& ranges) {
  AccessOutcome o;
  o.start_ns = o.end_ns = MonotonicNowNs();
  std::vector<const Volume*> written;
  for (const WalRange& r : ranges) {
    const FilePlacement& f = setup_->placement.files[r.file];
    const Volume& v = VolumeOf(r.file);
    Add(&o, io_.Write(v, f.VolumeOffset(r.begin), r.end - r.begin));
    if (std::find(written.begin(), written.end(), &v) == written.end()) written.push_back(&v);
  }
  for (const Volume* v : written) Add(&o, io_.Flush(*v));
  return o;
}

void Worker::Add(AccessOutcome* total, const AccessOutcome& part) {
  total->end_ns = std::max(total->end_ns, part.end_ns);
  total->member_requests += part.member_requests;
  total->errors += part.errors;
}

void Worker::RunPasses(const std::vector<Txn>& txns, int64_t start_ns, int64_t span_ns) {
  const int64_t deadline = options_->duration_ns > 0 ? start_ns + options_->duration_ns : 0;
  for (int64_t pass = 0; !txns.empty(); ++pass) {
    for (const Txn& txn : txns) {
      if (deadline > 0 && MonotonicNowNs() >= deadline) return;
      if (Stopped(*options_)) return;
      RunTxn(txn, start_ns + pass * span_ns, start_ns);
    }
    if (deadline == 0) return;
  }
}

void Worker::Record(const TraceRecord& r, const AccessOutcome& o, int64_t latency,
                    int64_t start_ns) {
  IntervalStats& iv = IntervalAt(o.end_ns, start_ns);
  if (r.op == IoOp::kRead) {
    result_.data_read.Record(latency);
    iv.reads.Add(latency);
  } else if (r.op == IoOp::kWrite) {
    (r.stream == IoStream::kWal ? result_.wal_write : result_.data_write).Record(latency);
    iv.writes.Add(latency);
  } else {
    result_.fsync.Record(latency);
  }
  ++result_.records;
  result_.member_requests += static_cast<uint64_t>(o.member_requests);
  result_.member_errors += static_cast<uint64_t>(o.errors);
  if (o.errors > 0) ++result_.failed_records;
}

IntervalStats& Worker::IntervalAt(int64_t t_ns, int64_t start_ns) {
  const size_t i =
      static_cast<size_t>(std::max<int64_t>(0, t_ns - start_ns) / options_->interval_ns);
  if (result_.intervals.size() <= i) {
    if (!result_.intervals.empty()) board_->Publish(id_, i, result_.intervals);
    result_.intervals.resize(i + 1);
  }
  return result_.intervals[i];
}

void Worker::RunTxn(const Txn& txn, int64_t base_ns, int64_t start_ns) {
  const bool open = options_->open_loop;
  int64_t txn_start = open ? base_ns + txn.front().time_ns : MonotonicNowNs();
  int64_t txn_end = txn_start;
  bool failed = false;
  for (size_t i = 0; i < txn.size();) {
    const TraceRecord& r = txn[i];
    const int64_t scheduled = base_ns + r.time_ns;
    // Stopped while waiting: the transaction is not finished and not counted.
    if (open && !SleepUntil(scheduled, *options_)) return;
    AccessOutcome o;
    size_t next = i + 1;
    const bool commit = CommitWal(txn, i, &next, &o);
    if (!commit) o = Exec(r);
    const int64_t latency = o.end_ns - (open ? std::min(scheduled, o.start_ns) : o.start_ns);
    txn_end = std::max(txn_end, o.end_ns);
    Record(r, o, latency, start_ns);
    result_.records += next - i - 1;  // A commit's other WAL records.
    failed |= o.errors > 0;
    i = next;
  }
  ++result_.transactions;
  if (failed) ++result_.failed_transactions;
  result_.transaction.Record(txn_end - txn_start);
  IntervalStats& iv = IntervalAt(txn_end, start_ns);
  ++iv.transactions;
  iv.txn_latency_sum_ns += static_cast<double>(txn_end - txn_start);
}

void Flusher::Run() {
  constexpr int64_t kWakeNs = 5LL * 1000 * 1000 * 1000;  // dirty_writeback_centisecs.
  while (!writeback_->stopped()) {
    DirtyRange d;
    while (!writeback_->stopped() && writeback_->TakeForFlusher(MonotonicNowNs(), &d)) {
      const AccessOutcome o = io_.Write(*d.volume, d.volume_offset_bytes, d.length_bytes);
      ++writes_;
      member_requests_ += static_cast<uint64_t>(o.member_requests);
      member_errors_ += static_cast<uint64_t>(o.errors);
    }
    writeback_->WaitForWork(kWakeNs);
  }
}

}  // namespace pgstorsim
