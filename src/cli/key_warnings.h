// The warning lines a command prints for scenario keys its model does not use.
// Thread safety: writes to stderr; call from the command's thread.
#ifndef PGSTORSIM_CLI_KEY_WARNINGS_H_
#define PGSTORSIM_CLI_KEY_WARNINGS_H_

#include "scenario/key_coverage.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// Prints "<predict|simulate>: warning: <line>" on stderr for each line of
// IgnoredKeyWarnings(scenario, model); nothing when the scenario sets no such key.
void WarnIgnoredKeys(const Scenario& scenario, ScenarioModel model);

}  // namespace pgstorsim

#endif  // PGSTORSIM_CLI_KEY_WARNINGS_H_
