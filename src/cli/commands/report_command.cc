// `pgstorsim report RESULTS... --out report.html [--markdown report.md] [--title T]`:
// one self-contained HTML report and a Markdown summary from results files of any kind.
#include <iostream>

#include "cli/command.h"
#include "common/output_path.h"
#include "report/report.h"

namespace pgstorsim {
namespace {

class ReportCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("results", result_paths_,
                    "Results files (run, replay, simulate, "
                    "predict, calibrate), in order; the first "
                    "measured one is the baseline")
        ->required();
    app->add_option("--out,-o", html_path_, "HTML report to write")->required();
    app->add_option("--markdown", markdown_path_,
                    "Markdown summary to write (default: --out with .md)");
    app->add_option("--title", options_.title, "Report title")->capture_default_str();
    app->add_flag("--force", force_, "Replace existing --out / --markdown files");
  }

  int Run() override {
    if (markdown_path_.empty()) markdown_path_ = DefaultMarkdownPath(html_path_);
    if (markdown_path_ == html_path_) {
      return ReportError("report", "--markdown must differ from --out (" + html_path_ + ")");
    }
    Status st = CheckOutputPath("--out", html_path_, result_paths_, force_);
    if (st.ok()) st = CheckOutputPath("--markdown", markdown_path_, result_paths_, force_);
    if (!st.ok()) return ReportError("report", st);
    st = WriteReport(result_paths_, html_path_, markdown_path_, options_);
    if (!st.ok()) return ReportError("report", st);
    std::cout << "report: wrote " << html_path_ << " and " << markdown_path_ << " from "
              << result_paths_.size() << " results file(s)\n";
    return 0;
  }

 private:
  std::vector<std::string> result_paths_;
  std::string html_path_;
  std::string markdown_path_;
  ReportOptions options_;
  bool force_ = false;
};

PGSTORSIM_REGISTER_COMMAND(ReportCommand, "report",
                           "HTML + SVG + Markdown report from results files");

}  // namespace
}  // namespace pgstorsim
