#include "common/results.h"

#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "common/file_util.h"
#include "common/json_integer.h"
#include "common/units.h"

namespace pgstorsim {
namespace {

std::string UtcNow(const char* format) {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

nlohmann::json LatencySummaryMs(const LatencyHistogram& h) {
  return {{"mean", h.mean_ns() / kNsPerMs},
          {"stddev", h.stddev_ns() / kNsPerMs},
          {"p50", NsToMs(h.PercentileNs(0.50))},
          {"p95", NsToMs(h.PercentileNs(0.95))},
          {"p99", NsToMs(h.PercentileNs(0.99))},
          {"max", NsToMs(h.max_ns())}};
}

}  // namespace

nlohmann::json Results::ToJson() const {
  nlohmann::json statements_json = nlohmann::json::array();
  for (const StatementResult& s : statements) {
    statements_json.push_back({{"name", s.name},
                               {"sql", s.sql},
                               {"failures", s.failures},
                               {"latency_ms", LatencySummaryMs(s.latency)},
                               {"latency", s.latency.ToJson()}});
  }
  nlohmann::json series_json = nlohmann::json::array();
  for (const IntervalSample& s : series) {
    series_json.push_back({{"t_s", s.t_s},
                           {"transactions", s.transactions},
                           {"tps", s.tps},
                           {"mean_latency_ms", s.mean_latency_ms}});
  }
  return {{"schema", kResultsSchema},
          {"version", kResultsVersion},
          {"kind", kind},
          {"label", label},
          {"tool_version", PGSTORSIM_VERSION},
          {"created_utc", created_utc},
          {"complete", complete},
          {"flags", flags},
          {"config", config},
          {"environment", environment},
          {"summary",
           {{"transactions", transactions},
            {"failed", failed},
            {"retried", retried},
            {"duration_s", duration_s},
            {"tps", tps},
            {"latency_ms", LatencySummaryMs(transaction_latency)}}},
          {"transaction_latency", transaction_latency.ToJson()},
          {"statements", statements_json},
          {"series", series_json},
          {"sections", sections}};
}

StatusOr<Results> Results::FromJson(const nlohmann::json& j) {
  Results r;
  try {
    if (j.value("schema", "") != kResultsSchema) {
      return Status::Error("not a pgstorsim results document (schema key missing or wrong)");
    }
    int version = JsonInteger<int>(j.at("version"), "version");
    if (version != kResultsVersion) {
      return Status::Error("unsupported results version " + std::to_string(version));
    }
    r.kind = j.at("kind").get<std::string>();
    r.label = j.value("label", "");
    r.created_utc = j.value("created_utc", "");
    r.complete = j.value("complete", true);
    r.flags = j.value("flags", std::vector<std::string>{});
    r.config = j.value("config", nlohmann::json::object());
    r.environment = j.value("environment", nlohmann::json::object());
    const auto& summary = j.at("summary");
    r.transactions = JsonInteger<uint64_t>(summary.at("transactions"), "transactions");
    r.failed = JsonIntegerOr<uint64_t>(summary, "failed", 0);
    r.retried = JsonIntegerOr<uint64_t>(summary, "retried", 0);
    r.duration_s = summary.at("duration_s").get<double>();
    r.tps = summary.at("tps").get<double>();
    auto txn = LatencyHistogram::FromJson(j.at("transaction_latency"));
    if (!txn.ok()) return txn.status().WithContext("transaction_latency");
    r.transaction_latency = *txn;
    for (const auto& s : j.value("statements", nlohmann::json::array())) {
      StatementResult sr;
      sr.name = s.at("name").get<std::string>();
      sr.sql = s.value("sql", "");
      sr.failures = JsonIntegerOr<uint64_t>(s, "failures", 0);
      auto h = LatencyHistogram::FromJson(s.at("latency"));
      if (!h.ok()) return h.status().WithContext("statement '" + sr.name + "'");
      sr.latency = *h;
      r.statements.push_back(std::move(sr));
    }
    for (const auto& s : j.value("series", nlohmann::json::array())) {
      r.series.push_back({s.at("t_s").get<double>(),
                          JsonInteger<uint64_t>(s.at("transactions"), "series transactions"),
                          s.at("tps").get<double>(), s.value("mean_latency_ms", 0.0)});
    }
    r.sections = j.value("sections", nlohmann::json::object());
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed results: ") + e.what());
  } catch (const std::out_of_range& e) {
    return Status::Error(std::string("malformed results: ") + e.what());
  }
  return r;
}

void Results::Merge(const Results& other) {
  transactions += other.transactions;
  failed += other.failed;
  retried += other.retried;
  tps += other.tps;
  duration_s = std::max(duration_s, other.duration_s);
  complete = complete && other.complete;
  for (const std::string& f : other.flags) {
    if (std::find(flags.begin(), flags.end(), f) == flags.end()) flags.push_back(f);
  }
  transaction_latency.Merge(other.transaction_latency);
  for (const StatementResult& s : other.statements) {
    auto it = std::find_if(statements.begin(), statements.end(),
                           [&](const StatementResult& mine) { return mine.name == s.name; });
    if (it == statements.end()) {
      statements.push_back(s);
    } else {
      it->failures += s.failures;
      it->latency.Merge(s.latency);
    }
  }
}

Results NewResults(const std::string& kind) {
  Results r;
  r.kind = kind;
  r.created_utc = UtcNow("%Y-%m-%dT%H:%M:%SZ");
  return r;
}

StatusOr<Results> LoadResults(const std::string& path) {
  StatusOr<nlohmann::json> doc = ReadJsonFile(path);
  if (!doc.ok()) return doc.status();
  StatusOr<Results> r = Results::FromJson(*doc);
  if (!r.ok()) return r.status().WithContext(path);
  return r;
}

Status SaveResults(const std::string& path, const Results& results) {
  return WriteJsonAtomically(path, results.ToJson());
}

std::string DefaultResultsPath(const std::string& kind) {
  static std::mutex mu;
  static std::string last_stem;
  static unsigned repeats = 0;
  struct timeval tv {};
  ::gettimeofday(&tv, nullptr);
  char micros[16];
  std::snprintf(micros, sizeof micros, ".%06ldZ", static_cast<long>(tv.tv_usec));
  const std::string stem = "results/runs/" + kind + "-" + UtcNow("%Y%m%dT%H%M%S") + micros +
                           "-" + std::to_string(::getpid());
  std::lock_guard<std::mutex> lock(mu);
  repeats = stem == last_stem ? repeats + 1 : 0;
  last_stem = stem;
  std::string path = stem + (repeats ? "-" + std::to_string(repeats) : "") + ".json";
  struct stat st {};
  while (::stat(path.c_str(), &st) == 0) path = stem + "-" + std::to_string(++repeats) + ".json";
  return path;
}

}  // namespace pgstorsim
