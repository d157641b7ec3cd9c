// `pgstorsim report RESULTS... --out report.html [--markdown report.md] [--title T]`:
// one self-contained HTML report and a Markdown summary from results files of any kind;
// `--format md|tsv|json [--out F]` one rendering, to F or standard output.
#include <iostream>

#include "cli/command.h"
#include "common/output_path.h"
#include "common/file_util.h"
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
    app->add_option("--out,-o", html_path_,
                    "Report to write (required for html; other formats default to stdout)");
    app->add_option("--format", format_, "html (+ Markdown), md, tsv or json")
        ->check(CLI::IsMember({"html", "md", "tsv", "json"}))
        ->capture_default_str();
    app->add_option("--markdown", markdown_path_,
                    "Markdown summary to write (default: --out with .md)");
    app->add_option("--title", options_.title, "Report title")->capture_default_str();
    app->add_flag("--force", force_, "Replace existing --out / --markdown files");
  }

  int Run() override {
    if (format_ != "html") return RunFormat();
    if (html_path_.empty()) return ReportError("report", "--out is required for --format html");
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
  int RunFormat() {
    auto inputs = LoadReportInputs(result_paths_);
    if (!inputs.ok()) return ReportError("report", inputs.status());
    auto text = RenderReport(*inputs, options_, format_);
    if (!text.ok()) return ReportError("report", text.status());
    if (html_path_.empty()) {
      std::cout << *text;
      return 0;
    }
    Status st = WriteFileAtomically(html_path_, *text);
    if (!st.ok()) return ReportError("report", st);
    std::cerr << "report: wrote " << html_path_ << "\n";
    return 0;
  }

  std::string format_ = "html";
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
