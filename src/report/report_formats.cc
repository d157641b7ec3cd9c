// The report as data: one TSV line per result and per sweep row (for scripts), and the
// intermediate document as JSON.
#include <sstream>

#include "common/units.h"
#include "report/report_sections.h"

namespace pgstorsim {
namespace report {
namespace {

using json = nlohmann::json;

std::string Num(std::optional<double> v, int decimals) {
  return v ? FormatNumber(*v, decimals) : "";
}

// From the histogram (a prediction's holds the model's distribution, model/percentiles.h).
std::optional<double> PercentileOf(const Results& r, const char* which) {
  if (!r.transaction_latency.count()) return std::nullopt;
  const double f = std::string(which) == "p50" ? 0.5 : std::string(which) == "p95" ? 0.95 : 0.99;
  return NsToMs(r.transaction_latency.PercentileNs(f));
}

std::string Clean(std::string text) {  // No tabs or newlines inside a field.
  for (char& c : text) {
    if (c == '\t' || c == '\n') c = ' ';
  }
  return text;
}

}  // namespace

std::string ResultsTsv(const Inputs& inputs) {
  std::ostringstream out;
  out << "file\tlabel\tkind\trow\tstatement\tsettings\ttps\ttps_low\ttps_high\tlatency_mean_ms"
         "\tp50_ms\tp95_ms\tp99_ms\tduration_s\ttransactions\tregime\n";
  for (const ReportInput& in : inputs) {
    const Results& r = in.results;
    std::optional<double> low, high;
    std::string regime;
    if (auto p = PredictionOf(r)) low = p->tps_low, high = p->tps_high;
    if (r.sections.is_object() && r.sections.contains("prediction")) {
      regime = r.sections["prediction"].value("regime", "");
    }
    std::optional<double> mean;
    if (r.transaction_latency.count()) mean = r.transaction_latency.mean_ns() / kNsPerMs;
    out << Clean(in.path) << '\t' << Clean(in.label) << '\t' << r.kind << "\t-\t\t\t"
        << FormatNumber(r.tps, 6) << '\t' << Num(low, 6) << '\t' << Num(high, 6) << '\t'
        << Num(mean, 6) << '\t' << Num(PercentileOf(r, "p50"), 6) << '\t'
        << Num(PercentileOf(r, "p95"), 6) << '\t' << Num(PercentileOf(r, "p99"), 6) << '\t'
        << FormatNumber(r.duration_s, 3) << '\t' << r.transactions << '\t' << regime << '\n';
    for (const StatementResult& st : r.statements) {  // The statements' latencies.
      const LatencyHistogram& h = st.latency;
      if (!h.count()) continue;
      out << Clean(in.path) << '\t' << Clean(in.label) << '\t' << r.kind << "\t-\t"
          << Clean(st.name) << "\t\t\t\t\t" << FormatNumber(h.mean_ns() / kNsPerMs, 6) << '\t'
          << FormatNumber(NsToMs(h.PercentileNs(0.5)), 6) << '\t'
          << FormatNumber(NsToMs(h.PercentileNs(0.95)), 6) << '\t'
          << FormatNumber(NsToMs(h.PercentileNs(0.99)), 6) << "\t\t" << h.count() << "\t\n";
    }
    const json& sweep = r.sections.is_object() && r.sections.contains("sweep") ? r.sections["sweep"]
                                                                               : json::array();
    if (!sweep.is_array()) continue;
    size_t n = 0;
    for (const json& row : sweep) {
      const size_t index = row.value("index", n);
      ++n;
      std::string settings;
      if (row.contains("settings") && row["settings"].is_object()) {
        for (const auto& [k, v] : row["settings"].items()) {
          settings += (settings.empty() ? "" : ";") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
        }
      }
      auto number = [&](const char* key) -> std::optional<double> {
        if (row.contains(key) && row[key].is_number()) return row[key].get<double>();
        return std::nullopt;
      };
      const Band band = BandOf(row);
      out << Clean(in.path) << '\t' << Clean(in.label) << '\t' << r.kind << '\t' << index
          << "\t\t" << Clean(settings) << '\t' << Num(number("tps"), 6) << '\t' << Num(band.low, 6) << '\t'
          << Num(band.high, 6) << '\t' << Num(number("latency_ms"), 6) << '\t'
          << Num(number("p50_ms"), 6) << '\t' << Num(number("p95_ms"), 6) << '\t'
          << Num(number("p99_ms"), 6) << '\t' << Num(number("duration_s"), 3) << '\t'
          << (row.contains("transactions") ? row["transactions"].dump() : "") << '\t'
          << Clean(row.contains("error") ? "refused: " + row.value("error", "")
                                         : row.value("regime", ""))
          << '\n';
    }
  }
  return out.str();
}

std::string RenderJson(const Content& content) {
  json sections = json::array();
  for (const Section& s : content.sections) {
    json rows = json::array();
    for (const auto& r : s.table.rows) rows.push_back(r);
    sections.push_back({{"id", s.id},
                        {"title", s.title},
                        {"lead", s.lead},
                        {"paragraphs", s.paragraphs},
                        {"bullets", s.bullets},
                        {"charts", s.svgs.size()},
                        {"table", {{"header", s.table.header}, {"rows", rows}}}});
  }
  return json({{"title", content.title}, {"sections", sections}}).dump(2) + "\n";
}

}  // namespace report

StatusOr<std::string> RenderReport(const std::vector<ReportInput>& inputs,
                                   const ReportOptions& options, const std::string& format) {
  if (format == "tsv") return report::ResultsTsv(inputs);
  const report::Content content = report::BuildContent(inputs, options);
  if (format == "json") return report::RenderJson(content);
  if (format == "md") return report::RenderMarkdown(content);
  if (format == "html") return report::RenderHtml(content);
  return Status::Error("--format '" + format + "': expected html, md, tsv or json");
}

}  // namespace pgstorsim
