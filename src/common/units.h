// Units parsed one way everywhere: sizes ("8k", "64KiB", "1MiB", "24GiB", "512"),
// durations ("3.4ms", "60s", "250us", "5min", "1h", "900"), rotational speed
// ("15000rpm") and byte/time formatting for output.
//
// Size suffixes are binary, as storage people write them: k = K = KB = KiB = 1024,
// M = MB = MiB = 2^20, G, T likewise; "b"/"B" or no suffix means bytes. A bare number
// for a duration means seconds. Parsers accept surrounding spaces and reject anything
// else with a message naming the offending text. Thread safety: pure functions.
#ifndef PGSTORSIM_COMMON_UNITS_H_
#define PGSTORSIM_COMMON_UNITS_H_

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/status.h"

namespace pgstorsim {

inline constexpr int64_t kPageBytes = 8192;  // PostgreSQL block size (BLCKSZ).
inline constexpr int64_t kSectorBytes = 512;
inline constexpr int64_t kBytesPerMiB = int64_t{1} << 20;

inline constexpr int64_t kNsPerUs = 1000;
inline constexpr int64_t kNsPerMs = 1000 * 1000;
inline constexpr int64_t kNsPerSec = 1000 * 1000 * 1000;

StatusOr<int64_t> ParseBytes(const std::string& text);
StatusOr<int64_t> ParseDurationNs(const std::string& text);
StatusOr<double> ParseRpm(const std::string& text);

// "8 KiB", "1 MiB", "1.5 GiB": exact where possible.
std::string FormatBytes(int64_t bytes);

// "250 us", "3.400 ms", "60 s".
std::string FormatDurationNs(int64_t ns);

// Text helpers the parsers share: `text` without leading and trailing spaces and tabs;
// `text` with ASCII letters lower-cased.
std::string TrimBlanks(const std::string& text);
// `text`, the whole of it, as a finite number in strtod's syntax ("12", "-0.5", "1e3");
// false (and *value unspecified) for an empty string, trailing characters (blanks
// included), "nan", "inf" and anything out of a double's range, too large or too small
// ("1e999", "1e-400").
bool ParseFiniteNumber(const std::string& text, double* value);
std::string AsciiLower(std::string text);

inline double NsToMs(int64_t ns) { return static_cast<double>(ns) / kNsPerMs; }
inline double NsToSec(int64_t ns) { return static_cast<double>(ns) / kNsPerSec; }
inline int64_t MsToNs(double ms) { return static_cast<int64_t>(ms * kNsPerMs + 0.5); }
inline int64_t SecToNs(double s) { return static_cast<int64_t>(s * kNsPerSec + 0.5); }

// Calls fn(offset, length) for each piece of [offset_bytes, offset_bytes + length_bytes)
// cut at multiples of granule_bytes (stripe units, cache lines), in ascending order.
// REQUIRES: offset_bytes >= 0, length_bytes >= 0, granule_bytes > 0.
template <typename Fn>
void ForEachAlignedPiece(int64_t offset_bytes, int64_t length_bytes, int64_t granule_bytes, Fn fn) {
  const int64_t end = offset_bytes + length_bytes;
  for (int64_t pos = offset_bytes; pos < end;) {
    const int64_t piece = std::min(end, (pos / granule_bytes + 1) * granule_bytes) - pos;
    fn(pos, piece);
    pos += piece;
  }
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_UNITS_H_
