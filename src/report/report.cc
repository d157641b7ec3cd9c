#include "report/report.h"

#include <filesystem>
#include <map>
#include <set>

#include "common/file_util.h"
#include "report/report_sections.h"

namespace pgstorsim {

StatusOr<std::vector<ReportInput>> LoadReportInputs(const std::vector<std::string>& paths) {
  if (paths.empty()) return Status::Error("no results files given");
  std::vector<ReportInput> inputs;
  std::map<std::string, int> uses;
  for (const std::string& path : paths) {
    StatusOr<Results> r = LoadResults(path);
    if (!r.ok()) {
      // LoadResults names the file for parse errors; make sure open errors do too.
      const std::string& msg = r.status().message();
      return msg.find(path) == std::string::npos ? r.status().WithContext(path) : r.status();
    }
    std::string stem = std::filesystem::path(path).stem().string();
    std::string label = r->label.empty() ? stem : r->label;
    ++uses[label];
    inputs.push_back({path, label, std::move(r).value()});
  }
  // A label shared by several inputs gets the file's stem; any clash left gets " #n".
  std::set<std::string> taken;
  for (ReportInput& in : inputs) {
    std::string stem = std::filesystem::path(in.path).stem().string();
    if (uses[in.label] > 1 && in.label != stem) in.label += " (" + stem + ")";
    std::string unique = in.label;
    for (int n = 2; taken.count(unique); ++n) unique = in.label + " #" + std::to_string(n);
    taken.insert(unique);
    in.label = unique;
  }
  return inputs;
}

ReportDocuments BuildReport(const std::vector<ReportInput>& inputs, const ReportOptions& options) {
  report::Content content = report::BuildContent(inputs, options);
  return {report::RenderHtml(content), report::RenderMarkdown(content)};
}

Status WriteReport(const std::vector<std::string>& result_paths, const std::string& html_path,
                   const std::string& markdown_path, const ReportOptions& options) {
  auto inputs = LoadReportInputs(result_paths);
  if (!inputs.ok()) return inputs.status();
  ReportDocuments docs = BuildReport(*inputs, options);
  Status st = WriteFileAtomically(html_path, docs.html);
  if (!st.ok()) return st;
  return WriteFileAtomically(markdown_path, docs.markdown);
}

std::string DefaultMarkdownPath(const std::string& html_path) {
  std::filesystem::path p(html_path);
  if (p.has_extension()) return p.replace_extension(".md").string();
  return html_path + ".md";
}

}  // namespace pgstorsim
