// ScenarioToToml: canonical TOML from the key table, calibration last.
#include <cstdint>
#include <cstdio>
#include <sstream>

#include "scenario/scenario.h"
#include "scenario/scenario_keys.h"
#include "scenario/toml_text.h"

namespace pgstorsim {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 if it is not one
// (overlong forms, surrogates and code points above U+10FFFF are not valid).
size_t Utf8SequenceLength(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  uint32_t cp = 0;
  if ((c & 0xE0) == 0xC0) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// A TOML basic string that reads back as `s`: quote and backslash escaped, control
// characters (U+0000-U+001F, U+007F) as \uXXXX, and bytes that are not UTF-8 (TOML
// files must be) replaced by U+FFFD.
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t n = Utf8SequenceLength(s, i);
    if (n == 0) {
      out += "\\uFFFD";
      ++i;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04X", c);
      out += buf;
    } else {
      out.append(s, i, n);
    }
    i += n;
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

std::string TomlCommentText(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD in UTF-8.
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F) {
      out += ' ';
    } else {
      out.append(text, i, n);
    }
    i += n;
  }
  return out;
}

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
    if (comment != key_comments.end()) out << "  # " << TomlCommentText(comment->second);
    out << "\n";
  }
  WriteCalibration(scenario.calibration, out);
  return out.str();
}

}  // namespace pgstorsim
