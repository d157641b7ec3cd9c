// Joining the results of drivers that ran at the same time against one server (e.g.
// `run --start-at` on several client hosts) into one results document.
//
// CheckSameExperiment refuses parts that do not describe one experiment: a kind other
// than "run", a different server (environment.server.system_identifier, or host, port
// and database when a part could not read the identifier), or a different schema (the
// scale, the scripts and the statement names). MergeResults then adds counts and
// histograms (Results::Merge: statements matched by name), adds the per-interval
// series sample by sample (same interval length required; tps add, mean latency is
// weighted by transactions), adds clients and threads in the config, and keeps each
// part's file, tps and creation time under sections.merged_parts. The server
// statistics of the first part are kept (they are the whole cluster's, so every part
// saw the same ones over nearly the same span). Thread safety: pure functions.
#ifndef PGSTORSIM_COMMON_RESULTS_MERGE_H_
#define PGSTORSIM_COMMON_RESULTS_MERGE_H_

#include <string>
#include <vector>

#include "common/results.h"
#include "common/status.h"

namespace pgstorsim {

// `names` label the parts in errors (file names). Errors name the part that differs.
Status CheckSameExperiment(const std::vector<Results>& parts, const std::vector<std::string>& names);

// REQUIRES: !parts.empty(). Runs CheckSameExperiment first.
StatusOr<Results> MergeResults(const std::vector<Results>& parts,
                               const std::vector<std::string>& names);

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_RESULTS_MERGE_H_
