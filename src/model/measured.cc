// Benchmark-output parsers (see measured.h).
#include "model/measured.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/file_util.h"
#include "common/results.h"
#include "common/units.h"
#include "model/measured_conditions.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

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

// randomio's command line echoed above its table ("randomio FILE THREADS WRITE_FRACTION
// SYNC_FRACTION IO_SIZE SAMPLES INTERVAL"): an io workload's conditions (an fsync after
// each write when SYNC_FRACTION is 1; none when 0).
namespace {

void RandomioConditions(const std::vector<std::string>& w,
                        std::map<std::string, std::string>* out) {
  size_t at = 0;
  while (at < w.size() && w[at] != "randomio") ++at;
  double threads = 0, write_fraction = 0, sync_fraction = 0, io_size = 0;
  if (at + 5 >= w.size() || !ParseFiniteNumber(w[at + 2], &threads) ||
      !ParseFiniteNumber(w[at + 3], &write_fraction) ||
      !ParseFiniteNumber(w[at + 4], &sync_fraction) || !ParseFiniteNumber(w[at + 5], &io_size)) {
    return;
  }
  (*out)["workload.type"] = "io";
  (*out)["workload.clients"] = w[at + 2];
  (*out)["workload.read_fraction"] = std::to_string(1 - write_fraction);
  (*out)["workload.io_size"] = w[at + 5];
  if (sync_fraction == 0 || sync_fraction == 1) {
    (*out)["workload.io_fsync_writes"] = sync_fraction == 1 ? "on" : "off";
  }
}

}  // namespace

StatusOr<Measured> ParseRandomioText(const std::string& text, const std::string& source) {
  Measured m;
  m.source = source;
  m.tool = "randomio";
  int rows = 0;
  double read_lat_weighted = 0, write_lat_weighted = 0;
  for (const std::string& line : Lines(text)) {
    std::vector<std::string> w = Words(line);
    if (rows == 0) RandomioConditions(w, &m.conditions);
    // total | riops min avg max sdev | wiops min avg max sdev
    if (w.size() != 13 || w[1] != "|" || w[7] != "|") continue;
    double v[13];
    bool ok = true;
    for (int i : {0, 2, 3, 4, 8, 9, 10}) ok = ok && ParseFiniteNumber(w[i], &v[i]);
    if (!ok) continue;
    ++rows;
    m.read_iops += v[2];
    m.write_iops += v[8];
    read_lat_weighted += v[2] * v[4];
    write_lat_weighted += v[8] * v[10];
  }
  if (rows == 0) return Status::Error(source + ": no randomio data rows");
  if (m.read_iops > 0) m.read_latency_ms = read_lat_weighted / m.read_iops;
  if (m.write_iops > 0) m.write_latency_ms = write_lat_weighted / m.write_iops;
  m.read_iops /= rows;
  m.write_iops /= rows;
  return m;
}

StatusOr<Measured> ParseBonnieText(const std::string& text, const std::string& source) {
  std::vector<std::string> lines = Lines(text);
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    std::vector<std::string> head = Words(lines[i]);
    if (head.size() < 2 || head[0] != "Machine" || head[1] != "Size") continue;
    std::vector<std::string> w = Words(lines[i + 1]);
    // label size chr_out %cp block_out %cp rewrite %cp chr_in %cp block_in %cp seeks %cp:
    // w[12] (seeks) is the last field read.
    if (w.size() < 13) break;
    Measured m;
    m.source = source;
    m.tool = "bonnie++";
    m.label = w[0];
    double v = 0;
    if (ParseFiniteNumber(w[4], &v)) m.seq_write_bytes_per_s = v * 1024;
    if (ParseFiniteNumber(w[6], &v)) m.rewrite_bytes_per_s = v * 1024;
    if (ParseFiniteNumber(w[10], &v)) m.seq_read_bytes_per_s = v * 1024;
    if (ParseFiniteNumber(w[12], &v)) m.seeks_per_s = v;
    // Its seek test as an io workload: seeker processes read random 8 KiB chunks of the
    // test file and write one in ten back (docs/scenario-format.md). 3 seekers as its
    // readme says; bonnie++ 2.00 starts 5, and its text output names neither.
    m.conditions = {{"workload.type", "io"},
                    {"workload.clients", "3"},
                    {"workload.io_size", "8KiB"},
                    {"workload.read_fraction", std::to_string(1 / kBonnieRequestsPerSeek)},
                    {"workload.io_rewrite", "on"},
                    {"workload.io_access", "random"}};
    if (!w[1].empty() && (w[1].back() == 'G' || w[1].back() == 'M')) {
      m.conditions["workload.file_size"] = w[1] + "iB";
    }
    return m;
  }
  return Status::Error(source + ": no bonnie++ 'Machine Size' result block");
}

// fio's job options (the first job's, over the global ones) as an io workload's
// conditions: rw, bs, numjobs, iodepth, direct, fsync (1 = after each write), size.
namespace {

void FioConditions(const nlohmann::json& doc, std::map<std::string, std::string>* out) {
  std::map<std::string, std::string> o;
  auto take = [&](const nlohmann::json& j) {
    if (!j.is_object()) return;
    for (const auto& [k, v] : j.items()) {
      if (v.is_string()) o[k] = v.get<std::string>();
    }
  };
  if (doc.contains("global options")) take(doc["global options"]);
  if (!doc["jobs"].empty() && doc["jobs"][0].contains("job options")) {
    take(doc["jobs"][0]["job options"]);
  }
  static const std::map<std::string, std::pair<const char*, const char*>> kRw = {
      {"read", {"1", "sequential"}}, {"write", {"0", "sequential"}},
      {"randread", {"1", "random"}}, {"randwrite", {"0", "random"}},
      {"rw", {"", "sequential"}},    {"readwrite", {"", "sequential"}},
      {"randrw", {"", "random"}}};
  (*out)["workload.type"] = "io";
  const std::string rw = o.count("rw") ? o["rw"] : o.count("readwrite") ? o["readwrite"] : "read";
  auto it = kRw.find(rw);
  if (it != kRw.end()) {
    std::string read_fraction = it->second.first;
    if (read_fraction.empty()) {
      const double mix = o.count("rwmixread") ? std::atof(o["rwmixread"].c_str()) : 50;
      read_fraction = std::to_string(mix / 100);
    }
    (*out)["workload.read_fraction"] = read_fraction;
    (*out)["workload.io_access"] = it->second.second;
  }
  const std::pair<const char*, const char*> keys[] = {{"bs", "workload.io_size"},
                                                      {"numjobs", "workload.clients"},
                                                      {"iodepth", "workload.io_depth"},
                                                      {"size", "workload.file_size"}};
  for (const auto& [option, key] : keys) {
    if (o.count(option)) (*out)[key] = o[option];
  }
  if (o.count("direct")) (*out)["workload.io_direct"] = o["direct"] == "1" ? "on" : "off";
  if (o.count("fsync")) (*out)["workload.io_fsync_writes"] = o["fsync"] == "1" ? "on" : "off";
}

// `obj[key]` as a number: 0 when absent, an error naming `where`.key when it is there
// but not a number.
StatusOr<double> FioNumber(const nlohmann::json& obj, const char* key, const std::string& where) {
  if (!obj.contains(key)) return 0.0;
  if (!obj[key].is_number()) return Status::Error(where + "." + key + ": not a number");
  return obj[key].get<double>();
}

// One direction ("read", "write") of a fio job: its IOPS, mean completion latency (ms)
// and bandwidth (bytes/s), all 0 when the job has no such section.
struct FioSide {
  double iops = 0, lat_ms = 0, bw_bytes_per_s = 0;
};

StatusOr<FioSide> ParseFioSide(const nlohmann::json& job, const char* dir,
                               const std::string& where) {
  FioSide out;
  if (!job.is_object() || !job.contains(dir)) return out;
  const nlohmann::json& d = job[dir];
  const std::string at = where + "." + dir;
  if (!d.is_object()) return Status::Error(at + ": not an object");
  StatusOr<double> iops = FioNumber(d, "iops", at);
  if (!iops.ok()) return iops.status();
  StatusOr<double> lat_ns = 0.0;
  for (const char* lat : {"clat_ns", "lat_ns"}) {
    if (!d.contains(lat)) continue;
    if (!d[lat].is_object()) return Status::Error(at + "." + lat + ": not an object");
    lat_ns = FioNumber(d[lat], "mean", at + "." + lat);
    break;
  }
  if (!lat_ns.ok()) return lat_ns.status();
  StatusOr<double> bw = FioNumber(d, "bw_bytes", at);
  if (!bw.ok()) return bw.status();
  out.iops = *iops;
  out.lat_ms = *lat_ns / 1e6;
  out.bw_bytes_per_s = *bw;
  return out;
}

}  // namespace

StatusOr<Measured> ParseFioJson(const std::string& text, const std::string& source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.contains("jobs") || !doc["jobs"].is_array()) {
    return Status::Error(source + ": not fio JSON output (no \"jobs\" array)");
  }
  Measured m;
  m.source = source;
  m.tool = "fio";
  double read_lat = 0, write_lat = 0, read_bw = 0;
  for (size_t j = 0; j < doc["jobs"].size(); ++j) {
    const std::string where = source + ": jobs[" + std::to_string(j) + "]";
    StatusOr<FioSide> read = ParseFioSide(doc["jobs"][j], "read", where);
    if (!read.ok()) return read.status();
    StatusOr<FioSide> write = ParseFioSide(doc["jobs"][j], "write", where);
    if (!write.ok()) return write.status();
    m.read_iops += read->iops;
    read_lat += read->iops * read->lat_ms;
    read_bw += read->bw_bytes_per_s;
    m.write_iops += write->iops;
    write_lat += write->iops * write->lat_ms;
  }
  if (m.read_iops > 0) m.read_latency_ms = read_lat / m.read_iops;
  if (m.write_iops > 0) m.write_latency_ms = write_lat / m.write_iops;
  m.seq_read_bytes_per_s = read_bw;
  FioConditions(doc, &m.conditions);
  return m;
}

namespace {

// A JSON scalar as a condition value ("10", "tpcb-like").
void SetCondition(const nlohmann::json& j, const char* field, const char* key,
                  std::map<std::string, std::string>* out) {
  if (!j.is_object() || !j.contains(field)) return;
  const nlohmann::json& v = j[field];
  if (v.is_string()) {
    const std::string text = v.get<std::string>();
    if (text.empty() || text == "as-is") return;  // Cache left as found: not recorded.
    (*out)[key] = text == "pg-prewarm" ? "warm" : text;
  } else if (v.is_number()) {
    (*out)[key] = v.dump();
  }
}

// The condition keys (ConditionKeys) a result states under config.scenario, in the
// results schema's names (scenario_results.h), as canonical scenario text.
void ScenarioKeyConditions(const nlohmann::json& keys, std::map<std::string, std::string>* out) {
  const std::vector<std::string>& wanted = ConditionKeys();
  Scenario s;
  for (const auto& [name, value] : keys.items()) {
    const std::optional<ResultsName> found = FindResultsName(name);
    if (!found || std::find(wanted.begin(), wanted.end(), found->key) == wanted.end()) continue;
    // Booleans dump as true / false, which on/off keys take.
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (SetScenarioKeyFromResults(&s, name, text).ok()) {
      (*out)[found->key] = GetScenarioKey(s, found->key).value();
    }
  }
}

// Conditions of a run or of a replay whose config names no trace (the device
// benchmark's patterns): the workload keys their config.scenario states (the pgbench
// option names of run results without one); of a replay of a trace or pattern (`replay`:
// config.trace, "" for a pattern): the trace's meta; of a simulation: its scenario.
Status ResultsConditions(const Results& r, std::map<std::string, std::string>* out) {
  const bool states_keys = r.config.contains("scenario") && r.config["scenario"].is_object();
  const bool of_trace = r.kind == "replay" && r.config.contains("trace");
  if (states_keys && (r.kind == "run" || (r.kind == "replay" && !of_trace))) {
    ScenarioKeyConditions(r.config["scenario"], out);
    return Status::Ok();
  }
  const nlohmann::json* source = &r.config;
  if (r.kind == "replay") {
    static const nlohmann::json kNone = nlohmann::json::object();
    source = r.sections.contains("trace") && r.sections["trace"].contains("meta")
                 ? &r.sections["trace"]["meta"]
                 : &kNone;
  }
  if (r.kind == "simulate") {
    if (!r.config.contains("scenario_toml")) return Status::Ok();
    auto s = ParseScenarioToml(r.config["scenario_toml"].get<std::string>(), "scenario_toml");
    if (!s.ok()) return s.status();
    for (const char* key : {"workload.type", "workload.scale", "workload.clients",
                            "workload.protocol", "workload.cache"}) {
      (*out)[key] = GetScenarioKey(*s, key).value();
    }
    return Status::Ok();
  }
  SetCondition(*source, "workload", "workload.type", out);
  SetCondition(*source, "scale", "workload.scale", out);
  SetCondition(*source, "clients", "workload.clients", out);
  SetCondition(*source, "protocol", "workload.protocol", out);
  SetCondition(*source, "cache", "workload.cache", out);
  return Status::Ok();
}

// A replayed io workload's requests as device figures, like fio's: reads and writes per
// second (the replay's requests per second split by their counts) and each one's mean
// latency, a write's with the fsyncs that follow it (the io workload's "write" request).
void ReplayDeviceFigures(const Results& r, Measured* m) {
  auto find = [&](const char* name) -> const LatencyHistogram* {
    for (const StatementResult& s : r.statements) {
      if (s.name == name) return &s.latency;
    }
    return nullptr;
  };
  const LatencyHistogram* read = find("data read");
  const LatencyHistogram* write = find("data write");
  const LatencyHistogram* fsync = find("fsync");
  const double reads = read ? read->count() : 0, writes = write ? write->count() : 0;
  if (reads + writes <= 0) return;
  m->read_iops = r.tps * reads / (reads + writes);
  m->write_iops = r.tps * writes / (reads + writes);
  if (reads > 0) m->read_latency_ms = read->mean_ns() / kNsPerMs;
  if (writes > 0) {
    const double fsync_ms =
        fsync && fsync->count() > 0 ? fsync->mean_ns() / kNsPerMs * fsync->count() / writes : 0;
    m->write_latency_ms = write->mean_ns() / kNsPerMs + fsync_ms;
  }
}

}  // namespace

StatusOr<Measured> ParseResultsJson(const std::string& text, const std::string& source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return Status::Error(source + ": invalid JSON");
  auto results = Results::FromJson(doc);
  if (!results.ok()) return results.status().WithContext(source);
  if (results->kind != "run" && results->kind != "replay" && results->kind != "simulate") {
    return Status::Error(source + ": results of kind '" + results->kind +
                         "' are not measurements (expected run, replay or simulate)");
  }
  Measured m;
  m.source = source;
  m.tool = "results";
  m.label = results->label;
  m.tps = results->tps;
  // pgbench's statements only (a replay's "data read", "fsync" are I/O, not statements).
  static const std::set<std::string> kStatements = {"BEGIN",
                                                    "UPDATE accounts",
                                                    "SELECT accounts",
                                                    "UPDATE tellers",
                                                    "UPDATE branches",
                                                    "INSERT history",
                                                    "END"};
  for (const StatementResult& s : results->statements) {
    if (s.latency.count() > 0 && kStatements.count(s.name)) {
      m.statement_latency_ms[s.name] = s.latency.mean_ns() / 1e6;
    }
  }
  Status st = ResultsConditions(*results, &m.conditions);
  if (!st.ok()) return st.WithContext(source);
  if (results->kind == "replay" && IsDeviceBenchmark(m)) {
    m.tps = 0;  // Requests, not transactions: the device figures below.
    ReplayDeviceFigures(*results, &m);
  }
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
