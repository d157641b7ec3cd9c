#include "model/validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/file_util.h"
#include "common/units.h"
#include "model/storage_model.h"

namespace pgstorsim {

namespace {

std::vector<std::string> SplitOn(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) {
    if (sep != ' ' || !field.empty()) out.push_back(field);
  }
  return out;
}

StatusOr<double> Number(const std::string& text, const std::string& where) {
  double v = 0;
  if (!ParseFiniteNumber(text, &v) || v < 0) {
    return Status::Error(where + ": '" + text + "' is not a number >= 0");
  }
  return v;
}

}  // namespace

StatusOr<std::vector<ValidationRow>> ParseValidationRows(const std::string& text,
                                                         const std::string& source) {
  static const char* kColumns[] = {"label",     "kind",   "calibration", "measured",
                                   "update_ms", "end_ms", "overrides"};
  std::istringstream in(text);
  std::string line;
  std::vector<ValidationRow> rows;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = source + ":" + std::to_string(n);
    const std::vector<std::string> f = SplitOn(line, '\t');
    if (n == 1) {
      for (size_t i = 0; i < std::size(kColumns); ++i) {
        if (i >= f.size() || f[i] != kColumns[i]) {
          return Status::Error(where + ": expected column '" + kColumns[i] + "'");
        }
      }
      continue;
    }
    if (line.empty()) continue;
    if (f.size() < std::size(kColumns) - 1) return Status::Error(where + ": short row");
    ValidationRow row;
    row.label = f[0];
    if (f[1] != "pgbench" && f[1] != "io") {
      return Status::Error(where + ": kind '" + f[1] + "' (expected pgbench or io)");
    }
    row.io = f[1] == "io";
    if (f[2] != "0" && f[2] != "1") return Status::Error(where + ": calibration is 0 or 1");
    row.calibration_row = f[2] == "1";
    double* numbers[] = {&row.tps, &row.update_ms, &row.end_ms};
    for (int i = 0; i < 3; ++i) {
      auto v = Number(f[3 + i], where + ": " + kColumns[3 + i]);
      if (!v.ok()) return v.status();
      *numbers[i] = *v;
    }
    if (!(row.tps > 0)) return Status::Error(where + ": measured must be positive");
    if (f.size() > 6) row.overrides = SplitOn(f[6], ' ');
    rows.push_back(row);
  }
  if (rows.empty()) return Status::Error(source + ": no rows");
  return rows;
}

StatusOr<std::vector<ValidationRow>> LoadValidationRows(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseValidationRows(*text, path);
}

StatusOr<ValidationSummary> RunValidation(const Scenario& calibrated,
                                          const std::vector<ValidationRow>& rows) {
  ValidationSummary sum;
  int predicted = 0, io = 0;
  for (const ValidationRow& row : rows) {
    Scenario s = calibrated;
    for (const std::string& o : row.overrides) {
      Status st = ApplyOverride(&s, o);
      if (!st.ok()) return st.WithContext(row.label);
    }
    Status st = ValidateScenario(s);
    if (!st.ok()) return st.WithContext(row.label);
    if (row.io != (s.workload.type == WorkloadKind::kIo)) {
      return Status::Error(row.label + ": kind " + (row.io ? "io" : "pgbench") +
                           " but workload.type = " + GetScenarioKey(s, "workload.type").value());
    }
    StatusOr<Prediction> p = Predict(s);
    if (!p.ok()) return p.status().WithContext(row.label);
    ValidationOutcome o;
    o.row = row;
    o.tps = p->tps;
    o.tps_low = p->tps_low;
    o.tps_high = p->tps_high;
    o.regime = p->regime;
    const auto& lat = p->statement_latency_ms;
    o.update_ms = lat.count("UPDATE accounts") ? lat.at("UPDATE accounts") : 0;
    o.end_ms = lat.count("END") ? lat.at("END") : 0;
    o.tps_error = (o.tps - row.tps) / row.tps;
    if (row.update_ms > 0) o.update_error = (o.update_ms - row.update_ms) / row.update_ms;
    if (row.end_ms > 0) o.end_error = (o.end_ms - row.end_ms) / row.end_ms;
    if (row.io) {
      ++io;
      sum.mean_abs_io_error += std::fabs(o.tps_error);
      sum.max_abs_io_error = std::max(sum.max_abs_io_error, std::fabs(o.tps_error));
    } else if (!row.calibration_row) {
      ++predicted;
      sum.mean_abs_tps_error += std::fabs(o.tps_error);
      sum.max_abs_tps_error = std::max(sum.max_abs_tps_error, std::fabs(o.tps_error));
      sum.max_abs_latency_error =
          std::max({sum.max_abs_latency_error, std::fabs(o.update_error), std::fabs(o.end_error)});
    }
    sum.rows.push_back(o);
  }
  if (predicted > 0) sum.mean_abs_tps_error /= predicted;
  if (io > 0) sum.mean_abs_io_error /= io;
  return sum;
}

namespace {

std::string Formatted(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string CalibrationText(const Scenario& calibrated) {
  std::string text;
  char buf[256];
  for (const auto& [k, v] : calibrated.calibration.values) {
    auto se = calibrated.calibration.standard_errors.find(k);
    std::snprintf(buf, sizeof buf, "%s = %.4g%s; ", k.c_str(), v,
                  se == calibrated.calibration.standard_errors.end()
                      ? ""
                      : (" +- " + std::to_string(se->second).substr(0, 6)).c_str());
    text += buf;
  }
  return text;
}

// "meas / pred (err)" of a published latency, else "- / pred".
std::string LatencyCell(double measured_ms, double predicted_ms, double error) {
  if (!(measured_ms > 0)) return "- / " + std::to_string(predicted_ms).substr(0, 5);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.2f / %.2f (%+.1f %%)", measured_ms, predicted_ms, 100 * error);
  return buf;
}

std::string PgbenchRows(const ValidationSummary& sum) {
  std::string text;
  char buf[1024];
  for (const ValidationOutcome& o : sum.rows) {
    if (o.row.io) continue;
    std::string sets;
    for (const std::string& s : o.row.overrides) sets += (sets.empty() ? "" : " ") + s;
    std::snprintf(
        buf, sizeof buf, "| %s | `%s` | %.0f | %.0f (%.0f..%.0f) | %+.1f %% | %s | %s | %s |\n",
        o.row.label.c_str(), sets.c_str(), o.row.tps, o.tps, o.tps_low, o.tps_high,
        100 * o.tps_error, LatencyCell(o.row.update_ms, o.update_ms, o.update_error).c_str(),
        LatencyCell(o.row.end_ms, o.end_ms, o.end_error).c_str(), o.regime.c_str());
    text += buf;
  }
  return text;
}

std::string IoRows(const ValidationSummary& sum) {
  std::string text;
  char buf[512];
  for (const ValidationOutcome& o : sum.rows) {
    if (!o.row.io) continue;
    std::snprintf(buf, sizeof buf, "| %s | %.1f | %.1f | %+.1f %% | %s |\n", o.row.label.c_str(),
                  o.row.tps, o.tps, 100 * o.tps_error, o.regime.c_str());
    text += buf;
  }
  return text;
}

// Replaces every occurrence of `placeholder` by `value`; with `whole_lines`, only
// occurrences followed by a newline, which the replacement (lines, each ending in a
// newline) takes the place of. Refuses a template without any occurrence, naming `source`.
Status Fill(const std::string& placeholder, const std::string& value, bool whole_lines,
            const std::string& source, std::string* text) {
  const std::string token = whole_lines ? placeholder + "\n" : placeholder;
  size_t at = text->find(token);
  if (at == std::string::npos) {
    return Status::Error(source + ": template lacks " + placeholder);
  }
  for (; at != std::string::npos; at = text->find(token, at + value.size())) {
    text->replace(at, token.size(), value);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> ValidationMarkdown(const std::string& report_template,
                                         const std::string& source, const Scenario& calibrated,
                                         const ValidationSummary& sum) {
  const std::vector<std::pair<std::string, std::string>> lines = {
      {"@PGBENCH_ROWS@", PgbenchRows(sum)}, {"@IO_ROWS@", IoRows(sum)}};
  const std::vector<std::pair<std::string, std::string>> values = {
      {"@CALIBRATION@", CalibrationText(calibrated)},
      {"@MEAN_TPS_ERROR_PCT@", Formatted("%.1f", 100 * sum.mean_abs_tps_error)},
      {"@WORST_TPS_ERROR_PCT@", Formatted("%.1f", 100 * sum.max_abs_tps_error)},
      {"@WORST_LATENCY_ERROR_PCT@", Formatted("%.1f", 100 * sum.max_abs_latency_error)},
      {"@MEAN_IO_ERROR_PCT@", Formatted("%.1f", 100 * sum.mean_abs_io_error)},
      {"@WORST_IO_ERROR_PCT@", Formatted("%.1f", 100 * sum.max_abs_io_error)}};
  std::string text = report_template;
  for (const auto& [placeholder, value] : lines) {
    Status st = Fill(placeholder, value, true, source, &text);
    if (!st.ok()) return st;
  }
  for (const auto& [placeholder, value] : values) {
    Status st = Fill(placeholder, value, false, source, &text);
    if (!st.ok()) return st;
  }
  return text;
}

}  // namespace pgstorsim
