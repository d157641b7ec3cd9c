// Private to src/report: a results file with a sweep or an objective read as a planning question.
#ifndef PGSTORSIM_REPORT_REPORT_QUESTIONS_H_
#define PGSTORSIM_REPORT_REPORT_QUESTIONS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/report_data.h"
#include "report/report_sections.h"

namespace pgstorsim {
namespace report {

// The objective of a results file (sections.slo), if any.
struct Objective {
  std::string text, metric;
  bool at_most = true;
  double limit = 0;
  nlohmann::json configurations = nlohmann::json::array();
};

// One results file with a sweep or an objective: its sweep rows, its swept keys split
// by role into configuration choices and workload keys, and its objective. Key roles
// come from the results (config.sweep.roles), never from key names; results that record
// none (written before roles were) have every swept key taken as a configuration choice.
struct Question {
  const ReportInput* input;
  std::vector<SweepRow> rows;
  std::vector<std::string> choices, workload;
  std::optional<Objective> objective;
};

// The questions of `inputs`, in input order; inputs with neither sweep rows nor an
// objective are left out.
std::vector<Question> QuestionsOf(const Inputs& inputs);

// True when `a` and `b` have the same value (or both none) for every key in `keys`.
bool SameOn(const SweepRow& a, const SweepRow& b, const std::vector<std::string>& keys);

}  // namespace report
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_REPORT_QUESTIONS_H_
