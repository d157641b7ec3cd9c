// Fuzz targets for the text parsers: scenario TOML (with its round-trip property),
// keys log, the four measurement importers, and units.
#include <string>

#include "common/units.h"
#include "fuzz/fuzz_targets.h"
#include "model/measured.h"
#include "scenario/scenario.h"
#include "workload/keys_log.h"

namespace pgstorsim::fuzz {
namespace {

std::string Text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace

// Property: whatever parses, its canonical TOML parses again, and the canonical TOML of
// that is the same text (ScenarioToToml is a fixed point after one round).
int FuzzScenarioToml(const uint8_t* data, size_t size) {
  auto s = ParseScenarioToml(Text(data, size), "fuzz.toml");
  if (!s.ok()) return 0;
  ValidateScenario(*s);
  const std::string once = ScenarioToToml(*s);
  auto back = ParseScenarioToml(once, "once.toml");
  if (!back.ok()) std::fprintf(stderr, "%s\n%s\n", back.status().message().c_str(), once.c_str());
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(ScenarioToToml(*back) == once);
  return 0;
}

// Property: every record read formats and parses back to itself.
int FuzzKeysLog(const uint8_t* data, size_t size) {
  auto records = ParseKeysLog(Text(data, size), "fuzz.keys");
  if (!records.ok()) return 0;
  for (const KeysLogRecord& r : *records) {
    auto back = ParseKeysLogLine(FormatKeysLogRecord(r), 2);
    FUZZ_CHECK(back.ok());
    FUZZ_CHECK(*back == r);
  }
  return 0;
}

int FuzzPgbench(const uint8_t* data, size_t size) {
  const std::string text = Text(data, size);
  ParsePgbenchText(text, "fuzz.txt");
  ParseMeasuredText(text, "fuzz.txt");
  return 0;
}

int FuzzFio(const uint8_t* data, size_t size) {
  const std::string text = Text(data, size);
  ParseFioJson(text, "fuzz.json");
  ParseMeasuredText(text, "fuzz.json");
  return 0;
}

int FuzzRandomio(const uint8_t* data, size_t size) {
  ParseRandomioText(Text(data, size), "fuzz.txt");
  return 0;
}

int FuzzBonnie(const uint8_t* data, size_t size) {
  ParseBonnieText(Text(data, size), "fuzz.txt");
  return 0;
}

// Properties: sizes and durations are never negative; a size or duration that parses
// reads back exactly from its plain number of bytes / ns (while a double holds it
// exactly); the display forms never fail.
int FuzzUnits(const uint8_t* data, size_t size) {
  constexpr int64_t kExactInDouble = int64_t{1} << 53;
  const std::string text = Text(data, size);
  auto bytes = ParseBytes(text);
  if (bytes.ok()) {
    FUZZ_CHECK(*bytes >= 0);
    if (*bytes < kExactInDouble) FUZZ_CHECK(*ParseBytes(std::to_string(*bytes)) == *bytes);
    FormatBytes(*bytes);
  }
  auto ns = ParseDurationNs(text);
  if (ns.ok()) {
    FUZZ_CHECK(*ns >= 0);
    if (*ns < kExactInDouble) FUZZ_CHECK(*ParseDurationNs(std::to_string(*ns) + "ns") == *ns);
    FormatDurationNs(*ns);
  }
  ParseRpm(text);
  return 0;
}

}  // namespace pgstorsim::fuzz
