// `predict`'s console lines that are not in its results JSON: the cpu line is a share
// of the host's cores and has no read / destage split.
#include <gtest/gtest.h>

#include <string>

#include "support/shell.h"

namespace pgstorsim {
namespace {

TEST(PredictConsole, TheCpuLineNamesTheCoresItIsAShareOf) {
  ShellResult r =
      RunShell(std::string(PGSTORSIM_BINARY) + " predict --scenario " + PGSTORSIM_SOURCE_DIR +
               "/scenarios/m5110e.toml --set workload.type=select-only "
               "--set workload.scale=100 --set workload.clients=64 "
               "--set host.cpu_cores=4 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("regime cpu-bound"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  cpu    utilisation 1.00 (of 4 cores)\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  disk0  utilisation "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("cpu    utilisation 1.00 (read"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace pgstorsim
