#include "replay/report.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "common/units.h"

namespace pgstorsim {
namespace {

std::string Fmt(const char* format, double a) {
  char buf[64];
  snprintf(buf, sizeof buf, format, a);
  return buf;
}

// "  iops   min    avg    max   sdev" cells for one direction of one interval.
std::string Cells(const LatencyAcc& acc, double seconds) {
  std::string s = Fmt("%7.1f", static_cast<double>(acc.count) / seconds);
  if (acc.count == 0) return s + "     -       -       -       - ";
  const double mean = acc.sum_ns / static_cast<double>(acc.count);
  const double var = acc.sum_sq_ns2 / static_cast<double>(acc.count) - mean * mean;
  s += Fmt(" %6.2f", NsToMs(acc.min_ns)) + Fmt(" %7.2f", mean / kNsPerMs) +
       Fmt(" %7.2f", NsToMs(acc.max_ns)) + Fmt(" %7.2f ", std::sqrt(std::max(0.0, var)) / kNsPerMs);
  return s;
}

double IntervalSeconds(const ReplayOutcome& o, size_t i, int64_t interval_ns) {
  const int64_t begin = static_cast<int64_t>(i) * interval_ns;
  const int64_t end = std::min<int64_t>(begin + interval_ns, std::max(o.elapsed_ns, begin + 1));
  return NsToSec(end - begin);
}

void PrintLatencyRow(const char* name, const LatencyHistogram& h, std::ostream& out) {
  if (h.count() == 0) return;
  char buf[160];
  snprintf(buf, sizeof buf, "%-12s %9llu %8.3f %8.3f %8.3f %8.3f %8.3f\n", name,
           static_cast<unsigned long long>(h.count()), h.mean_ns() / kNsPerMs,
           NsToMs(h.PercentileNs(0.5)), NsToMs(h.PercentileNs(0.95)), NsToMs(h.PercentileNs(0.99)),
           NsToMs(h.max_ns()));
  out << buf;
}

nlohmann::json AccJson(const LatencyAcc& a) {
  const double n = static_cast<double>(a.count);
  const double mean = a.count ? a.sum_ns / n : 0;
  const double var = a.count ? a.sum_sq_ns2 / n - mean * mean : 0;
  return {{"count", a.count},
          {"min_ms", NsToMs(a.min_ns)},
          {"mean_ms", mean / kNsPerMs},
          {"max_ms", NsToMs(a.max_ns)},
          {"stddev_ms", std::sqrt(std::max(0.0, var)) / kNsPerMs}};
}

}  // namespace

void PrintIntervalHeader(std::ostream& out) {
  out << "  total |  read:          latency (ms)           |  write:         latency (ms)\n"
      << "   iops |    iops    min     avg     max    sdev |    iops    min     avg     max    "
         "sdev\n"
      << "--------+----------------------------------------+-------------------------------------"
         "---\n";
}

void PrintIntervalRow(const IntervalStats& iv, double sec, std::ostream& out) {
  out << Fmt("%7.1f", static_cast<double>(iv.reads.count + iv.writes.count) / sec) << " |"
      << Cells(iv.reads, sec) << "|" << Cells(iv.writes, sec) << "\n";
}

void PrintIntervalTable(const ReplayOutcome& o, int64_t interval_ns, std::ostream& out) {
  PrintIntervalHeader(out);
  for (size_t i = 0; i < o.intervals.size(); ++i) {
    PrintIntervalRow(o.intervals[i], IntervalSeconds(o, i, interval_ns), out);
  }
}

namespace {

// Commits per WAL flush (group commit); 0 without flushes.
double CommitsPerFlush(const ReplayOutcome& o) {
  return o.wal_flushes > 0 ? static_cast<double>(o.wal_commits) / o.wal_flushes : 0.0;
}

}  // namespace

void PrintSummary(const ReplayOutcome& o, const PreparedReplay& p, std::ostream& out) {
  out << "\nlatency (ms)     count     mean      p50      p95      p99      max\n";
  PrintLatencyRow("data read", o.data_read, out);
  PrintLatencyRow("data write", o.data_write, out);
  PrintLatencyRow("wal write", o.wal_write, out);
  PrintLatencyRow("fsync", o.fsync, out);
  PrintLatencyRow("transaction", o.transaction, out);
  const double sec = NsToSec(o.elapsed_ns);
  out << "\nworkers: " << o.workers << ", transactions: " << o.transactions
      << " (failed: " << o.failed_transactions << ") in " << Fmt("%.3f", sec) << " s\n"
      << "tps = " << Fmt("%.1f", sec > 0 ? o.transactions / sec : 0)
      << ", transaction latency average = " << Fmt("%.3f", o.transaction.mean_ns() / kNsPerMs)
      << " ms, stddev = " << Fmt("%.3f", o.transaction.stddev_ns() / kNsPerMs) << " ms\n"
      << "member requests: " << o.member_requests
      << ", failed (error or short): " << o.member_errors << "\n";
  if (o.wal_flushes > 0) {
    out << "wal: " << o.wal_commits << " commits in " << o.wal_flushes << " flushes ("
        << Fmt("%.2f", CommitsPerFlush(o)) << " commits per flush: group commit)\n";
  }
  out << "\n";
  out << "device                                  role             ops      MiB    util\n";
  for (size_t i = 0; i < o.devices.size(); ++i) {
    const DeviceCounters& d = o.devices[i];
    char buf[256];
    snprintf(buf, sizeof buf, "%-39s %-14s %7llu %8.1f %6.1f%%%s\n", p.targets[i].path.c_str(),
             p.roles[i].c_str(), static_cast<unsigned long long>(d.reads + d.writes + d.fsyncs),
             static_cast<double>(d.bytes_read + d.bytes_written) / (1 << 20),
             sec > 0 ? 100.0 * NsToSec(d.busy_ns) / sec : 0.0,
             d.errors + d.short_transfers ? "  (errors)" : "");
    out << buf;
  }
}

Results MakeReplayResults(const ReplayOutcome& o, const PreparedReplay& p, int64_t interval_ns,
                          const nlohmann::json& config, const nlohmann::json& trace_meta) {
  Results r = NewResults("replay");
  r.config = config;
  r.complete = o.member_errors == 0;
  if (!r.complete) r.flags.push_back("io-errors");
  r.transactions = o.transactions;
  r.failed = o.failed_transactions;
  r.duration_s = NsToSec(o.elapsed_ns);
  r.tps = r.duration_s > 0 ? o.transactions / r.duration_s : 0;
  r.transaction_latency = o.transaction;
  r.statements = {{"data read", "", 0, o.data_read},
                  {"data write", "", 0, o.data_write},
                  {"wal write", "", 0, o.wal_write},
                  {"fsync", "", 0, o.fsync}};
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < o.devices.size(); ++i) {
    const DeviceCounters& d = o.devices[i];
    devices.push_back({{"path", p.targets[i].path},
                       {"role", p.roles[i]},
                       {"block_device", p.targets[i].block_device},
                       {"created_by_us", p.targets[i].created_by_us},
                       {"ops", d.reads + d.writes + d.fsyncs},
                       {"reads", d.reads},
                       {"writes", d.writes},
                       {"fsyncs", d.fsyncs},
                       {"bytes", d.bytes_read + d.bytes_written},
                       {"bytes_read", d.bytes_read},
                       {"bytes_written", d.bytes_written},
                       {"busy_ns", d.busy_ns},
                       {"utilization", r.duration_s > 0 ? NsToSec(d.busy_ns) / r.duration_s : 0},
                       {"errors", d.errors},
                       {"short_transfers", d.short_transfers}});
  }
  nlohmann::json intervals = nlohmann::json::array();
  for (size_t i = 0; i < o.intervals.size(); ++i) {
    const IntervalStats& iv = o.intervals[i];
    const double sec = IntervalSeconds(o, i, interval_ns);
    const double t_s = NsToSec(static_cast<int64_t>(i) * interval_ns) + sec;
    intervals.push_back({{"t_s", t_s}, {"read", AccJson(iv.reads)}, {"write", AccJson(iv.writes)}});
    r.series.push_back({t_s, iv.transactions, iv.transactions / sec,
                        iv.transactions ? iv.txn_latency_sum_ns / iv.transactions / kNsPerMs : 0});
  }
  r.sections["devices"] = devices;
  r.sections["intervals"] = intervals;
  r.sections["errors"] = {{"member_requests", o.member_requests},
                          {"member_errors", o.member_errors},
                          {"failed_records", o.failed_records},
                          {"failed_transactions", o.failed_transactions}};
  r.sections["trace"] = {{"records", p.check.records}, {"meta", trace_meta}};
  r.sections["workers"] = o.workers;
  r.sections["wal"] = {{"commits", o.wal_commits},
                       {"flushes", o.wal_flushes},
                       {"commits_per_flush", CommitsPerFlush(o)}};
  r.sections["writeback"] = {{"flusher_writes", o.flusher_writes},
                             {"dirty_bytes_at_end", o.dirty_bytes_at_end}};
  return r;
}

}  // namespace pgstorsim
