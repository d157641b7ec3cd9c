// Report: turns results files (common/results.h, any kind) into one self-contained HTML
// page (inline CSS and SVG, no scripts or external assets, printable) and a Markdown
// summary with the same tables and the same recommendation.
//
// Sections are drawn only when the inputs carry their data; unknown sections are
// ignored. The section shapes read are documented in docs/report.md. Output is a pure
// function of the inputs (no clock), so the same inputs give byte-identical reports.
// Thread safety: pure functions; WriteReport writes its two files atomically.
#ifndef PGSTORSIM_REPORT_REPORT_H_
#define PGSTORSIM_REPORT_REPORT_H_

#include <string>
#include <vector>

#include "common/results.h"
#include "common/status.h"

namespace pgstorsim {

struct ReportInput {
  std::string path;   // Where it was read from (shown in the inputs table).
  std::string label;  // Unique display name: results label, else the file's stem.
  Results results;
};

struct ReportOptions {
  std::string title = "pgstorsim report";
};

struct ReportDocuments {
  std::string html;
  std::string markdown;
};

// Loads every path with LoadResults and gives each a unique label. Fails on the first
// unreadable or invalid file, naming it. Shards of one sweep (--shard i/n) are joined
// into one input (common/sweep_shards.h); a set that cannot be joined stays apart,
// each shard flagged with why. REQUIRES: !paths.empty().
StatusOr<std::vector<ReportInput>> LoadReportInputs(const std::vector<std::string>& paths);

// Builds both documents. Inputs keep their order; the first measured result (kind run
// or replay) with a comparable one (same kind and workload conditions) is the baseline
// the recommendation compares against.
ReportDocuments BuildReport(const std::vector<ReportInput>& inputs, const ReportOptions& options);

// One rendering: "html", "md" (as BuildReport), "json" (the sections' text and tables,
// charts counted) or "tsv" (header first, then per result its line, one line per
// statement and one per sweep row: file, label, kind, row (sweep index or "-"),
// statement, settings "k=v;...", tps, tps_low, tps_high, latency_mean_ms, p50_ms,
// p95_ms, p99_ms, duration_s, transactions (a statement's: its count), regime: what
// scripts read instead of our JSON). Errors name the format.
StatusOr<std::string> RenderReport(const std::vector<ReportInput>& inputs,
                                   const ReportOptions& options, const std::string& format);
// Loads, builds and writes html_path and markdown_path (each atomically).
Status WriteReport(const std::vector<std::string>& result_paths, const std::string& html_path,
                   const std::string& markdown_path, const ReportOptions& options);

// "out/report.html" -> "out/report.md"; a path without an extension gets ".md".
std::string DefaultMarkdownPath(const std::string& html_path);

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_REPORT_H_
