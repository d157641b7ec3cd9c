// Benchmark-output parsers (see measured.h): pgbench's text and the format dispatch;
// the device benchmarks' in measured_devices.cc, our results JSON in
// measured_results.cc.
#include "model/measured.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/file_util.h"
#include "common/units.h"
#include "model/measured_text.h"

namespace pgstorsim {

using measured_text::Lines;
using measured_text::StartsWith;
using measured_text::Words;

namespace {

enum class TpsLine { kNone, kParsed, kMalformed };

// "tps = 254.19 (excluding connections establishing)" -> 254.19. kMalformed: "tps = "
// followed by no number.
TpsLine ParseTpsLine(const std::string& line, double* tps, bool* preferred) {
  size_t at = line.find("tps = ");
  if (at == std::string::npos) return TpsLine::kNone;
  const std::vector<std::string> after = Words(line.substr(at + 6));
  if (after.empty() || !ParseFiniteNumber(after[0], tps)) return TpsLine::kMalformed;
  *preferred = line.find("including") == std::string::npos;
  return TpsLine::kParsed;
}

// A statement latency line: numbers first, then SQL. Returns false for other lines.
bool ParseStatementLine(const std::string& line, std::string* name, double* latency_ms) {
  std::vector<std::string> w = Words(line);
  if (w.size() < 2 || !ParseFiniteNumber(w[0], latency_ms)) return false;
  size_t sql_word = 1;
  double ignored = 0;
  if (w.size() > 2 && ParseFiniteNumber(w[1], &ignored)) sql_word = 2;  // PG 14+ failures column.
  size_t pos = line.find(w[sql_word], line.find(w[sql_word - 1]) + w[sql_word - 1].size());
  *name = StatementNameForSql(line.substr(pos));
  return !name->empty();
}

// pgbench's builtin script names ("TPC-B (sort of)", "<builtin: simple update>",
// "-b select-only@2") -> workload.type; anything else (a custom script) unchanged, so
// that the condition check names it.
std::string WorkloadForPgbench(const std::string& raw) {
  std::string t;
  for (char c : raw) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t.find("tpc-b") != std::string::npos || StartsWith(t, "tpcb")) return "tpcb-like";
  if (t.find("simple update") != std::string::npos || StartsWith(t, "simple-update")) {
    return "simple-update";
  }
  if (t.find("select only") != std::string::npos || StartsWith(t, "select-only")) {
    return "select-only";
  }
  return TrimBlanks(raw);
}

// A pgbench header line ("scaling factor: 10") -> a condition; false for other lines.
bool ParsePgbenchHeader(const std::string& line, std::map<std::string, std::string>* out) {
  static const std::pair<const char*, const char*> kHeaders[] = {
      {"transaction type:", "workload.type"},
      {"scaling factor:", "workload.scale"},
      {"query mode:", "workload.protocol"},
      {"number of clients:", "workload.clients"}};
  const std::string t = TrimBlanks(line);
  for (const auto& [prefix, key] : kHeaders) {
    if (!StartsWith(t, prefix)) continue;
    const std::string value = TrimBlanks(t.substr(std::string(prefix).size()));
    (*out)[key] = std::string(key) == "workload.type" ? WorkloadForPgbench(value) : value;
    return true;
  }
  return false;
}

// "host $ pgbench -j 10 -c 10 -r -T 900 pgbench" (9.x output has no header lines):
// clients, protocol and builtin script from the options; false when no pgbench run.
bool ParsePgbenchCommandLine(const std::string& line, std::map<std::string, std::string>* out) {
  const std::vector<std::string> w = Words(line);
  size_t i = 0;
  while (i < w.size() && w[i] != "pgbench" && w[i].find("/pgbench") == std::string::npos) ++i;
  const bool has_option = std::any_of(w.begin() + std::min(i + 1, w.size()), w.end(),
                                      [](const std::string& o) { return StartsWith(o, "-"); });
  if (i == w.size() || !has_option || std::find(w.begin(), w.end(), "-i") != w.end()) {
    return false;  // Not a run's command line (the version banner, an initialisation).
  }
  std::map<std::string, std::string> c = {{"workload.type", "tpcb-like"},
                                          {"workload.protocol", "simple"}};
  for (++i; i < w.size(); ++i) {
    const std::string& o = w[i];
    const std::string next = i + 1 < w.size() ? w[i + 1] : "";
    if (o == "-c" || o == "-M" || o == "-b") {
      c[o == "-c"   ? "workload.clients"
        : o == "-M" ? "workload.protocol"
                    : "workload.type"] =
          o == "-b" ? WorkloadForPgbench(next.substr(0, next.find('@'))) : next;
      ++i;
    } else if (StartsWith(o, "--client=")) {
      c["workload.clients"] = o.substr(9);
    } else if (StartsWith(o, "--protocol=")) {
      c["workload.protocol"] = o.substr(11);
    } else if (o == "-S" || o == "-N") {
      c["workload.type"] = o == "-S" ? "select-only" : "simple-update";
    } else if (o == "-f" || StartsWith(o, "--file")) {
      c.erase("workload.type");  // A custom script: not a builtin workload.
    }
  }
  *out = c;
  return true;
}

}  // namespace

std::string StatementNameForSql(const std::string& raw) {
  std::string sql;
  for (char c : raw) sql += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (StartsWith(sql, "BEGIN")) return "BEGIN";
  if (StartsWith(sql, "END") || StartsWith(sql, "COMMIT")) return "END";
  if (StartsWith(sql, "UPDATE PGBENCH_ACCOUNTS")) return "UPDATE accounts";
  if (StartsWith(sql, "SELECT") && sql.find("PGBENCH_ACCOUNTS") != std::string::npos) {
    return "SELECT accounts";
  }
  if (StartsWith(sql, "UPDATE PGBENCH_TELLERS")) return "UPDATE tellers";
  if (StartsWith(sql, "UPDATE PGBENCH_BRANCHES")) return "UPDATE branches";
  if (StartsWith(sql, "INSERT INTO PGBENCH_HISTORY")) return "INSERT history";
  return "";
}

StatusOr<Measured> ParsePgbenchText(const std::string& text, const std::string& source) {
  Measured m;
  m.source = source;
  m.tool = "pgbench";
  bool have_tps = false, have_preferred = false, in_statements = false;
  std::map<std::string, std::string> from_command_line;
  const std::vector<std::string> lines = Lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (!in_statements &&
        (ParsePgbenchHeader(line, &m.conditions) ||
         (from_command_line.empty() && ParsePgbenchCommandLine(line, &from_command_line)))) {
      continue;
    }
    double tps = 0;
    bool preferred = false;
    const TpsLine kind = ParseTpsLine(line, &tps, &preferred);
    if (kind == TpsLine::kMalformed) {
      return Status::Error(source + ":" + std::to_string(i + 1) +
                           ": 'tps = ' is not followed by a number");
    }
    if (kind == TpsLine::kParsed) {
      if (!have_preferred) m.tps = tps;
      have_tps = true;
      have_preferred = have_preferred || preferred;
      continue;
    }
    if (line.find("statement latencies in milliseconds") != std::string::npos) {
      in_statements = true;
      continue;
    }
    if (!in_statements) continue;
    std::string name;
    double latency = 0;
    if (ParseStatementLine(line, &name, &latency)) {
      m.statement_latency_ms[name] += latency;
    } else if (Words(line).empty()) {
      in_statements = false;
    }
  }
  if (!have_tps) return Status::Error(source + ": no 'tps = ' line in pgbench output");
  m.conditions.insert(from_command_line.begin(), from_command_line.end());  // Header wins.
  return m;
}

StatusOr<Measured> ParseMeasuredText(const std::string& text, const std::string& source) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    if (text.find("\"pgstorsim-results\"") != std::string::npos) {
      return ParseResultsJson(text, source);
    }
    return ParseFioJson(text, source);
  }
  if (text.find("Sequential Output") != std::string::npos) return ParseBonnieText(text, source);
  if (text.find("tps = ") != std::string::npos) return ParsePgbenchText(text, source);
  if (text.find("iops |") != std::string::npos) return ParseRandomioText(text, source);
  return Status::Error(source +
                       ": unrecognised measurement format (expected pgbench -r text, "
                       "pgstorsim results JSON, fio JSON, randomio or bonnie++ output)");
}

StatusOr<Measured> ParseMeasuredFile(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseMeasuredText(*text, path);
}

}  // namespace pgstorsim
