// `pgstorsim calibrate` end to end on the measured inputs in tests/model/data.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/shell.h"

namespace pgstorsim {
namespace {

const std::string kSource = PGSTORSIM_SOURCE_DIR;

std::string TempPath(const std::string& name) {
  return "/tmp/pgstorsim-calibrate-test-" + std::to_string(::getpid()) + "-" + name;
}

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

TEST(CalibrateCommand, RefusesMismatchedConditionsInOneLineAndWritesNothing) {
  const std::string out = TempPath("mismatch.toml");
  ShellResult r = RunPgstorsim("calibrate --scenario " + kSource +
                               "/scenarios/m5110e.toml --measured " + kSource +
                               "/tests/model/data/pgbench15-s10-c4.txt --out " + out);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(Exists(out));
  EXPECT_NE(r.output.find("measured workload.scale = 10, scenario workload.scale = 2000"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;  // One line.
}

TEST(CalibrateCommand, FitsAtTheMeasuredConditionsAndWritesTheOriginalWorkloadBack) {
  const std::string out = TempPath("set.toml");
  ShellResult r = RunPgstorsim("calibrate --scenario " + kSource +
                               "/scenarios/m5110e.toml --measured " + kSource +
                               "/tests/model/data/pgbench15-s10-c4.txt --set workload.scale=10 "
                               "--set workload.clients=4 --accept-poor-fit --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("scale = 2000"), std::string::npos);
  EXPECT_NE(text.str().find("clients = 10"), std::string::npos);
  std::remove(out.c_str());
  // Without --accept-poor-fit the same poor fit exits non-zero and writes nothing.
  r = RunPgstorsim("calibrate --scenario " + kSource + "/scenarios/m5110e.toml --measured " +
                   kSource + "/tests/model/data/pgbench15-s10-c4.txt --set workload.scale=10 "
                   "--set workload.clients=4 --out " + out);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("poor fit"), std::string::npos) << r.output;
  EXPECT_FALSE(Exists(out));
}

// `probe --device-benchmark` results state their io workload: calibrate fits them as it,
// on the scenario's storage, with requests per second and read latency as residuals.
TEST(CalibrateCommand, FitsADeviceBenchmarkAsTheIoWorkloadItRan) {
  const std::string out = TempPath("devbench.toml");
  ShellResult r = RunPgstorsim("calibrate --scenario " + kSource +
                               "/scenarios/m5110e.toml --measured " + kSource +
                               "/tests/model/data/devbench-randread-qd1.json "
                               "--fit read_seek_scale --accept-poor-fit --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("devbench-randread-qd1.json: fitted as an io workload "
                          "(workload.clients=1 workload.file_size=256MiB "
                          "workload.io_access=random workload.io_depth=1 workload.io_direct=on "
                          "workload.io_fsync_writes=off workload.io_size=8KiB "
                          "workload.read_fraction=1 workload.type=io)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("devbench-randread-qd1.json: iops"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("devbench-randread-qd1.json: read latency"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find(": tps"), std::string::npos) << r.output;
  std::remove(out.c_str());
}

// No `nan` and no zero-width uncertainty for any measured input in tests/.
TEST(CalibrateCommand, NoNanOrZeroUncertaintyForAnyTestInput) {
  const std::string lab = kSource + "/results/validation/lab-matrix-scenarios/lab-150-s5.toml";
  const std::vector<std::string> runs = {
      "--scenario " + kSource + "/scenarios/m5110e.toml --measured " + kSource +
          "/results/validation/m5110e-32k-warm.pgbench.txt",
      "--scenario " + kSource + "/scenarios/m5110e.toml --measured " + kSource +
          "/tests/model/data/pgbench15-s10-c4.txt --set workload.scale=10 "
          "--set workload.clients=4",
      "--scenario " + lab + " --measured " + kSource +
          "/tests/model/data/replay-s5-warm-c4.json --set workload.clients=4",
      "--scenario " + lab + " --measured " + kSource +
          "/tests/model/data/pgbench15-s10-c4.txt --set workload.scale=10 "
          "--set workload.clients=4",
  };
  for (const std::string& run : runs) {
    const std::string out = TempPath("fit.toml");
    ShellResult r = RunPgstorsim("calibrate " + run + " --accept-poor-fit --out " + out);
    // A fit, or a refusal that says why in one line.
    if (r.exit_code != 0) {
      EXPECT_NE(r.output.find("pgstorsim calibrate: "), std::string::npos) << r.output;
    } else {
      EXPECT_NE(r.output.find(" +- "), std::string::npos) << r.output;
    }
    EXPECT_EQ(r.output.find("nan"), std::string::npos) << run << "\n" << r.output;
    EXPECT_EQ(r.output.find("+- 0.0000\n"), std::string::npos) << run << "\n" << r.output;
    std::remove(out.c_str());
  }
}

}  // namespace
}  // namespace pgstorsim
