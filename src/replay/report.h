// Replay output: the randomio-style per-interval table, the latency percentiles and
// per-device summary printed by `pgstorsim replay`, and its Results document (kind
// "replay": summary, transaction latency, one "statement" per I/O class, a series per
// interval, and sections.devices / intervals / errors / trace).
// Thread safety: pure functions.
#ifndef PGSTORSIM_REPLAY_REPORT_H_
#define PGSTORSIM_REPLAY_REPORT_H_

#include <nlohmann/json.hpp>
#include <ostream>

#include "common/results.h"
#include "replay/replayer.h"
#include "replay/session.h"

namespace pgstorsim {

// The whole table after the fact, or (live) its header and one row at a time.
void PrintIntervalTable(const ReplayOutcome& outcome, int64_t interval_ns, std::ostream& out);
void PrintIntervalHeader(std::ostream& out);
void PrintIntervalRow(const IntervalStats& row, double seconds, std::ostream& out);
void PrintSummary(const ReplayOutcome& outcome, const PreparedReplay& prepared, std::ostream& out);
Results MakeReplayResults(const ReplayOutcome& outcome, const PreparedReplay& prepared,
                          int64_t interval_ns, const nlohmann::json& config,
                          const nlohmann::json& trace_meta);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_REPORT_H_
