#include "cli/key_warnings.h"

#include <cstdio>
#include <string>

namespace pgstorsim {

void WarnIgnoredKeys(const Scenario& scenario, ScenarioModel model) {
  for (const std::string& line : IgnoredKeyWarnings(scenario, model)) {
    std::fprintf(stderr, "%s: warning: %s\n", ScenarioModelName(model), line.c_str());
  }
}

}  // namespace pgstorsim
