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
//  2. Otherwise, a model result with a sweep or an objective is a planning question,
//     answered by the answer section (report_answer.cc), the one place that chooses among
//     swept configurations.
//  3. Otherwise: says that the data do not support a recommendation and what is needed.
#ifndef PGSTORSIM_REPORT_RECOMMENDATION_H_
#define PGSTORSIM_REPORT_RECOMMENDATION_H_

#include <optional>
#include <string>
#include <vector>

#include "report/report.h"

namespace pgstorsim {
namespace report {

struct Recommendation {
  std::string headline;
  std::vector<std::string> evidence;     // Supporting numbers (latency changes etc.).
  std::vector<std::string> assumptions;  // What must hold for the headline to apply.
};

// Rule 1; nullopt when no two measured results are comparable.
std::optional<Recommendation> RecommendFromMeasured(const std::vector<ReportInput>& inputs);

// Rule 3: what input would allow a recommendation.
Recommendation NoRecommendation();

}  // namespace report
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_RECOMMENDATION_H_
