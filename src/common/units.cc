#include "common/units.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace pgstorsim {
namespace {

// Splits "3.4ms" into 3.4 and "ms". Fails on an empty or non-numeric prefix.
bool SplitNumber(const std::string& text, double* number, std::string* suffix) {
  const char* begin = text.c_str();
  char* end = nullptr;
  *number = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(*number)) return false;
  *suffix = TrimBlanks(std::string(end));
  return true;
}

}  // namespace

std::string TrimBlanks(const std::string& text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

bool ParseFiniteNumber(const std::string& text, double* value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtod(text.c_str(), &end);
  return *end == '\0' && errno != ERANGE && std::isfinite(*value);
}

std::string AsciiLower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

StatusOr<int64_t> ParseBytes(const std::string& raw) {
  const std::string text = TrimBlanks(raw);
  double number = 0;
  std::string suffix;
  if (!SplitNumber(text, &number, &suffix) || number < 0) {
    return Status::Error("invalid size '" + raw + "' (expected e.g. 8k, 64KiB, 1MiB, 24GiB)");
  }
  const std::string s = AsciiLower(suffix);
  double scale = 0;
  if (s.empty() || s == "b")
    scale = 1;
  else if (s == "k" || s == "kb" || s == "kib")
    scale = 1024.0;
  else if (s == "m" || s == "mb" || s == "mib")
    scale = 1024.0 * 1024;
  else if (s == "g" || s == "gb" || s == "gib")
    scale = 1024.0 * 1024 * 1024;
  else if (s == "t" || s == "tb" || s == "tib")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else if (s == "s" || s == "sector" || s == "sectors")
    scale = kSectorBytes;
  else
    return Status::Error("invalid size unit '" + suffix + "' in '" + raw + "'");
  double bytes = number * scale;
  if (bytes > 9.0e18 || std::fabs(bytes - std::round(bytes)) > 1e-6) {
    return Status::Error("size '" + raw + "' is not a whole number of bytes");
  }
  return static_cast<int64_t>(std::llround(bytes));
}

StatusOr<int64_t> ParseDurationNs(const std::string& raw) {
  const std::string text = TrimBlanks(raw);
  double number = 0;
  std::string suffix;
  if (!SplitNumber(text, &number, &suffix) || number < 0) {
    return Status::Error("invalid duration '" + raw + "' (expected e.g. 3.4ms, 60s, 5min)");
  }
  const std::string s = AsciiLower(suffix);
  double scale = 0;
  if (s == "ns")
    scale = 1;
  else if (s == "us" || s == "µs")
    scale = kNsPerUs;
  else if (s == "ms")
    scale = kNsPerMs;
  else if (s.empty() || s == "s" || s == "sec")
    scale = kNsPerSec;
  else if (s == "m" || s == "min")
    scale = 60.0 * kNsPerSec;
  else if (s == "h")
    scale = 3600.0 * kNsPerSec;
  else
    return Status::Error("invalid duration unit '" + suffix + "' in '" + raw + "'");
  double ns = number * scale;
  if (ns > 9.0e18) return Status::Error("duration '" + raw + "' is too large");
  return static_cast<int64_t>(std::llround(ns));
}

StatusOr<double> ParseRpm(const std::string& raw) {
  const std::string text = TrimBlanks(raw);
  double number = 0;
  std::string suffix;
  if (!SplitNumber(text, &number, &suffix) || number <= 0 ||
      !(suffix.empty() || AsciiLower(suffix) == "rpm")) {
    return Status::Error("invalid rotational speed '" + raw + "' (expected e.g. 15000rpm)");
  }
  return number;
}

std::string FormatBytes(int64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (unit < 4 && std::fabs(value) >= 1024) {
    value /= 1024;
    ++unit;
  }
  char buf[64];
  if (value == std::floor(value)) {
    std::snprintf(buf, sizeof buf, "%.0f %s", value, kUnits[unit]);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f %s", value, kUnits[unit]);
  }
  return buf;
}

std::string FormatDurationNs(int64_t ns) {
  char buf[64];
  if (ns < kNsPerMs) {
    std::snprintf(buf, sizeof buf, "%.0f us", static_cast<double>(ns) / kNsPerUs);
  } else if (ns < kNsPerSec) {
    std::snprintf(buf, sizeof buf, "%.3f ms", NsToMs(ns));
  } else {
    std::snprintf(buf, sizeof buf, "%.3f s", NsToSec(ns));
  }
  return buf;
}

}  // namespace pgstorsim
