// Private to src/report: one builder per report section. Each returns nullopt when the
// inputs lack its data, so the report draws what is there and skips the rest.
#ifndef PGSTORSIM_REPORT_REPORT_SECTIONS_H_
#define PGSTORSIM_REPORT_REPORT_SECTIONS_H_

#include <optional>
#include <vector>

#include "report/report.h"
#include "report/report_data.h"

namespace pgstorsim {
namespace report {

using Inputs = std::vector<ReportInput>;

Section RecommendationSection(const Inputs& inputs);
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

}  // namespace report
}  // namespace pgstorsim

#endif  // PGSTORSIM_REPORT_REPORT_SECTIONS_H_
