#include "model/slo.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

#include "common/units.h"

namespace pgstorsim {
namespace {

// Status of a prediction at `base` with `key` set to `value` (a scenario key's text):
// ok + met, or why not.
struct Probe {
  bool valid = false;
  bool met = false;
  std::string refusal;
  Prediction p;
};

Probe ProbeAt(const Scenario& base, const std::string& key, const std::string& value,
              const Slo& slo) {
  Probe probe;
  Scenario s = base;
  Status st = SetScenarioKey(&s, key, value);
  if (st.ok()) st = ValidateScenario(s);
  if (!st.ok()) {
    probe.refusal = st.message();
    return probe;
  }
  auto p = Predict(s);
  if (!p.ok()) {
    probe.refusal = p.status().message();
    return probe;
  }
  probe.valid = true;
  probe.p = *p;
  probe.met = slo.Met(*p);
  return probe;
}

// The largest value in [1, cap] whose probe meets the objective when meeting is
// monotone (met below a threshold, missed above): doubling from `start`, then
// bisection. 0 when 1 misses. *limit: "slo", "search limit", or a refusal.
int64_t LargestMeeting(const std::function<Probe(int64_t)>& probe, int64_t start, int64_t cap,
                       std::string* limit) {
  int64_t good = 0, bad = cap + 1;
  Probe first = probe(start);
  if (first.valid && first.met) {
    good = start;
  } else {
    bad = start;
    if (!first.valid) *limit = first.refusal;
  }
  while (bad == cap + 1 && good < cap) {
    const int64_t next = std::min(cap, good * 2);
    Probe q = probe(next);
    if (q.valid && q.met) {
      good = next;
    } else {
      bad = next;
      *limit = q.valid ? "slo" : q.refusal;
    }
  }
  if (good == cap) {
    *limit = "search limit";
    return good;
  }
  while (bad - good > 1) {
    const int64_t mid = good + (bad - good) / 2;
    Probe q = probe(mid);
    if (q.valid && q.met) {
      good = mid;
    } else {
      bad = mid;
      *limit = q.valid ? "slo" : q.refusal;
    }
  }
  if (good == 0 && bad > 1) {  // `start` missed: look below it.
    return LargestMeeting(probe, 1, bad - 1, limit);
  }
  return good;
}

// The largest data that meets the objective at the scenario's clients, and the
// scenario at twice its data: the scale, or an io workload's file in MiB.
void FindDataHeadroom(const Scenario& s, const Slo& slo, Headroom* h) {
  const bool io = s.workload.type == WorkloadKind::kIo;
  h->data_key = io ? "workload.file_size" : "workload.scale";
  const auto text = [io](int64_t n) { return std::to_string(n) + (io ? "MiB" : ""); };
  const int64_t now =
      io ? std::max<int64_t>(1, s.workload.file_size_bytes / kBytesPerMiB) : s.workload.scale;
  const int64_t found =
      LargestMeeting([&](int64_t n) { return ProbeAt(s, h->data_key, text(n), slo); }, now,
                     io ? kMaxFileMiB : kMaxScale, &h->data_limit);
  h->data = io ? found * kBytesPerMiB : found;
  const std::string twice_text =
      io ? std::to_string(2 * s.workload.file_size_bytes) : std::to_string(2 * s.workload.scale);
  Probe twice = ProbeAt(s, h->data_key, twice_text, slo);
  h->have_double_data = twice.valid;
  if (twice.valid) h->at_double_data = twice.p;
}

}  // namespace

double Slo::Value(const Prediction& p) const {
  const LatencyPercentiles& q = p.transaction_percentiles;
  if (metric == "tps") return p.tps;
  if (metric == "p50_ms") return q.p50_ms;
  if (metric == "p99_ms") return q.p99_ms;
  if (metric == "mean_ms") return p.transaction_latency_ms;
  return q.p95_ms;
}

double Slo::Margin(const Prediction& p) const {
  const double v = Value(p);
  return at_most ? 1 - v / limit : v / limit - 1;
}

StatusOr<Slo> ParseSlo(const std::string& raw) {
  const std::string text = TrimBlanks(raw);
  const Status bad = Status::Error("--slo '" + raw +
                                   "': expected p50|p95|p99|mean<DURATION (e.g. p95<50ms) "
                                   "or tps>=N");
  Slo slo;
  slo.text = text;
  size_t op = text.find_first_of("<>");
  if (op == std::string::npos || op == 0) return bad;
  const std::string name = AsciiLower(TrimBlanks(text.substr(0, op)));
  size_t value_at = op + 1;
  if (value_at < text.size() && text[value_at] == '=') ++value_at;
  const std::string value = TrimBlanks(text.substr(value_at));
  if (value.empty()) return bad;
  if (name == "tps") {
    if (text[op] != '>') return bad;
    if (!ParseFiniteNumber(value, &slo.limit) || !(slo.limit > 0)) return bad;
    slo.metric = "tps";
    slo.at_most = false;
    return slo;
  }
  if (text[op] != '<' || (name != "p50" && name != "p95" && name != "p99" && name != "mean")) {
    return bad;
  }
  auto ns = ParseDurationNs(value);
  if (!ns.ok() || *ns <= 0) return bad;
  slo.metric = name + "_ms";
  slo.limit = NsToMs(*ns);
  return slo;
}

StatusOr<Headroom> FindHeadroom(const Scenario& s, const Slo& slo) {
  auto base = Predict(s);
  if (!base.ok()) return base.status();
  Headroom h;
  h.at_base = *base;
  h.meets = slo.Met(*base);
  h.margin = slo.Margin(*base);
  const int clients = s.workload.clients;
  if (slo.metric == "tps") {
    // Throughput grows with clients: the smallest count that reaches the objective is
    // the first whose negation ("below the objective") fails.
    const auto missed = [&](int64_t n) {
      Probe q = ProbeAt(s, "workload.clients", std::to_string(n), slo);
      q.met = q.valid && !q.met;
      return q;
    };
    std::string limit;
    const int64_t last_missing = LargestMeeting(missed, clients, kMaxClients, &limit);
    h.clients = last_missing >= kMaxClients ? 0 : static_cast<int>(last_missing + 1);
    h.clients_limit = h.clients == 0 ? "search limit" : "slo";
  } else {
    h.clients = static_cast<int>(LargestMeeting(
        [&](int64_t n) { return ProbeAt(s, "workload.clients", std::to_string(n), slo); }, clients,
        kMaxClients, &h.clients_limit));
  }
  FindDataHeadroom(s, slo, &h);
  return h;
}

}  // namespace pgstorsim
