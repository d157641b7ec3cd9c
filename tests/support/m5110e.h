// Test support: the reference scenario, scenarios/m5110e.toml (the IBM ServeRAID M5110e
// server of the field data), with `--set`-style overrides. A scenario that does not
// load is a test failure and yields the built-in default. Header-only.
#ifndef PGSTORSIM_TESTS_SUPPORT_M5110E_H_
#define PGSTORSIM_TESTS_SUPPORT_M5110E_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace pgstorsim::testing_util {

inline Scenario M5110eScenario(const std::vector<std::string>& sets = {}) {
  auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml", sets);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

}  // namespace pgstorsim::testing_util

#endif  // PGSTORSIM_TESTS_SUPPORT_M5110E_H_
