// `pgstorsim validate`: the M5110e field-data table, measured vs predicted.
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "common/file_util.h"
#include "common/output_path.h"
#include "model/leave_one_out.h"
#include "model/validation.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

class ValidateCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--scenario", scenario_path_,
                    "Calibrated M5110e scenario (e.g. results/validation/m5110e-calibrated.toml)")
        ->required();
    app->add_option("--rows", rows_path_, "Field rows: measured values and overrides (TSV)")
        ->default_val(kM5110eRowsPath);
    app->add_option("--template", template_path_,
                    "Report text with placeholders for the tables and figures (Markdown)")
        ->default_val(kM5110eReportTemplatePath);
    app->add_option("--out", out_, "Markdown report to write (else printed)");
    app->add_option("--model-error-out", model_error_out_,
                    "Also write the leave-one-out table of the model's error (field rows and "
                    "the lab matrix; results/validation/model-error.tsv)");
    app->add_option("--lab-measured", lab_measured_, "Lab matrix measurements (TSV)")
        ->default_val("results/validation/lab-matrix-measured.tsv");
    app->add_option("--lab-scenarios", lab_scenarios_, "Lab matrix scenarios (directory)")
        ->default_val("results/validation/lab-matrix-scenarios");
    app->add_flag("--force", force_, "Replace existing --out / --model-error-out files");
  }

  int WriteModelError(const Scenario& calibrated, const std::vector<ValidationRow>& field_rows) {
    auto field = FieldLeaveOneOut(calibrated, field_rows);
    if (!field.ok()) return ReportError("validate", field.status());
    auto lab = LabLeaveOneOut(lab_measured_, lab_scenarios_);
    if (!lab.ok()) return ReportError("validate", lab.status());
    std::vector<ModelErrorRow> rows = *field;
    rows.insert(rows.end(), lab->begin(), lab->end());
    Status st = WriteFileAtomically(model_error_out_, ModelErrorTsv(rows));
    if (!st.ok()) return ReportError("validate", st);
    std::printf("wrote %s: %zu rows\n", model_error_out_.c_str(), rows.size());
    return 0;
  }

  int Run() override {
    const std::vector<std::string> inputs = {scenario_path_, rows_path_, template_path_,
                                             lab_measured_, lab_scenarios_};
    Status checked = Status::Ok();
    if (!out_.empty()) checked = CheckOutputPath("--out", out_, inputs, force_);
    if (checked.ok() && !model_error_out_.empty()) {
      checked = CheckOutputPath("--model-error-out", model_error_out_, inputs, force_);
    }
    if (!checked.ok()) return ReportError("validate", checked);
    auto s = LoadScenario(scenario_path_);
    if (!s.ok()) return ReportError("validate", s.status());
    auto rows = LoadValidationRows(rows_path_);
    if (!rows.ok()) return ReportError("validate", rows.status());
    auto report_template = ReadFile(template_path_);
    if (!report_template.ok()) return ReportError("validate", report_template.status());
    if (!model_error_out_.empty() && WriteModelError(*s, *rows) != 0) return 1;
    auto summary = RunValidation(*s, *rows);
    if (!summary.ok()) return ReportError("validate", summary.status());
    auto md = ValidationMarkdown(*report_template, template_path_, *s, *summary);
    if (!md.ok()) return ReportError("validate", md.status());
    if (out_.empty()) {
      std::cout << *md;
      return 0;
    }
    Status st = WriteFileAtomically(out_, *md);
    if (!st.ok()) return ReportError("validate", st);
    std::printf(
        "wrote %s: mean |tps error| %.1f %%, worst %.1f %%, worst latency %.1f %%; "
        "io rows mean |error| %.1f %%, worst %.1f %%\n",
        out_.c_str(), 100 * summary->mean_abs_tps_error, 100 * summary->max_abs_tps_error,
        100 * summary->max_abs_latency_error, 100 * summary->mean_abs_io_error,
        100 * summary->max_abs_io_error);
    return 0;
  }

 private:
  std::string scenario_path_, rows_path_, template_path_;
  std::string out_;
  std::string model_error_out_, lab_measured_, lab_scenarios_;
  bool force_ = false;
};

PGSTORSIM_REGISTER_COMMAND(ValidateCommand, "validate",
                           "Compare model predictions with the M5110e field data");

}  // namespace
}  // namespace pgstorsim
