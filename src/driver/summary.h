// Turning an engine run into the pgbench-style text summary and into the results
// document's statements and series. Pure functions; thread safety: none needed.
#ifndef PGSTORSIM_DRIVER_SUMMARY_H_
#define PGSTORSIM_DRIVER_SUMMARY_H_

#include <string>
#include <vector>

#include "common/results.h"
#include "driver/engine.h"
#include "driver/run_options.h"
#include "pg/server_stats.h"

namespace pgstorsim {

// tps as pgbench reports it (without initial connection time): committed / measured_s.
double SummaryTps(const EngineOutput& out);

// The text printed at the end of `pgstorsim run`: pgbench's summary lines
// (transaction type ... tps = N (without initial connection time)), the
// "statement latencies in milliseconds and failures:" block, and a
// "statement latency percentiles in milliseconds" block (p50 p95 p99 max), then one
// "client CPU per transaction: ..." line (see ClientCpu) when anything committed.
std::string FormatRunSummary(const RunConfig& config, int scale, const EngineOutput& out);

// The server statistics block printed after the latency block: WAL bytes and
// full-page images per transaction, buffer hit ratios, checkpoints, buffers written by
// the checkpointer, the background writer and backends. `delta` is StatsDelta of the
// run (whole cluster), `committed` the transactions it covers (warm-up included).
std::string FormatServerStats(const StatCounters& delta, uint64_t committed);

// sections.client_cpu of the results: the ClientCpu fields, us_per_transaction, and a
// "scope" sentence saying what the span covers.
nlohmann::json ClientCpuJson(const ClientCpu& cpu);

// Statement results (names from workload.h) with their SQL text.
std::vector<StatementResult> StatementResults(const RunConfig& config, const EngineOutput& out);

// Per-second counts aggregated into samples of `interval_s` seconds (>= 1); a partial
// last interval uses its real length, capped by measured_s.
std::vector<IntervalSample> SeriesFromPerSecond(const EngineOutput& out, int interval_s);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_SUMMARY_H_
