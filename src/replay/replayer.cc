// RunReplay: splits the trace among the workers, runs their threads, merges what they measured.
#include "replay/replayer.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "replay/array_io.h"
#include "replay/interval_board.h"
#include "replay/os_writeback.h"
#include "replay/replay_worker.h"

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
  WalFlushGroup wal;
  std::vector<std::unique_ptr<Worker>> pool;
  for (int w = 0; w < workers; ++w) {
    auto engine = CreateIoEngine(options.engine, options.queue_depth);
    if (!engine.ok()) return engine.status();
    Status s = (*engine)->Open(setup.targets);
    if (!s.ok()) return s;
    pool.push_back(std::make_unique<Worker>(w, std::move(engine).value(), &stats, &locks, &setup,
                                            &options, options.seed * 1000003 + w, writeback.get(),
                                            &wal));
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
  total.wal_commits = wal.commits();
  total.wal_flushes = wal.flushes();
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
