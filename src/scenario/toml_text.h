// Text for scenario TOML files: ScenarioToToml (scenario.h) quotes every string so that
// any text reads back (control characters as \uXXXX, bytes that are not UTF-8 as
// U+FFFD: TOML files must be UTF-8), and TomlCommentText makes text safe for a comment
// line (calibrate's header). Thread safety: pure functions.
#ifndef PGSTORSIM_SCENARIO_TOML_TEXT_H_
#define PGSTORSIM_SCENARIO_TOML_TEXT_H_

#include <string>

namespace pgstorsim {

// `text` made safe for one TOML comment line ("# " + result): control characters
// (newlines included) become spaces and bytes that are not UTF-8 become U+FFFD.
std::string TomlCommentText(const std::string& text);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_TOML_TEXT_H_
