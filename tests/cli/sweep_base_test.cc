// A sweep's base may be invalid until the sweep sets its keys (scenario/sweep_spec.h
// LoadSweepBase): `predict` and `simulate` run the points, refusing the invalid ones
// row by row; a base no point mends is refused in one line, as without a sweep.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "support/shell.h"

namespace pgstorsim {
namespace {

const std::string kRaid50InSpansOfTwo =
    std::string(PGSTORSIM_BINARY) + " %s --scenario " + PGSTORSIM_SOURCE_DIR +
    "/scenarios/m5110e.toml --set array.level=raid50 --set array.spans=2 %s 2>&1";

std::string Command(const std::string& command, const std::string& rest) {
  std::string line = kRaid50InSpansOfTwo;
  line.replace(line.find("%s"), 2, command);
  line.replace(line.find("%s"), 2, rest);
  return line;
}

TEST(SweepBase, PointsThatMendTheBaseRunAndTheOthersAreRefusedRowByRow) {
  ShellResult r = RunShell(Command("predict", "--sweep array.disks=4,8"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("4\trefused: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("spans of at least 3 members"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\n8\t"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("8\trefused"), std::string::npos) << r.output;

  const std::string out = "/tmp/pgstorsim-sweep-base-" + std::to_string(::getpid()) + ".json";
  ShellResult s = RunShell(
      Command("simulate", "--duration 2s --quiet --out " + out + " --sweep array.disks=4,8"));
  EXPECT_EQ(s.exit_code, 0) << s.output;
  ShellResult rows = RunShell("grep -c '\"error\"' " + out + "; rm -f " + out);
  EXPECT_EQ(rows.output, "1\n") << s.output;  // Only the four-disk point.
}

TEST(SweepBase, ABaseNoPointMendsIsOneLine) {
  ShellResult r = RunShell(Command("predict", "--sweep array.stripe=32k,64k"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("array.spans"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
}

}  // namespace
}  // namespace pgstorsim
