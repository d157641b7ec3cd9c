// Measured: what calibrate and validation read from benchmark output, whatever the
// tool. Parsers for our results JSON (kind run/replay), pgbench -r text (9.x and 15
// formats), fio JSON (--output-format=json), randomio's interval table and bonnie++'s
// text report.
//
// Units: tps in transactions per second; latencies in milliseconds (*_ms); IOPS in
// operations per second; throughputs in bytes per second. Statement names use the
// project's vocabulary ("BEGIN", "UPDATE accounts", ..., "END"). Values a tool does not
// report stay 0 / absent. Thread safety: pure functions; ParseMeasuredFile reads a file.
#ifndef PGSTORSIM_MODEL_MEASURED_H_
#define PGSTORSIM_MODEL_MEASURED_H_

#include <map>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

// bonnie++'s seek test: each seek reads a chunk, and one in ten (its UpdateSeek) is
// then written back to the same place: requests per seek.
constexpr double kBonnieRequestsPerSeek = 1.1;

struct Measured {
  std::string source;  // File name (and block) it came from.
  std::string tool;    // "pgbench", "results", "fio", "randomio", "bonnie++".
  std::string label;   // Machine/test label where the tool prints one.
  double tps = 0;
  std::map<std::string, double> statement_latency_ms;  // Mean per statement.
  // Device-level figures (randomio, fio, bonnie++, a replayed io workload: the
  // device benchmark of `probe`); tps stays 0 for them.
  double read_iops = 0;
  double write_iops = 0;
  double read_latency_ms = 0;        // Mean.
  double write_latency_ms = 0;       // Mean.
  double seeks_per_s = 0;            // bonnie++ random seeks (kBonnieRequestsPerSeek).
  double seq_read_bytes_per_s = 0;   // bonnie++ block input / fio.
  double seq_write_bytes_per_s = 0;  // bonnie++ block output.
  double rewrite_bytes_per_s = 0;    // bonnie++ rewrite.
  // What the measurement ran at, as scenario keys and values ("workload.scale" -> "10",
  // "workload.clients", "workload.type", "workload.protocol", "workload.cache"); a key
  // the input does not record is absent. model/measured_conditions.h checks them.
  std::map<std::string, std::string> conditions;
};

// pgbench -r output. Conditions from the header lines ("transaction type:", "scaling
// factor:", "query mode:", "number of clients:") or, without them (9.x), from a
// pgbench command line echoed above the output (-c, -M, -S, -N, -b). Takes "tps = X (excluding
// ...)" / "(without initial connection time)" in preference to the "including" figure; statement
// lines of both the 9.x layout ("latency  SQL") and the 15 layout ("latency  failures  SQL"); skips
// \set lines. Fails when no tps line is present.
StatusOr<Measured> ParsePgbenchText(const std::string& text, const std::string& source);
// randomio's table: averages every data row ("total | read iops min avg max sdev |
// write ..."), weighting latencies by IOPS. Fails when there is no data row.
StatusOr<Measured> ParseRandomioText(const std::string& text, const std::string& source);
// bonnie++ 1.9x text report: the first result row after the "Machine  Size" header.
StatusOr<Measured> ParseBonnieText(const std::string& text, const std::string& source);
// fio JSON: sums IOPS over jobs, IOPS-weighted mean completion latency.
StatusOr<Measured> ParseFioJson(const std::string& text, const std::string& source);
// pgstorsim results JSON of kind run, replay or simulate: tps and statement means;
// conditions from the run's config.scenario (or older runs' option names), the replayed
// trace's meta, a device benchmark's config.scenario (a replay of no trace) or the
// simulated scenario. A replay whose conditions are an io workload (workload.type = io)
// gives device figures: read and write requests per second and their mean latencies
// (a write's including the fsync after it), tps 0.
StatusOr<Measured> ParseResultsJson(const std::string& text, const std::string& source);

// Detects the format from the content and parses it. Errors name the file.
StatusOr<Measured> ParseMeasuredText(const std::string& text, const std::string& source);
StatusOr<Measured> ParseMeasuredFile(const std::string& path);

// Maps pgbench's SQL text to the project's statement name ("BEGIN;" -> "BEGIN",
// "UPDATE pgbench_accounts SET ..." -> "UPDATE accounts"); "" when unknown.
std::string StatementNameForSql(const std::string& sql);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_MEASURED_H_
