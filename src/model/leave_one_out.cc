#include "model/leave_one_out.h"

#include <map>
#include <sstream>

#include "common/file_util.h"
#include "model/calibration.h"
#include "model/storage_model.h"
#include "model/validation.h"

namespace pgstorsim {
namespace {

StatusOr<ModelErrorRow> PredictRow(const Scenario& base, const std::vector<std::string>& overrides,
                                   const std::string& table, const std::string& label,
                                   double measured_tps) {
  Scenario s = base;
  for (const std::string& o : overrides) {
    Status st = ApplyOverride(&s, o);
    if (!st.ok()) return st.WithContext(label);
  }
  Status st = ValidateScenario(s);
  if (!st.ok()) return st.WithContext(label);
  auto p = Predict(s);
  if (!p.ok()) return p.status().WithContext(label);
  return ModelErrorRow{table, label,
                       ModelErrorClass(GetScenarioKey(s, "disks.type").value(), p->regime),
                       measured_tps, p->tps};
}

// The calibrated scenario refitted on `row` alone (the fitted parameters are those with
// a standard error in its [calibration]).
StatusOr<Scenario> RefitOn(const Scenario& calibrated, const ValidationRow& row) {
  Scenario base = calibrated;
  for (const auto& [name, se] : calibrated.calibration.standard_errors) {
    base.calibration.values.erase(name);
  }
  base.calibration.standard_errors.clear();
  Measured m;
  m.source = row.label;
  m.tps = row.tps;
  m.statement_latency_ms = {{"UPDATE accounts", row.update_ms}, {"END", row.end_ms}};
  const std::vector<CalibrationInput> inputs = {{m, row.overrides}};
  auto report = Calibrate(base, inputs, DefaultFitFor(base, inputs));
  if (!report.ok()) return report.status();
  return report->calibrated;
}

std::vector<std::string> Split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, sep)) out.push_back(field);
  return out;
}

}  // namespace

StatusOr<std::vector<ModelErrorRow>> FieldLeaveOneOut(const Scenario& calibrated,
                                                      const std::vector<ValidationRow>& rows) {
  const ValidationRow* other_warm = nullptr;
  for (const ValidationRow& r : rows) {
    if (!r.calibration_row && !r.io && r.update_ms > 0) other_warm = &r;
  }
  if (other_warm == nullptr) return Status::Error("no second row with latencies to refit on");
  std::vector<ModelErrorRow> out;
  for (const ValidationRow& r : rows) {
    if (r.io) continue;
    Scenario base = calibrated;
    if (r.calibration_row) {
      auto refit = RefitOn(calibrated, *other_warm);
      if (!refit.ok()) return refit.status().WithContext("refit on " + other_warm->label);
      base = *refit;
    }
    auto row = PredictRow(base, r.overrides, "m5110e", r.label, r.tps);
    if (!row.ok()) return row.status();
    out.push_back(*row);
  }
  return out;
}

StatusOr<std::vector<ModelErrorRow>> LabLeaveOneOut(const std::string& measured_tsv,
                                                    const std::string& scenario_dir) {
  auto text = ReadFile(measured_tsv);
  if (!text.ok()) return text.status();
  std::istringstream in(*text);
  std::string line;
  std::map<std::string, size_t> col;
  std::vector<ModelErrorRow> out;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::vector<std::string> f = Split(line, '\t');
    if (n == 1) {
      for (size_t i = 0; i < f.size(); ++i) col[f[i]] = i;
      for (const char* c : {"iops", "scale", "cache", "clients", "rep", "seconds", "tps"}) {
        if (!col.count(c)) return Status::Error(measured_tsv + ": no column '" + c + "'");
      }
      continue;
    }
    if (f.size() < col.size())
      return Status::Error(measured_tsv + ":" + std::to_string(n) + ": short row");
    auto at = [&](const char* c) { return f[col[c]]; };
    auto scenario =
        LoadScenario(scenario_dir + "/lab-" + at("iops") + "-s" + at("scale") + ".toml");
    if (!scenario.ok()) return scenario.status();
    const std::string label = "i" + at("iops") + " s" + at("scale") + " " + at("cache") + " c" +
                              at("clients") + " rep" + at("rep");
    auto row =
        PredictRow(*scenario,
                   {"workload.clients=" + at("clients"), "workload.scale=" + at("scale"),
                    "workload.cache=" + at("cache"), "workload.duration=" + at("seconds") + "s"},
                   "lab-matrix", label, std::stod(at("tps")));
    if (!row.ok()) return row.status().WithContext(measured_tsv + ":" + std::to_string(n));
    out.push_back(*row);
  }
  return out;
}

}  // namespace pgstorsim
