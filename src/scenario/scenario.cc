// Scenario loading: TOML walk (toml++ stays in this file), --set overrides, defaults.
#include "scenario/scenario.h"

#include <toml++/toml.h>

#include <cstdio>
#include <sstream>

#include "common/file_util.h"
#include "common/units.h"
#include "scenario/calibration_keys.h"
#include "scenario/scenario_keys.h"

namespace pgstorsim {
namespace {

constexpr const char* kUnknownCalibrationKey =
    "unknown calibration parameter (docs/model.md and docs/simulator.md list them)";

std::string Where(const std::string& source, const toml::node& node) {
  return source + ":" + std::to_string(node.source().begin.line);
}

// The textual form of a scalar TOML value, as a user would have typed it on --set.
StatusOr<std::string> ScalarText(const toml::node& node) {
  if (auto s = node.as_string()) return s->get();
  if (auto i = node.as_integer()) return std::to_string(i->get());
  if (auto f = node.as_floating_point()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", f->get());
    return std::string(buf);
  }
  if (auto b = node.as_boolean()) return std::string(b->get() ? "true" : "false");
  return Status::Error("expected a string, number or boolean");
}

StatusOr<double> NumberOf(const toml::node& node) {
  if (auto i = node.as_integer()) return static_cast<double>(i->get());
  if (auto f = node.as_floating_point()) return f->get();
  return Status::Error("expected a number");
}

Status ParseCalibration(const toml::table& table, const std::string& source, Scenario* s) {
  for (const auto& [k, node] : table) {
    const std::string key = std::string(k.str());
    const std::string where = Where(source, node) + ": key calibration." + key + ": ";
    if (key == "source") {
      auto text = ScalarText(node);
      if (!text.ok()) return Status::Error(where + text.status().message());
      s->calibration.source = *text;
      continue;
    }
    if (key == "standard_errors") {
      const toml::table* errors = node.as_table();
      if (!errors) return Status::Error(where + "expected a table");
      for (const auto& [ek, enode] : *errors) {
        auto v = NumberOf(enode);
        if (!v.ok()) {
          return Status::Error(Where(source, enode) + ": key calibration.standard_errors." +
                               std::string(ek.str()) + ": " + v.status().message());
        }
        s->calibration.standard_errors[std::string(ek.str())] = *v;
      }
      continue;
    }
    if (key != "rms_relative_error" && FindCalibrationKey(key) == nullptr) {
      return Status::Error(where + kUnknownCalibrationKey);
    }
    auto v = NumberOf(node);
    if (!v.ok()) return Status::Error(where + v.status().message());
    if (key == "rms_relative_error") {
      s->calibration.rms_relative_error = *v;
    } else {
      s->calibration.values[key] = *v;
      s->key_lines["calibration." + key] = static_cast<int>(node.source().begin.line);
    }
  }
  return Status::Ok();
}

Status ParseSection(const std::string& section, const toml::table& table, const std::string& source,
                    Scenario* s) {
  for (const auto& [k, node] : table) {
    const std::string key = section + "." + std::string(k.str());
    const std::string where = Where(source, node) + ": key " + key + ": ";
    const ScenarioKeyEntry* entry = FindKey(key);
    if (!entry) return Status::Error(where + "unknown key");
    auto text = ScalarText(node);
    if (!text.ok()) return Status::Error(where + text.status().message());
    Status st = entry->set(s, *text);
    if (!st.ok()) return Status::Error(where + st.message());
    s->key_lines[key] = static_cast<int>(node.source().begin.line);
  }
  return Status::Ok();
}

std::string StemOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

}  // namespace

const std::vector<ScenarioKeyInfo>& ScenarioKeys() {
  static const std::vector<ScenarioKeyInfo> keys = [] {
    std::vector<ScenarioKeyInfo> out;
    for (const ScenarioKeyEntry& e : KeyTable()) out.push_back(e.info);
    return out;
  }();
  return keys;
}

StatusOr<Scenario> ParseScenarioToml(const std::string& text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& err) {
    return Status::Error(source_name + ":" + std::to_string(err.source().begin.line) +
                         ": TOML syntax error: " + std::string(err.description()));
  }
  Scenario s;
  s.source_file = source_name;
  s.name = StemOf(source_name);
  for (const auto& [k, node] : root) {
    const std::string section = std::string(k.str());
    const toml::table* table = node.as_table();
    if (!table) {
      return Status::Error(Where(source_name, node) + ": key " + section +
                           ": expected a [section] table");
    }
    Status st = section == "calibration" ? ParseCalibration(*table, source_name, &s)
                                         : ParseSection(section, *table, source_name, &s);
    if (!st.ok()) return st;
  }
  return s;
}

Status SetScenarioKey(Scenario* scenario, const std::string& key, const std::string& value) {
  if (key.rfind("calibration.", 0) == 0 && key.size() > 12) {
    if (FindCalibrationKey(key.substr(12)) == nullptr) {
      return Status::Error("key " + key + ": " + kUnknownCalibrationKey);
    }
    double v = 0;
    if (!ParseFiniteNumber(value, &v)) {
      return Status::Error("key " + key + ": invalid number '" + value + "'");
    }
    scenario->calibration.values[key.substr(12)] = v;
    return Status::Ok();
  }
  const ScenarioKeyEntry* entry = FindKey(key);
  if (!entry) return Status::Error("unknown key '" + key + "' (see docs/scenario-format.md)");
  Status st = entry->set(scenario, value);
  if (!st.ok()) return Status::Error("key " + key + ": " + st.message());
  scenario->key_lines.erase(key);
  return Status::Ok();
}

Status ApplyOverride(Scenario* scenario, const std::string& assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::Error("--set '" + assignment + "': expected key=value");
  }
  std::string key = assignment.substr(0, eq);
  while (!key.empty() && key.back() == ' ') key.pop_back();
  std::string value = assignment.substr(eq + 1);
  Status st = SetScenarioKey(scenario, key, value);
  return st.ok() ? st : Status::Error("--set " + st.message());
}

StatusOr<std::string> CanonicalScenarioValue(const std::string& key, const std::string& value) {
  Scenario probe;
  Status st = SetScenarioKey(&probe, key, value);
  if (!st.ok()) return st;
  return GetScenarioKey(probe, key);
}

std::string KeyLocation(const Scenario& scenario, const std::string& key) {
  auto line = scenario.key_lines.find(key);
  if (line == scenario.key_lines.end()) return "";
  return scenario.source_file + ":" + std::to_string(line->second) + ": ";
}

StatusOr<std::string> GetScenarioKey(const Scenario& scenario, const std::string& key) {
  if (key.rfind("calibration.", 0) == 0) {
    auto it = scenario.calibration.values.find(key.substr(12));
    if (it == scenario.calibration.values.end()) {
      return Status::Error("key " + key + " is not set");
    }
    std::ostringstream out;
    out << it->second;
    return out.str();
  }
  const ScenarioKeyEntry* entry = FindKey(key);
  if (!entry) return Status::Error("unknown key '" + key + "'");
  return entry->get(scenario);
}

namespace {

// Any line other than blanks and comments.
bool HasContent(const std::string& text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const size_t first = text.find_first_not_of(" \t\r", pos);
    if (first < end && text[first] != '#') return true;
    pos = end + 1;
  }
  return false;
}

// `s` with each "key=value" of `overrides` applied in order.
StatusOr<Scenario> WithOverrides(Scenario s, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) {
    Status st = ApplyOverride(&s, o);
    if (!st.ok()) return st;
  }
  return s;
}

// `s` validated.
StatusOr<Scenario> Validated(StatusOr<Scenario> s) {
  if (!s.ok()) return s;
  Status st = ValidateScenario(*s);
  if (!st.ok()) return st;
  return s;
}

// The file at `path` parsed, with `overrides` applied; not validated.
StatusOr<Scenario> ReadScenarioFile(const std::string& path,
                                    const std::vector<std::string>& overrides) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  if (!HasContent(*text)) {
    return Status::Error(path +
                         ": empty scenario (no keys); give a scenario file, or no --scenario for "
                         "the built-in default");
  }
  auto parsed = ParseScenarioToml(*text, path);
  if (!parsed.ok()) return parsed.status();
  return WithOverrides(std::move(parsed).value(), overrides);
}

// The built-in default with `overrides` applied; not validated.
StatusOr<Scenario> ReadDefaultScenario(const std::vector<std::string>& overrides) {
  Scenario s;
  s.name = "default";
  return WithOverrides(std::move(s), overrides);
}

}  // namespace

StatusOr<Scenario> ReadScenario(const std::string& path,
                                const std::vector<std::string>& overrides) {
  return path.empty() ? ReadDefaultScenario(overrides) : ReadScenarioFile(path, overrides);
}

StatusOr<Scenario> LoadScenario(const std::string& path,
                                const std::vector<std::string>& overrides) {
  return Validated(ReadScenarioFile(path, overrides));
}

StatusOr<Scenario> DefaultScenario(const std::vector<std::string>& overrides) {
  return Validated(ReadDefaultScenario(overrides));
}

int PostgresMajorVersion(const PostgresConfig& pg) {
  int major = 0;
  return std::sscanf(pg.version.c_str(), "%d", &major) == 1 ? major : 0;
}

bool HasCheckpointSegments(const PostgresConfig& pg) {
  int major = 0, minor = 0;
  if (std::sscanf(pg.version.c_str(), "%d.%d", &major, &minor) < 1) return false;
  return major < 9 || (major == 9 && minor < 5);
}

double CheckpointCompletionTarget(const PostgresConfig& pg) {
  if (pg.checkpoint_completion_target >= 0) return pg.checkpoint_completion_target;
  const int major = PostgresMajorVersion(pg);
  return major > 0 && major < 14 ? 0.5 : 0.9;
}

bool UsesLinuxPageCache(const FilesystemConfig& fs) {
  const std::string type = AsciiLower(fs.type);
  for (const char* linux_fs : {"ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs"}) {
    if (type == linux_fs) return true;
  }
  return false;
}

}  // namespace pgstorsim
