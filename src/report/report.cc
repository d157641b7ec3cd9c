#include "report/report.h"

#include <filesystem>
#include <map>
#include <set>

#include "common/file_util.h"
#include "common/sweep_shards.h"
#include "report/report_sections.h"

namespace pgstorsim {

namespace {

// Shards of one sweep (`--shard i/n`) become one input, in the first shard's place;
// a set that cannot be joined stays apart, each shard flagged with the reason.
std::vector<ReportInput> JoinShards(std::vector<ReportInput> inputs) {
  std::map<std::string, std::vector<size_t>> sweeps;  // Sweep identity -> inputs.
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Results& r = inputs[i].results;
    if (!IsSweepShard(r) || r.config["sweep"].value("shard", "") == "1/1") continue;
    nlohmann::json sweep = r.config["sweep"];
    sweep.erase("shard");
    sweeps[r.kind + sweep.dump() + r.config.value("scenario_toml", "")].push_back(i);
  }
  std::vector<bool> drop(inputs.size(), false);
  for (const auto& [identity, members] : sweeps) {
    std::vector<Results> shards;
    std::vector<std::string> names;
    for (size_t i : members) {
      shards.push_back(inputs[i].results);
      names.push_back(inputs[i].path);
    }
    auto joined = JoinSweepShards(shards, names);
    if (!joined.ok()) {
      for (size_t i : members) inputs[i].results.flags.push_back("unjoined shard: " + joined.status().message());
      continue;
    }
    ReportInput& first = inputs[members.front()];
    first.results = std::move(joined).value();
    first.results.flags.push_back("joined from " + std::to_string(members.size()) + " shards");
    for (size_t k = 1; k < members.size(); ++k) drop[members[k]] = true;
  }
  std::vector<ReportInput> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!drop[i]) out.push_back(std::move(inputs[i]));
  }
  return out;
}

}  // namespace

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
  inputs = JoinShards(std::move(inputs));
  uses.clear();
  for (const ReportInput& in : inputs) ++uses[in.label];
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
