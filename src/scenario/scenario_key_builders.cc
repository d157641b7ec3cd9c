// The key table's value text conversions and its non-template row builders
// (scenario_key_builders.h), and the canonical size and duration text (scenario_keys.h).
#include "scenario/scenario_key_builders.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace pgstorsim {
namespace scenario_key_builders {

StatusOr<int64_t> ParseInt(const std::string& raw) {
  const std::string text = TrimBlanks(raw);
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') return Status::Error("invalid integer '" + raw + "'");
  if (errno == ERANGE) return Status::Error("integer '" + raw + "' is out of range");
  return static_cast<int64_t>(v);
}

StatusOr<double> ParseDouble(const std::string& raw) {
  double v = 0;
  if (!ParseFiniteNumber(TrimBlanks(raw), &v)) {
    return Status::Error("invalid number '" + raw + "'");
  }
  return v;
}

StatusOr<bool> ParseBool(const std::string& raw) {
  const std::string s = AsciiLower(TrimBlanks(raw));
  if (s == "true" || s == "on" || s == "yes" || s == "1") return true;
  if (s == "false" || s == "off" || s == "no" || s == "0") return false;
  return Status::Error("invalid boolean '" + raw + "' (expected on/off, true/false)");
}

std::string FormatDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

ScenarioKeyEntry RaidLevelKey() {
  return {{"array.level", "enum", "raid0|raid1|raid10|raid5|raid6|raid50|raid60|raid100|jbod"},
          [](Scenario* s, const std::string& v) -> Status {
            auto r = ParseRaidLevel(TrimBlanks(v));
            if (!r.ok()) return r.status();
            s->array.level = *r;
            return Status::Ok();
          },
          [](const Scenario& s) { return std::string(RaidLevelName(s.array.level)); }};
}

ScenarioKeyEntry TopStringKey(const char* key, const char* help, std::string Scenario::*field) {
  return {{key, "string", help},
          [field](Scenario* s, const std::string& v) -> Status {
            s->*field = v;
            return Status::Ok();
          },
          [field](const Scenario& s) { return s.*field; }};
}

}  // namespace scenario_key_builders

std::string FormatSizeCanonical(int64_t bytes) {
  static const struct {
    int64_t scale;
    const char* suffix;
  } kUnits[] = {{1LL << 40, "TiB"}, {1LL << 30, "GiB"}, {1LL << 20, "MiB"}, {1LL << 10, "KiB"}};
  for (const auto& u : kUnits) {
    if (bytes != 0 && bytes % u.scale == 0) return std::to_string(bytes / u.scale) + u.suffix;
  }
  return std::to_string(bytes);
}

std::string FormatDurationCanonical(int64_t ns) {
  if (ns != 0 && ns % kNsPerSec == 0) return std::to_string(ns / kNsPerSec) + "s";
  if (ns % kNsPerUs == 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10gms", static_cast<double>(ns) / kNsPerMs);
    return buf;
  }
  return std::to_string(ns) + "ns";
}

}  // namespace pgstorsim
