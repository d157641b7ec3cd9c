#include "driver/run_options.h"

#include "common/units.h"

namespace pgstorsim {
namespace {

Status ParseDurationOption(const std::string& option, const std::string& text, int64_t* out) {
  auto ns = ParseDurationNs(text);
  if (!ns.ok()) return ns.status().WithContext(option);
  if (*ns < 0) return Status::Error(option + " must not be negative");
  *out = *ns;
  return Status::Ok();
}

}  // namespace

StatusOr<RunConfig> ValidateRunOptions(const RunOptions& o) {
  RunConfig c;
  if (o.clients < 1) return Status::Error("--clients must be >= 1");
  if (o.threads < 1) return Status::Error("--threads must be >= 1");
  if (o.threads > o.clients) {
    return Status::Error("--threads (" + std::to_string(o.threads) +
                         ") must not exceed --clients (" + std::to_string(o.clients) + ")");
  }
  c.clients = o.clients;
  c.threads = o.threads;
  if (!o.duration.empty() && o.transactions > 0) {
    return Status::Error("--duration and --transactions are mutually exclusive");
  }
  if (o.transactions < 0) return Status::Error("--transactions must be >= 1");
  c.transactions_per_client = o.transactions;
  if (o.transactions == 0) {
    Status s =
        ParseDurationOption("--duration", o.duration.empty() ? "60s" : o.duration, &c.duration_ns);
    if (!s.ok()) return s;
    if (c.duration_ns <= 0) return Status::Error("--duration must be > 0");
  }
  auto workload = ParseWorkloadKind(o.workload);
  if (!workload.ok()) return workload.status().WithContext("--workload");
  c.workload = *workload;
  if (o.protocol != "simple" && o.protocol != "prepared") {
    return Status::Error("--protocol must be simple or prepared (got '" + o.protocol + "')");
  }
  c.prepared = o.protocol == "prepared";
  Status s = ParseDurationOption("--warmup", o.warmup.empty() ? "0s" : o.warmup, &c.warmup_ns);
  if (!s.ok()) return s;
  if (o.rate_tps < 0) return Status::Error("--rate must be > 0");
  c.rate_tps = o.rate_tps;
  if (!o.progress.empty()) {
    s = ParseDurationOption("--progress", o.progress, &c.progress_ns);
    if (!s.ok()) return s;
    if (c.progress_ns < kNsPerMs * 100) return Status::Error("--progress must be >= 100ms");
  }
  c.seed = o.seed;
  if (o.max_tries < 1) return Status::Error("--max-tries must be >= 1");
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

nlohmann::json RunConfigToJson(const RunConfig& c, int scale) {
  return {{"scale", scale},
          {"clients", c.clients},
          {"threads", c.threads},
          {"duration_s", NsToSec(c.duration_ns)},
          {"transactions_per_client", c.transactions_per_client},
          {"workload", WorkloadKindName(c.workload)},
          {"protocol", c.prepared ? "prepared" : "simple"},
          {"warmup_s", NsToSec(c.warmup_ns)},
          {"rate_tps", c.rate_tps},
          {"progress_s", NsToSec(c.progress_ns)},
          {"seed", c.seed},
          {"max_tries", c.max_tries},
          {"cache", CacheModeName(c.cache)}};
}

}  // namespace pgstorsim
