// `pgstorsim calibrate`: fits model parameters to measurements, writes a scenario.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "common/file_util.h"
#include "common/output_path.h"
#include "model/calibration.h"
#include "model/measured.h"
#include "model/measured_conditions.h"
#include "scenario/scenario.h"
#include "scenario/toml_text.h"

namespace pgstorsim {
namespace {

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// Comment lines; every text from files (paths, labels, description) goes through
// TomlCommentText so the scenario stays readable TOML.
std::string Header(const Scenario& base, const CalibrationReport& r) {
  std::string h =
      "# Calibrated by `pgstorsim calibrate` from " + TomlCommentText(base.source_file) + "\n";
  h += "# on: " + TomlCommentText(r.calibrated.calibration.source) + "\n";
  char buf[64];
  for (size_t i = 0; i < r.residuals.size(); ++i) {
    std::snprintf(buf, sizeof buf, ": %+.2f %%\n", 100 * r.residuals[i]);
    h += "# residual " + TomlCommentText(r.residual_names[i]) + buf;
  }
  for (const std::string& note : r.notes) h += "# note: " + TomlCommentText(note) + "\n";
  if (!base.description.empty()) h += "# base: " + TomlCommentText(base.description) + "\n";
  return h;
}

std::string JoinOverrides(const std::vector<std::string>& sets) {
  std::string out;
  for (const std::string& s : sets) out += (out.empty() ? "" : " ") + s;
  return out;
}

class CalibrateCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--scenario", scenario_path_, "Base scenario (the measured system)")
        ->required();
    app->add_option("--measured", measured_,
                    "Measurement files: pgbench -r text, results JSON (run, replay, "
                    "simulate; probe --device-benchmark), fio JSON, randomio or bonnie++ "
                    "output")
        ->required();
    app->add_option("--set", sets_,
                    "Override key=value on the base scenario (repeatable); workload.* keys "
                    "bring it to the measured conditions and are not written back");
    app->add_option("--measured-set", measured_sets_,
                    "A condition the measurements ran at, key=value (workload.scale, "
                    "workload.clients, workload.type, workload.protocol, workload.cache); "
                    "overrides what the files record");
    app->add_option("--fit", fit_,
                    "Comma-separated parameters to fit (default: read_seek_scale, "
                    "destage_queue_depth, cpu_ms unless the scenario's [calibration] fixes "
                    "them, and update_residence_share when the measurements have UPDATE "
                    "accounts and END latencies)");
    app->add_option("--out", out_, "Calibrated scenario TOML to write")->required();
    app->add_flag("--accept-poor-fit", accept_poor_fit_,
                  "Write the scenario even when a residual exceeds 5 %");
    app->add_flag("--force", force_, "Replace an existing --out file");
  }

  int Run() override {
    std::vector<std::string> input_paths = measured_;
    input_paths.push_back(scenario_path_);
    Status checked = CheckOutputPath("--out", out_, input_paths, force_);
    if (!checked.ok()) return ReportError("calibrate", checked);
    auto original = LoadScenario(scenario_path_);
    if (!original.ok()) return ReportError("calibrate", original.status());
    auto base = LoadScenario(scenario_path_, sets_);
    if (!base.ok()) return ReportError("calibrate", base.status());
    std::vector<CalibrationInput> inputs;
    for (const std::string& path : measured_) {
      auto parsed = ParseMeasuredFile(path);
      if (!parsed.ok()) return ReportError("calibrate", parsed.status());
      Measured m = *parsed;
      for (const std::string& set : measured_sets_) {
        Status st = SetMeasuredCondition(&m, set);
        if (!st.ok()) return ReportError("calibrate", st);
      }
      if (IsDeviceBenchmark(m) && base->workload.type != WorkloadKind::kIo) {
        // A device benchmark on a database scenario: fitted as the io workload its
        // conditions describe, on the same storage.
        std::vector<std::string> io;
        for (const auto& [key, value] : m.conditions) io.push_back(key + "=" + value);
        std::printf("%s: fitted as an io workload (%s)\n", m.source.c_str(),
                    JoinOverrides(io).c_str());
        inputs.push_back({m, io});
        continue;
      }
      Status st = CheckConditions(m, *base);
      if (!st.ok()) return ReportError("calibrate", st);
      PrintUnrecorded(m);
      inputs.push_back({m, {}});
    }
    std::vector<std::string> params =
        fit_.empty() ? DefaultFitFor(*base, inputs) : SplitCommas(fit_);
    if (params.empty()) {
      return ReportError("calibrate", Status::Error("--fit: no parameter left to fit (the "
                                                    "scenario's [calibration] fixes them all)"));
    }
    auto fitted = Calibrate(*base, inputs, params);
    if (!fitted.ok()) return ReportError("calibrate", fitted.status());
    CalibrationReport report = *fitted;
    Print(report);
    if (report.max_abs_residual > kPoorFit && !accept_poor_fit_) {
      std::fprintf(stderr,
                   "calibrate: poor fit: a residual of %.1f %% exceeds %.0f %%; nothing "
                   "written (the model does not describe these measurements; "
                   "--accept-poor-fit writes it anyway)\n",
                   100 * report.max_abs_residual, 100 * kPoorFit);
      return 1;
    }
    // Fitted at the measured conditions; the scenario keeps its own workload.
    report.calibrated.workload = original->workload;
    Status st =
        WriteFileAtomically(out_, Header(*base, report) + ScenarioToToml(report.calibrated));
    if (!st.ok()) return ReportError("calibrate", st);
    std::printf("wrote %s\n", out_.c_str());
    return 0;
  }

 private:
  static constexpr double kPoorFit = 0.05;

  void Print(const CalibrationReport& r) {
    for (size_t i = 0; i < r.parameters.size(); ++i) {
      std::printf("%-22s = %10.4f  +- %.4f\n", r.parameters[i].c_str(), r.values[i],
                  r.standard_errors[i]);
    }
    for (const std::string& note : r.notes) std::printf("note: %s\n", note.c_str());
    for (size_t i = 0; i < r.residuals.size(); ++i) {
      std::printf("residual %-50s %+7.2f %%\n", r.residual_names[i].c_str(), 100 * r.residuals[i]);
    }
    for (const std::string& s : r.ignored) std::printf("ignored: %s\n", s.c_str());
    std::printf("rms relative error %.2f %%\n", 100 * r.rms_relative_error);
  }

  static void PrintUnrecorded(const Measured& m) {
    std::string keys;
    for (const std::string& k : UnrecordedConditions(m)) keys += (keys.empty() ? "" : ", ") + k;
    if (m.tps > 0 && !keys.empty()) {
      std::printf("not checked (%s does not record them): %s\n", m.source.c_str(), keys.c_str());
    }
  }

  std::string scenario_path_;
  std::vector<std::string> measured_;
  std::vector<std::string> measured_sets_;
  std::vector<std::string> sets_;
  std::string fit_;
  std::string out_;
  bool accept_poor_fit_ = false;
  bool force_ = false;
};

PGSTORSIM_REGISTER_COMMAND(CalibrateCommand, "calibrate",
                           "Fit model parameters to measured runs by least squares");

}  // namespace
}  // namespace pgstorsim
