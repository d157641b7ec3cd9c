#include "probe/device_benchmark.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "common/units.h"
#include "replay/pattern.h"
#include "replay/report.h"
#include "replay/session.h"
#include "replay/target.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace {

// The scratch file the benchmark created, and its marker (replay/target.h).
void RemoveScratch(const std::string& path) {
  unlink(path.c_str());
  unlink(CreatedMarkerPath(path).c_str());
}

struct Pattern {
  const char* name;
  const char* pattern;  // replay/pattern.h.
  int clients;
  bool writes;      // Writes only, each followed by an fsync; else reads only.
  bool sequential;  // Each client's region in order, one pass repeated; else random.
  int64_t request_bytes;
  int64_t max_seconds;  // 0: --benchmark-seconds; else at most this long.
};

// A sequential stream's rate settles within a few hundred 1 MiB requests, far fewer
// than random reads need to average positioning: seqread keeps the probe short.
const Pattern kPatterns[] = {{"randread-qd1", "randread", 1, false, false, 8192, 0},
                             {"randread-qd32", "randread", 32, false, false, 8192, 0},
                             {"seqread", "seqread", 1, false, true, 1 << 20, 2},
                             {"write-fsync", "seqwrite-fsync", 1, true, true, 8192, 0}};

int64_t SecondsOf(const DeviceBenchmarkOptions& o, const Pattern& p) {
  return p.max_seconds > 0 ? std::min(o.seconds_per_pattern, p.max_seconds) : o.seconds_per_pattern;
}

// The io workload a pattern runs, as scenario keys (docs/scenario-format.md, "Device
// workloads"): the replayer (psync engine) gives each trace client its own worker, and a
// worker has one request outstanding, so "QD32" is 32 jobs (workload.clients) at
// workload.io_depth 1 each; requests of the pattern's size on one file of size_bytes,
// opened with O_DIRECT, for SecondsOf the pattern.
std::map<std::string, std::string> IoWorkloadKeys(const DeviceBenchmarkOptions& o,
                                                  const Pattern& p) {
  return {{"workload.type", "io"},
          {"workload.clients", std::to_string(p.clients)},
          {"workload.io_depth", "1"},
          {"workload.io_size", std::to_string(p.request_bytes)},
          {"workload.read_fraction", p.writes ? "0" : "1"},
          {"workload.io_access", p.sequential ? "sequential" : "random"},
          {"workload.io_fsync_writes", p.writes ? "on" : "off"},
          {"workload.io_direct", "on"},
          {"workload.file_size", std::to_string(o.size_bytes)},
          {"workload.duration", std::to_string(SecondsOf(o, p)) + "s"}};
}

StatusOr<Results> RunPattern(const DeviceBenchmarkOptions& o, const Pattern& p,
                             const std::atomic<bool>* stop) {
  auto io_keys = StatedResultsKeys(IoWorkloadKeys(o, p));
  if (!io_keys.ok()) return io_keys.status();
  PatternOptions po;
  po.name = p.pattern;
  po.file_bytes = o.size_bytes;
  po.clients = p.clients;
  po.block_bytes = p.request_bytes;
  // The replayer repeats the trace until the duration: a short trace is enough; a
  // sequential one is one pass over each client's region, so a repeat goes on in order.
  po.ops_per_client = p.sequential
                          ? std::max<int64_t>(1, o.size_bytes / p.request_bytes / p.clients)
                          : std::max(2000, 50000 / p.clients);
  po.interarrival_ns = 0;
  TraceHeader header;
  std::vector<TraceRecord> records;
  Status s = MakePatternTrace(po, &header, &records);
  if (!s.ok()) return s;
  ReplayTargets targets;
  targets.target = o.path;
  ReplayOptions ro;
  ro.duration_ns = SecondsOf(o, p) * kNsPerSec;
  ro.stop = stop;
  PreparedReplay prepared;
  auto outcome = ReplayTrace(header, records, targets, ro, &prepared);
  if (!outcome.ok()) return outcome.status();
  Results r = MakeReplayResults(
      *outcome, prepared, ro.interval_ns,
      {{"device_benchmark", p.name}, {"path", o.path}, {"scenario", *io_keys}}, header.meta);
  r.label = std::string("device benchmark ") + p.name;
  r.complete = !outcome->interrupted;
  return r;
}

}  // namespace

StatusOr<std::vector<DeviceMeasurement>> RunDeviceBenchmark(
    const DeviceBenchmarkOptions& o, const std::atomic<bool>* stop,
    const std::function<void(const std::string&)>& print) {
  struct stat st {};
  const bool existed = stat(o.path.c_str(), &st) == 0;
  const bool device = existed && S_ISBLK(st.st_mode);
  if (existed && !device && !S_ISREG(st.st_mode)) {
    return Status::Error("--device-benchmark " + o.path + ": not a block device or regular file");
  }
  std::vector<DeviceMeasurement> out;
  for (const Pattern& p : kPatterns) {
    if (p.writes && existed) {
      if (print) {
        print("device benchmark: " + std::string(p.name) + " skipped: " + o.path +
              (device ? " is a device (read-only)"
                      : " is an existing file pgstorsim did not create"));
      }
      continue;
    }
    auto r = RunPattern(o, p, stop);
    if (!r.ok()) {
      if (!existed) RemoveScratch(o.path);
      return r.status().WithContext(std::string("--device-benchmark ") + p.name);
    }
    if (print) {
      char line[200];
      std::snprintf(line, sizeof line,
                    "device benchmark: %-14s %10.0f ops/s %9.1f MiB/s  mean %.3f ms", p.name,
                    r->tps, r->tps * p.request_bytes / (1 << 20),
                    r->transaction_latency.mean_ns() / kNsPerMs);
      print(line);
    }
    out.push_back({p.name, p.clients, p.request_bytes, std::move(r).value()});
    if (stop != nullptr && stop->load()) break;
  }
  if (!existed) RemoveScratch(o.path);
  return out;
}

}  // namespace pgstorsim
