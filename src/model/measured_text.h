// Internal to src/model: the line and word splitting the benchmark-output parsers
// (measured*.cc) share. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_MEASURED_TEXT_H_
#define PGSTORSIM_MODEL_MEASURED_TEXT_H_

#include <string>
#include <vector>

namespace pgstorsim::measured_text {

// The lines of `text`, a trailing carriage return dropped from each.
std::vector<std::string> Lines(const std::string& text);
// The blank-separated words of `line`.
std::vector<std::string> Words(const std::string& line);
bool StartsWith(const std::string& s, const std::string& prefix);

}  // namespace pgstorsim::measured_text

#endif  // PGSTORSIM_MODEL_MEASURED_TEXT_H_
