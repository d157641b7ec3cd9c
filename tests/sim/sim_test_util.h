// Helpers of the simulator tests. An error fails the calling test (gtest EXPECT) and
// returns empty results; nothing crashes.
#ifndef PGSTORSIM_TESTS_SIM_SIM_TEST_UTIL_H_
#define PGSTORSIM_TESTS_SIM_SIM_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <utility>

#include "common/results.h"
#include "sim/run_simulation.h"

namespace pgstorsim::sim {

inline Results MustSimulate(const SimConfig& c) {
  StatusOr<SimulationOutput> out = RunSimulation(c);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? std::move(out).value().results : Results();
}

}  // namespace pgstorsim::sim

#endif  // PGSTORSIM_TESTS_SIM_SIM_TEST_UTIL_H_
