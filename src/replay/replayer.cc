#include "replay/replayer.h"

#include <time.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "replay/array_io.h"
#include "replay/interval_board.h"
#include "replay/os_writeback.h"

namespace pgstorsim {

void LatencyAcc::Add(int64_t ns) {
  min_ns = count == 0 ? ns : std::min(min_ns, ns);
  max_ns = count == 0 ? ns : std::max(max_ns, ns);
  ++count;
  sum_ns += static_cast<double>(ns);
  sum_sq_ns2 += static_cast<double>(ns) * static_cast<double>(ns);
}

void LatencyAcc::Merge(const LatencyAcc& o) {
  if (o.count == 0) return;
  min_ns = count == 0 ? o.min_ns : std::min(min_ns, o.min_ns);
  max_ns = count == 0 ? o.max_ns : std::max(max_ns, o.max_ns);
  count += o.count;
  sum_ns += o.sum_ns;
  sum_sq_ns2 += o.sum_sq_ns2;
}

namespace {

using Txn = std::vector<TraceRecord>;

constexpr int kMaxWorkers = 1024;

int Category(const TraceRecord& r) {
  if (r.op == IoOp::kRead) return 0;
  if (r.op == IoOp::kFsync) return 3;
  return r.stream == IoStream::kWal ? 2 : 1;
}

// Dense 0-based index of every distinct client id, in increasing id order.
std::map<uint32_t, int> ClientIndex(const std::vector<TraceRecord>& records) {
  std::map<uint32_t, int> index;
  for (const TraceRecord& r : records) index.emplace(r.client, 0);
  int next = 0;
  for (auto& [client, i] : index) i = next++;
  return index;
}

// Transactions per worker, in order of first appearance in the trace; client number
// k (dense index) goes to worker k % workers.
std::vector<std::vector<Txn>> Partition(const std::vector<TraceRecord>& records, int workers,
                                        bool closed_loop) {
  std::vector<std::vector<Txn>> out(workers);
  const std::map<uint32_t, int> clients = ClientIndex(records);
  std::map<std::pair<uint32_t, uint64_t>, size_t> index;
  for (const TraceRecord& r : records) {
    const int w = clients.at(r.client) % workers;
    auto [it, fresh] = index.try_emplace({r.client, r.transaction}, out[w].size());
    if (fresh) out[w].emplace_back();
    out[w][it->second].push_back(r);
  }
  if (closed_loop) {
    for (auto& txns : out) {
      for (Txn& t : txns) {
        std::stable_sort(t.begin(), t.end(), [](const TraceRecord& a, const TraceRecord& b) {
          return Category(a) < Category(b);
        });
      }
    }
  }
  return out;
}

bool Stopped(const ReplayOptions& o) {
  return o.stop != nullptr && o.stop->load(std::memory_order_relaxed);
}

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

class Worker {
 public:
  Worker(int id, std::unique_ptr<IoEngine> engine, DeviceStats* stats, StripeLocks* locks,
         const ReplaySetup* setup, const ReplayOptions* options, uint64_t seed,
         OsWriteback* writeback)
      : id_(id),
        engine_(std::move(engine)),
        core_(engine_.get(), stats),
        io_(&core_, stats, locks, seed),
        setup_(setup),
        options_(options),
        writeback_(writeback) {}

  // Runs `txns` from `start_ns`; `span_ns` shifts each repetition in open loop.
  // Publishes finished intervals to `board` and finishes there.
  void Run(const std::vector<Txn>& txns, int64_t start_ns, int64_t span_ns, IntervalBoard* board) {
    board_ = board;
    RunPasses(txns, start_ns, span_ns);
    end_ns_ = MonotonicNowNs();
    board_->Finish(id_, result_.intervals);
  }

  ReplayOutcome& result() { return result_; }
  int64_t end_ns() const { return end_ns_; }

 private:
  AccessOutcome Exec(const TraceRecord& r) {
    const FilePlacement& f = setup_->placement.files[r.file];
    const Volume& v = f.volume == VolumeId::kWal && setup_->wal_volume != nullptr
                          ? *setup_->wal_volume
                          : *setup_->data_volume;
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

  // write() into the page cache; a writer over the dirty limit writes back the oldest
  // ranges itself (balance_dirty_pages).
  AccessOutcome BufferedWrite(const TraceRecord& r, const Volume& v, int64_t offset) {
    AccessOutcome o;
    o.start_ns = o.end_ns = MonotonicNowNs();
    writeback_->MarkDirty({&v, r.file, offset, r.length_bytes, o.start_ns});
    DirtyRange d;
    while (writeback_->TakeThrottled(&d))
      Add(&o, io_.Write(*d.volume, d.volume_offset_bytes, d.length_bytes));
    return o;
  }

  // fsync of a data file: its dirty ranges are written, then the flush (`flush`, done
  // after them) completes.
  AccessOutcome WriteBackFile(uint32_t file, AccessOutcome flush) {
    AccessOutcome o;
    o.start_ns = o.end_ns = MonotonicNowNs();
    DirtyRange d;
    while (writeback_->TakeOfFile(file, &d)) {
      Add(&o, io_.Write(*d.volume, d.volume_offset_bytes, d.length_bytes));
    }
    Add(&o, flush);
    return o;
  }

  static void Add(AccessOutcome* total, const AccessOutcome& part) {
    total->end_ns = std::max(total->end_ns, part.end_ns);
    total->member_requests += part.member_requests;
    total->errors += part.errors;
  }

  void RunPasses(const std::vector<Txn>& txns, int64_t start_ns, int64_t span_ns) {
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

  // A worker's completion times only grow, so moving to a later interval means every
  // earlier one is final: publish them.
  IntervalStats& IntervalAt(int64_t t_ns, int64_t start_ns) {
    const size_t i =
        static_cast<size_t>(std::max<int64_t>(0, t_ns - start_ns) / options_->interval_ns);
    if (result_.intervals.size() <= i) {
      if (!result_.intervals.empty()) board_->Publish(id_, i, result_.intervals);
      result_.intervals.resize(i + 1);
    }
    return result_.intervals[i];
  }

  void RunTxn(const Txn& txn, int64_t base_ns, int64_t start_ns) {
    const bool open = options_->open_loop;
    int64_t txn_start = open ? base_ns + txn.front().time_ns : MonotonicNowNs();
    int64_t txn_end = txn_start;
    bool failed = false;
    for (const TraceRecord& r : txn) {
      const int64_t scheduled = base_ns + r.time_ns;
      // Stopped while waiting: the transaction is not finished and not counted.
      if (open && !SleepUntil(scheduled, *options_)) return;
      const AccessOutcome o = Exec(r);
      const int64_t latency = o.end_ns - (open ? std::min(scheduled, o.start_ns) : o.start_ns);
      txn_end = std::max(txn_end, o.end_ns);
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
      failed |= o.errors > 0;
    }
    ++result_.transactions;
    if (failed) ++result_.failed_transactions;
    result_.transaction.Record(txn_end - txn_start);
    IntervalStats& iv = IntervalAt(txn_end, start_ns);
    ++iv.transactions;
    iv.txn_latency_sum_ns += static_cast<double>(txn_end - txn_start);
  }

  int id_;
  int64_t end_ns_ = 0;
  IntervalBoard* board_ = nullptr;
  std::unique_ptr<IoEngine> engine_;
  IoCore core_;
  ArrayIo io_;
  const ReplaySetup* setup_;
  const ReplayOptions* options_;
  OsWriteback* writeback_;  // Null: data writes at once.
  ReplayOutcome result_;
};

// The kernel's writeback worker: writes what OsWriteback hands it until stopped.
class Flusher {
 public:
  Flusher(std::unique_ptr<IoEngine> engine, DeviceStats* stats, StripeLocks* locks, uint64_t seed,
          OsWriteback* writeback)
      : engine_(std::move(engine)),
        core_(engine_.get(), stats),
        io_(&core_, stats, locks, seed),
        writeback_(writeback) {}

  void Run() {
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

  uint64_t writes_ = 0, member_requests_ = 0, member_errors_ = 0;

 private:
  std::unique_ptr<IoEngine> engine_;
  IoCore core_;
  ArrayIo io_;
  OsWriteback* writeback_;
};

void MergeInto(ReplayOutcome* total, ReplayOutcome& part) {
  total->transactions += part.transactions;
  total->failed_transactions += part.failed_transactions;
  total->records += part.records;
  total->failed_records += part.failed_records;
  total->member_requests += part.member_requests;
  total->member_errors += part.member_errors;
  total->data_read.Merge(part.data_read);
  total->data_write.Merge(part.data_write);
  total->wal_write.Merge(part.wal_write);
  total->fsync.Merge(part.fsync);
  total->transaction.Merge(part.transaction);
  if (total->intervals.size() < part.intervals.size()) {
    total->intervals.resize(part.intervals.size());
  }
  for (size_t i = 0; i < part.intervals.size(); ++i) {
    IntervalStats& t = total->intervals[i];
    t.reads.Merge(part.intervals[i].reads);
    t.writes.Merge(part.intervals[i].writes);
    t.transactions += part.intervals[i].transactions;
    t.txn_latency_sum_ns += part.intervals[i].txn_latency_sum_ns;
  }
}

int CountClients(const std::vector<TraceRecord>& records) {
  return std::max<int>(1, static_cast<int>(ClientIndex(records).size()));
}

}  // namespace

StatusOr<ReplayOutcome> RunReplay(const std::vector<TraceRecord>& records, const ReplaySetup& setup,
                                  const ReplayOptions& options) {
  if (setup.data_volume == nullptr) return Status::Error("replay has no data volume");
  if (options.interval_ns <= 0) return Status::Error("--interval must be positive");
  const int workers = options.workers > 0 ? options.workers : CountClients(records);
  if (workers > kMaxWorkers) {
    return Status::Error("the trace has " + std::to_string(workers) +
                         " clients; give --workers <= " + std::to_string(kMaxWorkers) +
                         " to fold them onto fewer workers");
  }
  DeviceStats stats(static_cast<int>(setup.targets.size()));
  StripeLocks locks;
  std::unique_ptr<OsWriteback> writeback;
  std::unique_ptr<Flusher> flusher;
  // Without an OS cache every write is written back at once by its writer: direct.
  if (options.buffered_data_writes && options.os_cache_bytes > 0) {
    writeback = std::make_unique<OsWriteback>(OsWritebackConfig{
        options.os_cache_bytes, options.os_dirty_background_bytes, options.os_dirty_limit_bytes});
    auto engine = CreateIoEngine(options.engine, options.queue_depth);
    if (!engine.ok()) return engine.status();
    Status s = (*engine)->Open(setup.targets);
    if (!s.ok()) return s;
    flusher = std::make_unique<Flusher>(std::move(engine).value(), &stats, &locks,
                                        options.seed * 1000003 + kMaxWorkers, writeback.get());
  }
  std::vector<std::unique_ptr<Worker>> pool;
  for (int w = 0; w < workers; ++w) {
    auto engine = CreateIoEngine(options.engine, options.queue_depth);
    if (!engine.ok()) return engine.status();
    Status s = (*engine)->Open(setup.targets);
    if (!s.ok()) return s;
    pool.push_back(std::make_unique<Worker>(w, std::move(engine).value(), &stats, &locks, &setup,
                                            &options, options.seed * 1000003 + w, writeback.get()));
  }
  const std::vector<std::vector<Txn>> work = Partition(records, workers, !options.open_loop);
  int64_t span_ns = 1;
  for (const TraceRecord& r : records) span_ns = std::max(span_ns, r.time_ns + 1);
  const int64_t start_ns = MonotonicNowNs();
  IntervalBoard board(workers, start_ns, options.interval_ns, options.on_interval);
  std::thread flusher_thread;
  if (flusher) flusher_thread = std::thread([&] { flusher->Run(); });
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] { pool[w]->Run(work[w], start_ns, span_ns, &board); });
  }
  while (!board.Drain(options.interval_ns)) {
  }
  for (std::thread& t : threads) t.join();
  ReplayOutcome total;
  if (flusher) {
    writeback->Stop();
    flusher_thread.join();
    total.flusher_writes = flusher->writes_;
    total.member_requests += flusher->member_requests_;
    total.member_errors += flusher->member_errors_;
    total.dirty_bytes_at_end = writeback->dirty_bytes();
  }
  total.workers = workers;
  int64_t end_ns = start_ns + 1;
  for (auto& worker : pool) {
    MergeInto(&total, worker->result());
    end_ns = std::max(end_ns, worker->end_ns());
  }
  total.elapsed_ns = end_ns - start_ns;
  total.interrupted = Stopped(options);
  for (int t = 0; t < stats.targets(); ++t) total.devices.push_back(stats.Get(t));
  return total;
}

}  // namespace pgstorsim
