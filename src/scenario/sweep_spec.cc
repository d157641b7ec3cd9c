#include "scenario/sweep_spec.h"

#include <cstdlib>
#include <sstream>

#include "scenario/scenario_results.h"

namespace pgstorsim {
namespace {

constexpr size_t kMaxPoints = 10000000;

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

}  // namespace

size_t SweepSpec::PointCount() const {
  size_t n = values.empty() ? 0 : 1;
  for (const auto& v : values) n *= v.size();
  return n;
}

std::vector<std::string> SweepSpec::PointValues(size_t index) const {
  std::vector<std::string> out(keys.size());
  for (size_t k = keys.size(); k-- > 0;) {
    out[k] = values[k][index % values[k].size()];
    index /= values[k].size();
  }
  return out;
}

std::vector<std::string> SweepSpec::ChoiceKeys() const {
  std::vector<std::string> out;
  for (const std::string& k : keys) {
    if (ScenarioKeyRole(k) == KeyRole::kChoice) out.push_back(k);
  }
  return out;
}

StatusOr<SweepSpec> ParseSweepSpec(const Scenario& base, const std::vector<std::string>& specs) {
  SweepSpec spec;
  double points = 1;
  for (const std::string& text : specs) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
      return Status::Error("--sweep '" + text + "': expected key=v1,v2,...");
    }
    const std::string key = text.substr(0, eq);
    if (!GetScenarioKey(base, key).ok() && key.rfind("calibration.", 0) != 0) {
      return Status::Error("--sweep: unknown key '" + key + "'");
    }
    for (const std::string& k : spec.keys) {
      if (k == key) return Status::Error("--sweep: key '" + key + "' given twice");
    }
    std::vector<std::string> values = SplitCommas(text.substr(eq + 1));
    if (values.empty()) return Status::Error("--sweep '" + text + "': no values");
    Scenario check = base;
    for (const std::string& v : values) {
      Status st = SetScenarioKey(&check, key, v);
      if (!st.ok()) return Status::Error("--sweep: " + st.message());
    }
    points *= static_cast<double>(values.size());
    spec.keys.push_back(key);
    spec.values.push_back(std::move(values));
  }
  if (points > static_cast<double>(kMaxPoints)) {
    return Status::Error("--sweep: " + std::to_string(static_cast<long long>(points)) +
                         " points is more than " + std::to_string(kMaxPoints));
  }
  return spec;
}

StatusOr<Shard> ParseShard(const std::string& text) {
  const size_t slash = text.find('/');
  char* end = nullptr;
  Shard s;
  if (slash != std::string::npos) {
    const std::string i = text.substr(0, slash), n = text.substr(slash + 1);
    s.index = static_cast<int>(std::strtol(i.c_str(), &end, 10));
    const bool i_ok = !i.empty() && *end == '\0';
    s.count = static_cast<int>(std::strtol(n.c_str(), &end, 10));
    if (i_ok && !n.empty() && *end == '\0' && s.count >= 1 && s.index >= 1 && s.index <= s.count) {
      return s;
    }
  }
  return Status::Error("--shard '" + text + "': expected i/n with 1 <= i <= n");
}

std::pair<size_t, size_t> ShardRange(size_t points, const Shard& shard) {
  const auto at = [&](int i) {
    return static_cast<size_t>(static_cast<unsigned long long>(points) * i / shard.count);
  };
  return {at(shard.index - 1), at(shard.index)};
}

StatusOr<Scenario> ApplySweepPoint(const Scenario& base, const SweepSpec& spec,
                                   const std::vector<std::string>& values) {
  Scenario s = base;
  for (size_t k = 0; k < spec.keys.size() && k < values.size(); ++k) {
    Status st = SetScenarioKey(&s, spec.keys[k], values[k]);
    if (!st.ok()) return st;
  }
  Status st = ValidateScenario(s);
  if (!st.ok()) return st;
  return s;
}

StatusOr<Scenario> LoadSweepBase(const std::string& path, const std::vector<std::string>& overrides,
                                 const std::vector<std::string>& specs) {
  auto base = ReadScenario(path, overrides);
  if (!base.ok()) return base.status();
  Status invalid = ValidateScenario(*base);
  if (invalid.ok()) return base;
  auto spec = ParseSweepSpec(*base, specs);
  if (!spec.ok()) return spec.status();
  for (size_t i = 0; i < spec->PointCount(); ++i) {
    if (ApplySweepPoint(*base, *spec, spec->PointValues(i)).ok()) return base;
  }
  return invalid;
}

nlohmann::json SweepSettingsJson(const SweepSpec& spec, const std::vector<std::string>& values) {
  nlohmann::json settings = nlohmann::json::object();
  for (size_t k = 0; k < spec.keys.size() && k < values.size(); ++k) {
    auto [name, value] = ResultsKeyValue(spec.keys[k], values[k]);
    settings[name] = value;
  }
  return settings;
}

nlohmann::json SweepConfigJson(const SweepSpec& spec, const Shard& shard) {
  // Roles are keyed by the results name of each key (scenario_results.h), the name the
  // rows' settings carry; a name's unit is the schema's (FindResultsName).
  nlohmann::json roles = nlohmann::json::object();
  for (size_t i = 0; i < spec.keys.size(); ++i) {
    const std::string& k = spec.keys[i];
    const std::string text =
        i < spec.values.size() && !spec.values[i].empty() ? spec.values[i].front() : "";
    roles[ResultsKeyValue(k, text).first] = KeyRoleName(ScenarioKeyRole(k));
  }
  return {{"keys", spec.keys},
          {"values", spec.values},
          {"roles", roles},
          {"points", spec.PointCount()},
          {"shard", shard.Text()}};
}

}  // namespace pgstorsim
