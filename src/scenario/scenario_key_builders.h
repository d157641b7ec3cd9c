// Internal to src/scenario: the builders of the key table's rows (scenario_keys.cc), one
// per kind of value (size, duration, int, double, rpm, bool, string, enum, RAID level),
// and the text conversions their setters and getters use. A row's setter parses the
// text and stores it in one field of one section of a Scenario; its getter writes that
// field back as canonical text (FormatSizeCanonical / FormatDurationCanonical,
// scenario_keys.h).
// Units: sizes in bytes, durations in nanoseconds, as the Scenario fields hold them.
// Ownership: a row holds copies of its member pointers (and enum names); it keeps no
// reference to any Scenario. Thread safety: pure functions; a built row is immutable.
#ifndef PGSTORSIM_SCENARIO_SCENARIO_KEY_BUILDERS_H_
#define PGSTORSIM_SCENARIO_SCENARIO_KEY_BUILDERS_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/status.h"
#include "common/units.h"
#include "scenario/scenario.h"
#include "scenario/scenario_keys.h"

namespace pgstorsim::scenario_key_builders {

// Value text to value; errors quote `raw` as given.
StatusOr<int64_t> ParseInt(const std::string& raw);    // Decimal, blanks trimmed.
StatusOr<double> ParseDouble(const std::string& raw);  // Finite numbers only.
StatusOr<bool> ParseBool(const std::string& raw);      // on/off, true/false, yes/no, 1/0.
std::string FormatDouble(double v);                    // "%.10g"

// A section of a Scenario (host, postgres, ...), as a member pointer.
template <typename S>
using Section = S Scenario::*;

template <typename S>
ScenarioKeyEntry SizeKey(const char* key, const char* help, Section<S> sec, int64_t S::*field) {
  return {{key, "size", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            auto r = ParseBytes(v);
            if (!r.ok()) return r.status();
            (s->*sec).*field = *r;
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return FormatSizeCanonical((s.*sec).*field); }};
}

template <typename S>
ScenarioKeyEntry DurationKey(const char* key, const char* help, Section<S> sec, int64_t S::*field) {
  return {{key, "duration", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            auto r = ParseDurationNs(v);
            if (!r.ok()) return r.status();
            (s->*sec).*field = *r;
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return FormatDurationCanonical((s.*sec).*field); }};
}

// OK when `v` fits T (so it is stored, and written back, unchanged).
template <typename T>
Status CheckIntRange(int64_t v) {
  const bool fits = std::is_unsigned_v<T>
                        ? v >= 0 && static_cast<uint64_t>(v) <= std::numeric_limits<T>::max()
                        : v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                              v <= static_cast<int64_t>(std::numeric_limits<T>::max());
  if (fits) return Status::Ok();
  const std::string max = std::to_string(
      std::min<uint64_t>(std::numeric_limits<T>::max(), std::numeric_limits<int64_t>::max()));
  return Status::Error("must be between " + std::to_string(std::numeric_limits<T>::min()) +
                       " and " + max + " (got " + std::to_string(v) + ")");
}

template <typename S, typename T>
ScenarioKeyEntry IntKey(const char* key, const char* help, Section<S> sec, T S::*field) {
  return {{key, "int", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            auto r = ParseInt(v);
            if (!r.ok()) return r.status();
            Status in_range = CheckIntRange<T>(*r);
            if (!in_range.ok()) return in_range;
            (s->*sec).*field = static_cast<T>(*r);
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return std::to_string((s.*sec).*field); }};
}

template <typename S>
ScenarioKeyEntry DoubleKey(const char* key, const char* help, Section<S> sec, double S::*field) {
  return {{key, "double", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            auto r = ParseDouble(v);
            if (!r.ok()) return r.status();
            (s->*sec).*field = *r;
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return FormatDouble((s.*sec).*field); }};
}

template <typename S>
ScenarioKeyEntry RpmKey(const char* key, const char* help, Section<S> sec, double S::*field) {
  return {{key, "rpm", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            auto r = ParseRpm(v);
            if (!r.ok()) return r.status();
            (s->*sec).*field = *r;
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return FormatDouble((s.*sec).*field) + "rpm"; }};
}

template <typename S>
ScenarioKeyEntry BoolKey(const char* key, const char* help, Section<S> sec, bool S::*field) {
  return {{key, "bool", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            auto r = ParseBool(v);
            if (!r.ok()) return r.status();
            (s->*sec).*field = *r;
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return std::string((s.*sec).*field ? "on" : "off"); }};
}

template <typename S>
ScenarioKeyEntry StringKey(const char* key, const char* help, Section<S> sec,
                           std::string S::*field) {
  return {{key, "string", help},
          [sec, field](Scenario* s, const std::string& v) -> Status {
            (s->*sec).*field = v;
            return Status::Ok();
          },
          [sec, field](const Scenario& s) { return (s.*sec).*field; }};
}

// Enum values: the first name of each value is canonical; later names are aliases.
template <typename S, typename E>
ScenarioKeyEntry EnumKey(const char* key, const char* help, Section<S> sec, E S::*field,
                         std::vector<std::pair<std::string, E>> names) {
  return {{key, "enum", help},
          [sec, field, names](Scenario* s, const std::string& v) -> Status {
            const std::string wanted = AsciiLower(TrimBlanks(v));
            for (const auto& [name, value] : names) {
              if (name == wanted) {
                (s->*sec).*field = value;
                return Status::Ok();
              }
            }
            std::string allowed;
            for (const auto& [name, value] : names) allowed += (allowed.empty() ? "" : "|") + name;
            return Status::Error("invalid value '" + v + "' (expected " + allowed + ")");
          },
          [sec, field, names](const Scenario& s) {
            for (const auto& [name, value] : names) {
              if (value == (s.*sec).*field) return name;
            }
            return std::string("?");
          }};
}

// array.level, through the layout's RAID level names (layout/raid_layout.h).
ScenarioKeyEntry RaidLevelKey();
// A string field of the Scenario itself (scenario.name, scenario.description).
ScenarioKeyEntry TopStringKey(const char* key, const char* help, std::string Scenario::*field);

}  // namespace pgstorsim::scenario_key_builders

#endif  // PGSTORSIM_SCENARIO_SCENARIO_KEY_BUILDERS_H_
