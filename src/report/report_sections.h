// Private to src/report: one builder per report section. Each returns nullopt when the
// inputs lack its data, so the report draws what is there and skips the rest.
#ifndef PGSTORSIM_REPORT_REPORT_SECTIONS_H_
#define PGSTORSIM_REPORT_REPORT_SECTIONS_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/report.h"
#include "report/report_data.h"

namespace pgstorsim {
namespace report {

using Inputs = std::vector<ReportInput>;

// A names-by-inputs table of values: `names` in order of first appearance over all
// inputs, `rows` one per input that has any entry (inputs without entries are left
// out), each row's `values` aligned with `names` (NaN where that input lacks the name).
struct ValueGrid {
  struct Row {
    const ReportInput* input;
    std::vector<double> values;
  };
  std::vector<std::string> names;
  std::vector<Row> rows;
};
using NamedValues = std::vector<std::pair<std::string, double>>;
ValueGrid BuildValueGrid(const Inputs& inputs,
                         const std::function<NamedValues(const ReportInput&)>& entries_of);

// The recommendation from comparable measured results; without them, "no
// recommendation" unless `answered` (the answer section holds the planning questions).
std::optional<Section> RecommendationSection(const Inputs& inputs, bool answered);
// The capacity-planning answer per swept results file (question, best configuration
// with tps band and p95 vs current, objective verdict, what it would take;
// report_answer.cc), and tps and p95 against each swept workload key per configuration
// with the objective's line (report_growth.cc). Both read the files as questions
// (report_questions.h).
std::optional<Section> AnswerSection(const Inputs& inputs);
std::optional<Section> GrowthSection(const Inputs& inputs);
Section InputsSection(const Inputs& inputs);
std::optional<Section> ConfigSection(const Inputs& inputs);
Section ThroughputSection(const Inputs& inputs);
std::optional<Section> ClientsSection(const Inputs& inputs);
std::optional<Section> StatementsSection(const Inputs& inputs);
std::optional<Section> SeriesSection(const Inputs& inputs);
std::optional<Section> SweepSection(const Inputs& inputs);
std::optional<Section> PredictionSection(const Inputs& inputs);
std::optional<Section> DevicesSection(const Inputs& inputs);
// simulate results paired with predict results (or sweep points) of the same scenario.
std::optional<Section> AgreementSection(const Inputs& inputs);

// All sections in report order, plus a closing note naming the skipped ones.
Content BuildContent(const Inputs& inputs, const ReportOptions& options);

// Renderers of the intermediate document.
std::string RenderHtml(const Content& content);
std::string RenderMarkdown(const Content& content);
std::string RenderJson(const Content& content);
std::string ResultsTsv(const Inputs& inputs);

}  // namespace report
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_REPORT_SECTIONS_H_
