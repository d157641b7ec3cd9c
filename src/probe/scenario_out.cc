// ProbeScenarioToml: facts -> a commented scenario file (probe.h).
#include <map>

#include "probe/probe.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

std::string Describe(const Fact& f) {
  switch (f.origin) {
    case FactOrigin::kDetected:
      return "detected: " + f.source;
    case FactOrigin::kMeasured:
      return "measured by the device benchmark: " + f.source;
    case FactOrigin::kAssumed:
      return "assumed: " + f.source;
    case FactOrigin::kUnknown:
      return "unknown (" + f.source + "); default kept";
  }
  return "";
}

// The default scenario with each fact that names a scenario key applied, in order (a later fact
// overrides an earlier one); records its origin in `comments` and other facts in `notes`.
// `origins` (if given) receives each applied key's origin.
StatusOr<Scenario> ApplyFacts(const std::vector<Fact>& facts,
                              std::map<std::string, std::string>* comments,
                              std::vector<std::string>* notes,
                              std::map<std::string, FactOrigin>* origins = nullptr) {
  auto scenario = DefaultScenario();
  if (!scenario.ok()) return scenario.status();
  Scenario applied = *scenario;
  Scenario* s = &applied;
  for (const Fact& f : facts) {
    const bool is_key = GetScenarioKey(*s, f.key).ok();
    if (!is_key) {
      notes->push_back(f.key + " = " + (f.value.empty() ? "?" : f.value) + "  (" + Describe(f) +
                       ")");
      continue;
    }
    if (!f.value.empty()) {
      Status set = SetScenarioKey(s, f.key, f.value);
      if (!set.ok()) {
        notes->push_back(f.key + " = " + f.value + " not applied: " + set.message());
        continue;
      }
    }
    (*comments)[f.key] = Describe(f);
    if (origins != nullptr) (*origins)[f.key] = f.origin;
  }
  return applied;
}

}  // namespace

StatusOr<Scenario> ScenarioOfFacts(const std::vector<Fact>& facts) {
  std::map<std::string, std::string> comments;
  std::vector<std::string> notes;
  return ApplyFacts(facts, &comments, &notes);
}

StatusOr<ProbeKeyCounts> CountProbeKeys(const std::vector<Fact>& facts) {
  std::map<std::string, std::string> comments;
  std::vector<std::string> notes;
  std::map<std::string, FactOrigin> origins;
  auto applied = ApplyFacts(facts, &comments, &notes, &origins);
  if (!applied.ok()) return applied.status();
  ProbeKeyCounts counts;
  counts.notes = static_cast<int>(notes.size());
  for (const ScenarioKeyInfo& k : ScenarioKeys()) {
    auto it = origins.find(k.key);
    if (it == origins.end()) {
      ++counts.defaults;
      continue;
    }
    (it->second == FactOrigin::kDetected   ? counts.detected
     : it->second == FactOrigin::kMeasured ? counts.measured
     : it->second == FactOrigin::kAssumed  ? counts.assumed
                                           : counts.unknown)++;
  }
  return counts;
}

StatusOr<std::string> ProbeScenarioToml(const std::vector<Fact>& facts, const std::string& header) {
  std::map<std::string, std::string> comments;
  std::vector<std::string> notes;
  auto applied = ApplyFacts(facts, &comments, &notes);
  if (!applied.ok()) return applied.status();
  Scenario s = *applied;
  for (const ScenarioKeyInfo& k : ScenarioKeys()) {
    if (!comments.count(k.key)) comments[k.key] = "assumed (default)";
  }
  Status valid = ValidateScenario(s);
  if (!valid.ok()) return valid.WithContext("probed scenario");
  std::string out;
  for (size_t start = 0; start < header.size();) {
    size_t end = header.find('\n', start);
    if (end == std::string::npos) end = header.size();
    out += "# " + header.substr(start, end - start) + "\n";
    start = end + 1;
  }
  if (!notes.empty()) {
    out += "#\n# Facts without a scenario key (for the reader; the models do not use them yet):\n";
    for (const std::string& n : notes) out += "#   " + n + "\n";
  }
  out += "\n" + ScenarioToToml(s, comments);
  return out;
}

}  // namespace pgstorsim
