// ScenarioToToml: canonical TOML from the key table, calibration last.
#include <cstdio>
#include <sstream>

#include "scenario/scenario.h"
#include "scenario/scenario_keys.h"

namespace pgstorsim {
namespace {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // TOML float.
  return s;
}

std::string TomlValue(const ScenarioKeyEntry& e, const Scenario& s) {
  const std::string text = e.get(s);
  if (e.info.kind == "int") return text;
  if (e.info.kind == "double") return Number(std::stod(text));
  if (e.info.kind == "bool") return text == "on" ? "true" : "false";
  return Quote(text);
}

void WriteCalibration(const CalibrationConfig& c, std::ostringstream& out) {
  if (c.values.empty() && c.source.empty()) return;
  out << "\n[calibration]\n";
  if (!c.source.empty()) out << "source = " << Quote(c.source) << "\n";
  out << "rms_relative_error = " << Number(c.rms_relative_error) << "\n";
  for (const auto& [k, v] : c.values) out << k << " = " << Number(v) << "\n";
  if (c.standard_errors.empty()) return;
  out << "\n[calibration.standard_errors]\n";
  for (const auto& [k, v] : c.standard_errors) out << k << " = " << Number(v) << "\n";
}

}  // namespace

std::string ScenarioToToml(const Scenario& scenario,
                           const std::map<std::string, std::string>& key_comments) {
  std::ostringstream out;
  std::string section;
  for (const ScenarioKeyEntry& e : KeyTable()) {
    const std::string& key = e.info.key;
    const size_t dot = key.find('.');
    const std::string sec = key.substr(0, dot);
    if (sec != section) {
      out << (section.empty() ? "" : "\n") << "[" << sec << "]\n";
      section = sec;
    }
    out << key.substr(dot + 1) << " = " << TomlValue(e, scenario);
    auto comment = key_comments.find(key);
    if (comment != key_comments.end()) out << "  # " << comment->second;
    out << "\n";
  }
  WriteCalibration(scenario.calibration, out);
  return out.str();
}

}  // namespace pgstorsim
