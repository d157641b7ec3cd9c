// Private to src/report: the one actionable recommendation at the top of a report,
// derived only from the inputs, with the assumptions it rests on spelled out.
//
// Rules (documented in docs/report.md):
//  1. Two or more comparable measured results (same kind, run with run or replay with
//     replay, and the same workload conditions: clients, scale, cache...): the baseline
//     is the first measured result with a comparable one; the best of its comparable
//     group is the highest tps; a replay is never compared with a run. The headline names the
//     config keys that differ between baseline and best with the best's values, the measured gain,
//     and, when a model result (prediction section or sweep row) agrees with the best on those
//     keys, the predicted tps range: "stripe 1 MiB: +146% tps (626 vs 254 measured), predicted
//     600-650". A gain under 5% is reported as no clear gain (keep the current one).
//  2. Otherwise, a model result with sections.sweep: the best row by tps against the
//     sweep's base row ("base": true, else the first row), among the rows that differ
//     from it only in configuration choices (config.sweep.roles); a sweep of workload
//     keys only is a projection, never a recommendation.
//  3. Otherwise: says that the data do not support a recommendation and what is needed.
#ifndef PGSTORSIM_REPORT_RECOMMENDATION_H_
#define PGSTORSIM_REPORT_RECOMMENDATION_H_

#include <string>
#include <vector>

#include "report/report.h"

namespace pgstorsim {
namespace report {

struct Recommendation {
  std::string headline;
  std::vector<std::string> evidence;     // Supporting numbers (latency changes etc.).
  std::vector<std::string> assumptions;  // What must hold for the headline to apply.
  bool from_model_sweep = false;         // Rule 2 (the answer section says it better).
};

Recommendation Recommend(const std::vector<ReportInput>& inputs);

}  // namespace report
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_RECOMMENDATION_H_
