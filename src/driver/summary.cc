#include "driver/summary.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "common/units.h"
#include "driver/statement_sql.h"

namespace pgstorsim {
namespace {

void Line(std::string* out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void Line(std::string* out, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  *out += buf;
  *out += '\n';
}

double Percent(uint64_t part, uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

double SummaryTps(const EngineOutput& out) {
  return out.measured_s > 0 ? out.transactions / out.measured_s : 0.0;
}

std::string FormatRunSummary(const RunConfig& c, int scale, const EngineOutput& out) {
  std::string s;
  uint64_t total = out.transactions + out.failed;
  Line(&s, "transaction type: %s",
       c.Mix().entries.size() == 1 ? c.Mix().entries[0].title.c_str() : "multiple scripts");
  Line(&s, "scaling factor: %d", scale);
  Line(&s, "query mode: %s", c.prepared ? "prepared" : "simple");
  Line(&s, "number of clients: %d", c.clients);
  Line(&s, "number of threads: %d", c.threads);
  Line(&s, "maximum number of tries: %d", c.max_tries);
  if (c.duration_ns > 0) {
    Line(&s, "duration: %lld s", static_cast<long long>(c.duration_ns / kNsPerSec));
  } else {
    Line(&s, "number of transactions per client: %lld",
         static_cast<long long>(c.transactions_per_client));
  }
  Line(&s, "number of transactions actually processed: %llu",
       static_cast<unsigned long long>(out.transactions));
  Line(&s, "number of failed transactions: %llu (%.3f%%)",
       static_cast<unsigned long long>(out.failed), Percent(out.failed, total));
  if (c.max_tries > 1) {
    Line(&s, "number of transactions retried: %llu (%.3f%%)",
         static_cast<unsigned long long>(out.retried), Percent(out.retried, total));
    Line(&s, "total number of retries: %llu", static_cast<unsigned long long>(out.retries));
  }
  Line(&s, "latency average = %.3f ms", out.txn_latency.mean_ns() / kNsPerMs);
  Line(&s, "latency stddev = %.3f ms", out.txn_latency.stddev_ns() / kNsPerMs);
  if (c.rate_tps > 0) {
    Line(&s, "rate limit schedule lag: avg %.3f (max %.3f) ms",
         out.schedule_lag.mean_ns() / kNsPerMs, NsToMs(out.schedule_lag.max_ns()));
  }
  Line(&s, "initial connection time = %.3f ms", out.connect_s * 1000);
  Line(&s, "tps = %f (without initial connection time)", SummaryTps(out));
  const ScriptMix& mix = c.Mix();
  for (size_t k = 0; k < mix.entries.size(); ++k) {
    const ScriptEntry& e = mix.entries[k];
    if (mix.entries.size() > 1) {
      uint64_t n = k < out.script_txns.size() ? out.script_txns[k] : 0;
      Line(&s, "SQL script %zu: %s", k + 1, e.title.c_str());
      Line(&s, " - weight: %d (targets %.1f%% of total)", e.weight,
           100.0 * e.weight / static_cast<double>(mix.total_weight));
      Line(&s, " - %llu transactions (%.1f%% of total, tps = %f)",
           static_cast<unsigned long long>(n), Percent(n, out.transactions),
           out.measured_s > 0 ? n / out.measured_s : 0.0);
    }
    Line(&s, "%sstatement latencies in milliseconds and failures:",
         mix.entries.size() > 1 ? " - " : "");
    for (size_t i = e.first_slot; i < e.first_slot + e.slots && i < out.stmt_latency.size();
         ++i) {
      Line(&s, "  %12.3f  %10llu  %s", out.stmt_latency[i].mean_ns() / kNsPerMs,
           static_cast<unsigned long long>(out.stmt_failures[i]), mix.slots[i].sql.c_str());
    }
  }
  Line(&s, "statement latency percentiles in milliseconds:");
  Line(&s, "  %-16s %9s %9s %9s %9s", "statement", "p50", "p95", "p99", "max");
  for (size_t i = 0; i < mix.slots.size() && i < out.stmt_latency.size(); ++i) {
    const LatencyHistogram& h = out.stmt_latency[i];
    Line(&s, "  %-16s %9.3f %9.3f %9.3f %9.3f", mix.slots[i].name.c_str(),
         NsToMs(h.PercentileNs(0.50)), NsToMs(h.PercentileNs(0.95)),
         NsToMs(h.PercentileNs(0.99)), NsToMs(h.max_ns()));
  }
  const LatencyHistogram& t = out.txn_latency;
  Line(&s, "  %-16s %9.3f %9.3f %9.3f %9.3f", "transaction", NsToMs(t.PercentileNs(0.50)),
       NsToMs(t.PercentileNs(0.95)), NsToMs(t.PercentileNs(0.99)), NsToMs(t.max_ns()));
  const ClientCpu& cpu = out.cpu;
  if (cpu.committed > 0) {
    double n = static_cast<double>(cpu.committed);
    Line(&s,
         "client CPU per transaction: %.1f us (user %.1f, sys %.1f), %.2f sleeps, over %llu "
         "committed, connections and reports excluded",
         cpu.UsPerTransaction(), cpu.user_s * 1e6 / n, cpu.sys_s * 1e6 / n,
         cpu.voluntary_switches / n, static_cast<unsigned long long>(cpu.committed));
  }
  return s;
}

std::string FormatServerStats(const StatCounters& delta, uint64_t committed) {
  auto get = [&](const char* key) {
    auto it = delta.find(key);
    return it == delta.end() ? -1.0 : it->second;
  };
  auto ratio = [&](const char* key) {
    char buf[16];
    double v = get(key);
    if (v < 0) return std::string("n/a");
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return std::string(buf);
  };
  std::string s;
  const double n = committed > 0 ? static_cast<double>(committed) : 1.0;
  Line(&s, "server statistics during the run (whole cluster, %llu transactions):",
       static_cast<unsigned long long>(committed));
  if (get("wal.wal_bytes") >= 0) {
    Line(&s, "  WAL per transaction: %.0f bytes, %.3f full-page images (%.1f MiB, %.0f FPIs)",
         get("wal.wal_bytes") / n, get("wal.wal_fpi") / n, get("wal.wal_bytes") / (1 << 20),
         get("wal.wal_fpi"));
  }
  Line(&s, "  shared buffer hit ratio: heap %s, indexes %s", ratio("tables.heap_hit_ratio").c_str(),
       ratio("indexes.idx_hit_ratio").c_str());
  if (get("bgwriter.checkpoints_timed") >= 0) {
    Line(&s, "  checkpoints: %.0f timed, %.0f requested", get("bgwriter.checkpoints_timed"),
         get("bgwriter.checkpoints_req"));
    Line(&s, "  buffers written: checkpointer %.0f, background writer %.0f, backends %.0f",
         get("bgwriter.buffers_checkpoint"), get("bgwriter.buffers_clean"),
         get("bgwriter.buffers_backend"));
  }
  return s;
}

nlohmann::json ClientCpuJson(const ClientCpu& cpu) {
  return {{"scope",
           "this process, all threads, from all clients connected to the last engine thread's "
           "end (warm-up included; connection set-up, server statistics and results excluded)"},
          {"user_s", cpu.user_s},
          {"sys_s", cpu.sys_s},
          {"committed", cpu.committed},
          {"us_per_transaction", cpu.UsPerTransaction()},
          {"voluntary_switches", cpu.voluntary_switches},
          {"involuntary_switches", cpu.involuntary_switches},
          {"minor_faults", cpu.minor_faults}};
}

std::vector<StatementResult> StatementResults(const RunConfig& c, const EngineOutput& out) {
  std::vector<StatementResult> results;
  const ScriptMix& mix = c.Mix();
  for (size_t i = 0; i < mix.slots.size() && i < out.stmt_latency.size(); ++i) {
    auto same = std::find_if(results.begin(), results.end(), [&](const StatementResult& r) {
      return r.name == mix.slots[i].name;
    });
    if (same != results.end()) {  // Builtin scripts of a mix share statement names.
      same->failures += out.stmt_failures[i];
      same->latency.Merge(out.stmt_latency[i]);
      continue;
    }
    StatementResult r;
    r.name = mix.slots[i].name;
    r.sql = mix.slots[i].sql;
    r.failures = out.stmt_failures[i];
    r.latency = out.stmt_latency[i];
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<IntervalSample> SeriesFromPerSecond(const EngineOutput& out, int interval_s) {
  std::vector<IntervalSample> series;
  interval_s = std::max(1, interval_s);
  size_t n = out.per_second_txns.size();
  for (size_t start = 0; start < n; start += interval_s) {
    uint64_t txns = 0;
    double latency_ns = 0;
    size_t end = std::min(n, start + interval_s);
    for (size_t i = start; i < end; ++i) {
      txns += out.per_second_txns[i];
      latency_ns += out.per_second_latency_ns[i];
    }
    double t_end = std::min<double>(static_cast<double>(start + interval_s),
                                    std::max(out.measured_s, static_cast<double>(start) + 1e-9));
    double length = t_end - static_cast<double>(start);
    IntervalSample sample;
    sample.t_s = t_end;
    sample.transactions = txns;
    sample.tps = length > 0 ? txns / length : 0.0;
    sample.mean_latency_ms = txns ? latency_ns / txns / kNsPerMs : 0.0;
    series.push_back(sample);
  }
  return series;
}

}  // namespace pgstorsim
