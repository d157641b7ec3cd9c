// `pgstorsim validate`: the M5110e field-data table, measured vs predicted.
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "common/file_util.h"
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
    app->add_option("--out", out_, "Markdown report to write (else printed)");
  }

  int Run() override {
    auto s = LoadScenario(scenario_path_);
    if (!s.ok()) return ReportError("validate", s.status());
    auto summary = RunValidation(*s, M5110eRows());
    if (!summary.ok()) return ReportError("validate", summary.status());
    const std::string md = ValidationMarkdown(*s, *summary);
    if (out_.empty()) {
      std::cout << md;
      return 0;
    }
    Status st = WriteFileAtomically(out_, md);
    if (!st.ok()) return ReportError("validate", st);
    std::printf("wrote %s: mean |tps error| %.1f %%, worst %.1f %%, worst latency %.1f %%\n",
                out_.c_str(), 100 * summary->mean_abs_tps_error, 100 * summary->max_abs_tps_error,
                100 * summary->max_abs_latency_error);
    return 0;
  }

 private:
  std::string scenario_path_;
  std::string out_;
};

PGSTORSIM_REGISTER_COMMAND(ValidateCommand, "validate",
                           "Compare model predictions with the M5110e field data");

}  // namespace
}  // namespace pgstorsim
