#include "driver/engine.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <thread>

#include "common/units.h"
#include "driver/engine_thread.h"

namespace pgstorsim {
namespace {

// Engine threads' wait tick (EngineShared::tick_ns): stop flags set by another thread
// are seen within kSharedTickNs; a lone caller-driven thread wakes at once on the
// signal and ticks only once a second (each tick is a wake-up: client CPU).
constexpr int64_t kSharedTickNs = 50 * kNsPerMs;
constexpr int64_t kLoneTickNs = kNsPerSec;

void MergeVector(const std::vector<uint64_t>& src, std::vector<uint64_t>* dst) {
  if (dst->size() < src.size()) dst->resize(src.size(), 0);
  for (size_t i = 0; i < src.size(); ++i) (*dst)[i] += src[i];
}

void MergeOutput(const EngineOutput& t, EngineOutput* out) {
  out->transactions += t.transactions;
  out->failed += t.failed;
  out->retried += t.retried;
  out->retries += t.retries;
  out->connection_losses += t.connection_losses;
  out->reconnects += t.reconnects;
  out->measured_s = std::max(out->measured_s, t.measured_s);
  out->interrupted = out->interrupted || t.interrupted;
  out->server_lost = out->server_lost || t.server_lost;
  if (out->server_lost_reason.empty()) out->server_lost_reason = t.server_lost_reason;
  out->unmeasured_committed += t.unmeasured_committed;
  out->txn_latency.Merge(t.txn_latency);
  out->schedule_lag.Merge(t.schedule_lag);
  if (out->stmt_latency.size() < t.stmt_latency.size()) {
    out->stmt_latency.resize(t.stmt_latency.size());
  }
  for (size_t i = 0; i < t.stmt_latency.size(); ++i) out->stmt_latency[i].Merge(t.stmt_latency[i]);
  MergeVector(t.stmt_failures, &out->stmt_failures);
  MergeVector(t.script_txns, &out->script_txns);
  MergeVector(t.per_second_txns, &out->per_second_txns);
  if (out->per_second_latency_ns.size() < t.per_second_latency_ns.size()) {
    out->per_second_latency_ns.resize(t.per_second_latency_ns.size(), 0.0);
  }
  for (size_t i = 0; i < t.per_second_latency_ns.size(); ++i) {
    out->per_second_latency_ns[i] += t.per_second_latency_ns[i];
  }
  if (out->first_error.empty()) out->first_error = t.first_error;
}

StatusOr<std::vector<ClientSeed>> ConnectClients(const EngineInput& in) {
  std::vector<ClientSeed> seeds;
  for (int i = 0; i < in.config.clients; ++i) {
    auto conn = Connect(in.conninfo);
    if (!conn.ok()) return conn.status().WithContext("client " + std::to_string(i));
    if (in.config.prepared) {
      Status s = PrepareStatements(conn->get(), in.config.Mix());
      if (!s.ok()) return s.WithContext("client " + std::to_string(i));
    }
    seeds.push_back({i, std::move(conn).value()});
  }
  return StatusOr<std::vector<ClientSeed>>(std::move(seeds));
}

// Thread t's clients: [t*N/J, (t+1)*N/J), moved out of *all.
std::vector<ClientSeed> ShareOf(int t, const RunConfig& cfg, std::vector<ClientSeed>* all) {
  std::vector<ClientSeed> mine;
  for (int i = t * cfg.clients / cfg.threads; i < (t + 1) * cfg.clients / cfg.threads; ++i) {
    mine.push_back(std::move((*all)[i]));
  }
  return mine;
}

void ReportProgress(const EngineInput& in, EngineShared* shared, uint64_t* last_txns,
                    uint64_t* last_lat_ns, int64_t* last_ns) {
  int64_t now = MonotonicNs();
  uint64_t txns = 0, lat = 0, failed = 0;
  for (int t = 0; t < in.config.threads; ++t) {
    txns += shared->live[t].txns.load(std::memory_order_relaxed);
    lat += shared->live[t].latency_ns.load(std::memory_order_relaxed);
    failed += shared->live[t].failed.load(std::memory_order_relaxed);
  }
  double interval_s = NsToSec(now - *last_ns);
  uint64_t d_txns = txns - *last_txns;
  char line[200];
  std::snprintf(line, sizeof line, "progress: %.1f s, %.1f tps, lat %.3f ms, %llu failed",
                NsToSec(now - shared->run_start_ns), interval_s > 0 ? d_txns / interval_s : 0.0,
                d_txns ? NsToMs(static_cast<int64_t>((lat - *last_lat_ns) / d_txns)) : 0.0,
                static_cast<unsigned long long>(failed));
  if (now < shared->window_start_ns) std::snprintf(line + std::strlen(line), 40, " (warm-up)");
  in.progress(line);
  *last_txns = txns;
  *last_lat_ns = lat;
  *last_ns = now;
}

// Counts finished engine threads; the caller sleeps on it between progress lines, so
// it wakes only to print one or when the last thread ends (no polling).
class ThreadsDone {
 public:
  explicit ThreadsDone(int threads) : running_(threads) {}
  void OneFinished() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--running_ == 0) cv_.notify_all();
  }
  // Sleeps until every thread has finished (true) or the monotonic time deadline_ns
  // (false).
  bool WaitUntil(int64_t deadline_ns) {
    std::unique_lock<std::mutex> lock(mu_);
    std::chrono::steady_clock::time_point deadline{std::chrono::nanoseconds(deadline_ns)};
    return cv_.wait_until(lock, deadline, [this] { return running_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int running_;
};

// Sleeps until the wall clock reaches unix_ns; false when `stop` was set meanwhile.
bool SleepUntilUnix(int64_t unix_ns, const std::atomic<bool>* stop) {
  while (true) {
    if (stop != nullptr && stop->load()) return false;
    int64_t left = unix_ns - UnixNowNs();
    if (left <= 0) return true;
    int64_t step = std::min<int64_t>(left, 50 * kNsPerMs);
    struct timespec ts {
      static_cast<time_t>(step / kNsPerSec), static_cast<long>(step % kNsPerSec)
    };
    nanosleep(&ts, nullptr);
  }
}

}  // namespace

StatusOr<EngineOutput> RunEngine(const EngineInput& in) {
  const RunConfig& cfg = in.config;
  int64_t connect_start = MonotonicNs();
  auto seeds = ConnectClients(in);
  if (!seeds.ok()) return seeds.status();
  int64_t connected_ns = MonotonicNs();
  if (cfg.start_at_unix_ns > 0 && !SleepUntilUnix(cfg.start_at_unix_ns, in.stop)) {
    EngineOutput out;
    out.interrupted = true;
    return out;
  }
  EngineShared shared;
  shared.input = &in;
  shared.live = std::make_unique<LiveCounters[]>(cfg.threads);
  ClientCpu cpu_start = ProcessCpuNow();
  shared.run_start_ns = MonotonicNs();
  shared.unix_offset_ns = UnixNowNs() - shared.run_start_ns;
  std::vector<std::unique_ptr<TxnLog>> logs(cfg.threads);
  for (int t = 0; t < cfg.threads && cfg.log; ++t) {
    TxnLogOptions o{cfg.log_prefix, cfg.aggregate_interval_s, cfg.rate_tps > 0, cfg.max_tries};
    auto log = TxnLog::Open(o, t, (shared.run_start_ns + shared.unix_offset_ns) / kNsPerUs);
    if (!log.ok()) return log.status();
    logs[t] = std::move(log).value();
  }
  shared.window_start_ns = shared.run_start_ns + cfg.warmup_ns;
  shared.window_end_ns = cfg.duration_ns > 0 ? shared.window_start_ns + cfg.duration_ns : INT64_MAX;

  // With one thread and no progress lines the calling thread drives the clients itself,
  // so the process stays single-threaded like pgbench -j 1 (measured: less CPU per
  // transaction); otherwise it watches the threads and prints progress.
  const bool caller_drives = cfg.threads == 1 && (cfg.progress_ns <= 0 || !in.progress);
  shared.tick_ns = caller_drives ? kLoneTickNs : kSharedTickNs;
  std::vector<EngineOutput> outs(cfg.threads);
  std::vector<Status> statuses(cfg.threads);
  std::vector<std::thread> threads;
  ThreadsDone done(cfg.threads);
  auto drive = [&](int t, std::vector<ClientSeed> mine) {
    statuses[t] = RunEngineThread(&shared, t, std::move(mine), logs[t].get(), &outs[t]);
    done.OneFinished();
  };
  for (int t = 0; t < cfg.threads; ++t) {
    std::vector<ClientSeed> mine = ShareOf(t, cfg, &seeds.value());
    if (caller_drives && t == cfg.threads - 1) {
      drive(t, std::move(mine));
    } else {
      threads.emplace_back(drive, t, std::move(mine));
    }
  }
  if (!caller_drives && cfg.progress_ns > 0 && in.progress) {
    uint64_t last_txns = 0, last_lat = 0;
    int64_t last_ns = shared.run_start_ns;
    while (!done.WaitUntil(last_ns + cfg.progress_ns)) {
      ReportProgress(in, &shared, &last_txns, &last_lat, &last_ns);
    }
  }
  for (std::thread& th : threads) th.join();
  ClientCpu cpu_end = ProcessCpuNow();
  EngineOutput out;
  out.connect_s = NsToSec(connected_ns - connect_start);
  for (int t = 0; t < cfg.threads; ++t) {
    if (!statuses[t].ok()) return statuses[t];
    MergeOutput(outs[t], &out);
  }
  for (auto& log : logs) {
    if (log == nullptr) continue;
    Status s = log->Close();
    if (!s.ok()) return s;
    out.txn_logs.push_back(log->path());
  }
  out.cpu = CpuDelta(cpu_start, cpu_end);
  out.cpu.committed = out.transactions + out.unmeasured_committed;
  return out;
}

}  // namespace pgstorsim
