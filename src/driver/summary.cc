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
  Line(&s, "transaction type: %s", WorkloadPgbenchTitle(c.workload));
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
  const auto& defs = DriverStatements(c.workload);
  Line(&s, "statement latencies in milliseconds and failures:");
  for (size_t i = 0; i < defs.size() && i < out.stmt_latency.size(); ++i) {
    Line(&s, "  %12.3f  %10llu  %s", out.stmt_latency[i].mean_ns() / kNsPerMs,
         static_cast<unsigned long long>(out.stmt_failures[i]), defs[i].sql.c_str());
  }
  Line(&s, "statement latency percentiles in milliseconds:");
  Line(&s, "  %-16s %9s %9s %9s %9s", "statement", "p50", "p95", "p99", "max");
  for (size_t i = 0; i < defs.size() && i < out.stmt_latency.size(); ++i) {
    const LatencyHistogram& h = out.stmt_latency[i];
    Line(&s, "  %-16s %9.3f %9.3f %9.3f %9.3f", defs[i].name(), NsToMs(h.PercentileNs(0.50)),
         NsToMs(h.PercentileNs(0.95)), NsToMs(h.PercentileNs(0.99)), NsToMs(h.max_ns()));
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
  const auto& defs = DriverStatements(c.workload);
  for (size_t i = 0; i < defs.size() && i < out.stmt_latency.size(); ++i) {
    StatementResult r;
    r.name = defs[i].name();
    r.sql = defs[i].sql;
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
