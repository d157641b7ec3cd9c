#include "driver/run_options.h"

#include <cstdio>
#include <ctime>

#include "common/units.h"

namespace pgstorsim {
namespace {

Status ParseDurationOption(const std::string& option, const std::string& text, int64_t* out) {
  auto ns = ParseDurationNs(text);
  if (!ns.ok()) return ns.status().WithContext(option);
  if (*ns < 0) return Status::Error(option + " must be at least 0 (got " + text + ")");
  *out = *ns;
  return Status::Ok();
}

Status ValidateScripts(const RunOptions& o, RunConfig* c) {
  std::vector<std::string> builtins = o.builtins;
  if (o.select_only) builtins.push_back("select-only");
  if (o.simple_update) builtins.push_back("simple-update");
  auto mix = BuildScriptMix(builtins, o.files, o.workload);
  if (!mix.ok()) return mix.status();
  c->mix = std::make_shared<const ScriptMix>(std::move(mix).value());
  c->workload = c->mix->MainKind();
  return Status::Ok();
}

Status ValidateLogging(const RunOptions& o, RunConfig* c) {
  if (o.aggregate_interval_s < 0) return Status::Error("--aggregate-interval must be at least 1 s");
  if (o.aggregate_interval_s > 0 && !o.log) {
    return Status::Error("--aggregate-interval needs -l (as in pgbench)");
  }
  if (o.log_prefix.empty()) return Status::Error("--log-prefix must not be empty");
  c->log = o.log;
  c->log_prefix = o.log_prefix;
  c->aggregate_interval_s = o.aggregate_interval_s;
  return Status::Ok();
}

Status AtLeast(const std::string& option, const std::string& min, const std::string& got) {
  return Status::Error(option + " must be at least " + min + " (got " + got + ")");
}

}  // namespace

int64_t UnixNowNs() {
  struct timespec ts {};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * kNsPerSec + ts.tv_nsec;
}

std::string FormatUnixTime(int64_t unix_ns) {
  std::time_t s = static_cast<std::time_t>(unix_ns / kNsPerSec);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ",
                static_cast<int>((unix_ns % kNsPerSec) / kNsPerMs));
  return buf;
}

StatusOr<int64_t> ParseStartAt(const std::string& text, int64_t now_unix_ns) {
  const std::string bad = "--start-at '" + text +
                          "': expected HH:MM[:SS] (UTC), YYYY-MM-DDTHH:MM:SS[Z], @UNIXSECONDS or "
                          "+DURATION";
  if (text.empty()) return Status::Error(bad);
  if (text[0] == '+') {
    auto ns = ParseDurationNs(text.substr(1));
    if (!ns.ok() || *ns < 0) return Status::Error(bad);
    return now_unix_ns + *ns;
  }
  if (text[0] == '@') {
    double sec = 0;  // At most 9e9 s: its nanoseconds fit in int64_t.
    if (!ParseFiniteNumber(text.substr(1), &sec) || sec < 0 || sec > 9e9) {
      return Status::Error(bad);
    }
    return static_cast<int64_t>(sec * 1e9);
  }
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, n = 0;
  double sec = 0;
  std::tm tm{};
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%lf%n", &y, &mo, &d, &h, &mi, &sec, &n) == 6 &&
      (static_cast<size_t>(n) == text.size() ||
       (static_cast<size_t>(n) + 1 == text.size() && text.back() == 'Z'))) {
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    return static_cast<int64_t>(timegm(&tm)) * kNsPerSec + static_cast<int64_t>(sec * 1e9);
  }
  n = 0;
  sec = 0;
  int fields = std::sscanf(text.c_str(), "%d:%d%n:%lf%n", &h, &mi, &n, &sec, &n);
  if (fields < 2 || static_cast<size_t>(n) != text.size() || h > 23 || mi > 59 || sec >= 61) {
    return Status::Error(bad);
  }
  std::time_t now_s = static_cast<std::time_t>(now_unix_ns / kNsPerSec);
  gmtime_r(&now_s, &tm);
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = 0;
  int64_t at = static_cast<int64_t>(timegm(&tm)) * kNsPerSec + static_cast<int64_t>(sec * 1e9);
  if (at < now_unix_ns) at += 86400 * kNsPerSec;
  return at;
}

StatusOr<RunConfig> ValidateRunOptions(const RunOptions& o, int64_t now_unix_ns) {
  RunConfig c;
  if (o.clients < 1) return AtLeast("--clients", "1", std::to_string(o.clients));
  if (o.threads < 1) return AtLeast("--threads", "1", std::to_string(o.threads));
  if (o.threads > o.clients) {
    return Status::Error("--threads (" + std::to_string(o.threads) +
                         ") must not exceed --clients (" + std::to_string(o.clients) + ")");
  }
  c.clients = o.clients;
  c.threads = o.threads;
  if (!o.duration.empty() && o.transactions > 0) {
    return Status::Error("--duration and --transactions are mutually exclusive");
  }
  if (o.transactions < 0) return AtLeast("--transactions", "1", std::to_string(o.transactions));
  c.transactions_per_client = o.transactions;
  if (o.transactions == 0) {
    Status s =
        ParseDurationOption("--duration", o.duration.empty() ? "60s" : o.duration, &c.duration_ns);
    if (!s.ok()) return s;
    if (c.duration_ns <= 0) return Status::Error("--duration must be more than 0 s");
  }
  auto workload = ParseWorkloadKind(o.workload);
  if (!workload.ok()) return workload.status().WithContext("--workload");
  Status scripts = ValidateScripts(o, &c);
  if (!scripts.ok()) return scripts;
  if (!o.keys_log.empty() && (c.mix->HasCustom() || c.mix->entries.size() > 1)) {
    return Status::Error(
        "--keys-log records the keys of one builtin script (not with -f or several -b)");
  }
  if (o.protocol != "simple" && o.protocol != "prepared") {
    return Status::Error("--protocol must be simple or prepared (got '" + o.protocol + "')");
  }
  c.prepared = o.protocol == "prepared";
  Status s = ParseDurationOption("--warmup", o.warmup.empty() ? "0s" : o.warmup, &c.warmup_ns);
  if (!s.ok()) return s;
  if (o.rate_tps < 0) return Status::Error("--rate must be more than 0 tps");
  c.rate_tps = o.rate_tps;
  if (!o.progress.empty()) {
    s = ParseDurationOption("--progress", o.progress, &c.progress_ns);
    if (!s.ok()) return s;
    if (c.progress_ns < kNsPerMs * 100) return AtLeast("--progress", "100ms", o.progress);
  }
  c.seed = o.seed;
  if (o.max_tries < 1) return AtLeast("--max-tries", "1", std::to_string(o.max_tries));
  c.max_tries = o.max_tries;
  if (o.cache == "as-is") {
    c.cache = CacheMode::kAsIs;
  } else if (o.cache == "cold") {
    c.cache = CacheMode::kCold;
  } else if (o.cache == "warm") {
    c.cache = CacheMode::kWarm;
  } else {
    return Status::Error("--cache must be cold, warm or as-is (got '" + o.cache + "')");
  }
  c.per_second = o.per_second;
  Status logging = ValidateLogging(o, &c);
  if (!logging.ok()) return logging;
  c.vacuum = !o.no_vacuum;
  if (!o.start_at.empty()) {
    auto at = ParseStartAt(o.start_at, now_unix_ns);
    if (!at.ok()) return at.status();
    if (*at < now_unix_ns - kNsPerSec) {
      return Status::Error("--start-at '" + o.start_at + "' is in the past");
    }
    c.start_at_unix_ns = *at;
  }
  if (!o.cold_command.empty() && c.cache != CacheMode::kCold) {
    return Status::Error("--cold-command needs --cache cold");
  }
  c.cold_command = o.cold_command;
  c.create_extension = o.create_extension;
  s = ParseDurationOption("--max-reconnect-wait", o.max_reconnect_wait, &c.max_reconnect_wait_ns);
  if (!s.ok()) return s;
  if (c.max_reconnect_wait_ns <= 0) {
    return Status::Error("--max-reconnect-wait must be more than 0 s");
  }
  return c;
}

const char* CacheModeName(CacheMode mode) {
  switch (mode) {
    case CacheMode::kAsIs:
      return "as-is";
    case CacheMode::kCold:
      return "cold";
    case CacheMode::kWarm:
      return "warm";
  }
  return "?";
}

const ScriptMix& RunConfig::Mix() const {
  if (mix != nullptr) return *mix;
  static const ScriptMix kBuiltins[] = {*BuildScriptMix({"tpcb-like"}, {}, ""),
                                        *BuildScriptMix({"simple-update"}, {}, ""),
                                        *BuildScriptMix({"select-only"}, {}, "")};
  return kBuiltins[static_cast<int>(workload)];
}

nlohmann::json ScriptsJson(const RunConfig& c) {
  nlohmann::json out = nlohmann::json::array();
  for (const ScriptEntry& e : c.Mix().entries) {
    out.push_back({{"name", e.name}, {"weight", e.weight}, {"builtin", e.builtin}});
  }
  return out;
}

nlohmann::json RunConfigToJson(const RunConfig& c) {
  return {{"threads", c.threads},
          {"warmup_s", NsToSec(c.warmup_ns)},
          {"progress_s", NsToSec(c.progress_ns)},
          {"max_tries", c.max_tries},
          {"scripts", ScriptsJson(c)},
          {"vacuum", c.vacuum},
          {"start_at_unix_s", NsToSec(c.start_at_unix_ns)},
          {"max_reconnect_wait_s", NsToSec(c.max_reconnect_wait_ns)}};
}

}  // namespace pgstorsim
