// Results files read as capacity-planning questions: objective, sweep rows and key roles.
#include "report/report_questions.h"

#include <map>
#include <utility>

namespace pgstorsim {
namespace report {
namespace {

using json = nlohmann::json;

std::optional<Objective> ObjectiveOf(const Results& r) {
  if (!r.sections.is_object() || !r.sections.contains("slo")) return std::nullopt;
  const json& slo = r.sections["slo"];
  if (!slo.is_object() || !slo.contains("metric") || !slo.contains("limit")) return std::nullopt;
  Objective o;
  o.text = slo.value("objective", "");
  o.metric = slo.value("metric", "");
  o.at_most = slo.value("at_most", true);
  o.limit = slo.value("limit", 0.0);
  if (slo.contains("configurations") && slo["configurations"].is_array()) {
    o.configurations = slo["configurations"];
  }
  return o;
}

}  // namespace

std::vector<Question> QuestionsOf(const Inputs& inputs) {
  std::vector<Question> out;
  for (const ReportInput& in : inputs) {
    Question q{&in, SweepRowsOf(in.results), {}, {}, ObjectiveOf(in.results)};
    if (q.rows.empty() && !q.objective) continue;
    const std::map<std::string, std::string> roles = SweepRolesOf(in.results);
    for (const auto& [key, role] : roles) {
      (role == "choice" ? q.choices : q.workload).push_back(key);
    }
    if (roles.empty() && !q.rows.empty()) {  // Results that record no roles: every swept
      for (const auto& [key, value] : q.rows.front().settings) q.choices.push_back(key);
    }
    out.push_back(std::move(q));
  }
  return out;
}

bool SameOn(const SweepRow& a, const SweepRow& b, const std::vector<std::string>& keys) {
  for (const std::string& k : keys) {
    auto x = a.settings.find(k), y = b.settings.find(k);
    if ((x == a.settings.end()) != (y == b.settings.end())) return false;
    if (x != a.settings.end() && x->second != y->second) return false;
  }
  return true;
}

}  // namespace report
}  // namespace pgstorsim
