// results/validation/instruments.md is what instruments_table.py computes from the
// saved measurements (results/validation/instruments/), for every configuration the
// issue asks for (3 stripes x 2 offsets x warm/cold), all within 20 %, and the lab
// matrix's points on one disk beside live PostgreSQL. Label unit: no lab needed.
#include <gtest/gtest.h>

#include "common/file_util.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

const std::string kRoot = PGSTORSIM_SOURCE_DIR;

TEST(InstrumentsTable, IsTheRecomputationOfTheSavedMeasurements) {
  if (RunShell("command -v python3").exit_code != 0) GTEST_SKIP() << "python3 not installed";
  ShellResult r = RunShell("cd " + kRoot +
                               " && python3 scripts/lab/instruments_table.py "
                               "results/validation/instruments",
                           /*merge_stderr=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto published = ReadFile(kRoot + "/results/validation/instruments.md");
  ASSERT_TRUE(published.ok());
  EXPECT_EQ(r.output, *published)
      << "regenerate: LAB_INSTRUMENTS_TABLE_ONLY=1 scripts/lab/lab-instruments.sh";
  // The data writes through the page cache (PostgreSQL's path): the table before the
  // direct writes' one, if any.
  const std::string buffered = r.output.substr(0, r.output.find("## Direct data writes"));
  int rows = 0;
  for (const char* offset : {"| 0 |", "| 63s |"}) {
    for (size_t at = buffered.find(offset); at != std::string::npos;
         at = buffered.find(offset, at + 1)) {
      ++rows;
    }
  }
  EXPECT_EQ(rows, 12) << r.output;
  // The target: replay, simulate and predict within 20 % on every configuration.
  EXPECT_NE(buffered.find("\n12 of 12 configurations within 20 %"), std::string::npos) << r.output;
  // And with io.data_writes = direct (the second table), on the same configurations.
  EXPECT_NE(r.output.find("\n12 of 12 direct configurations within 20 %"), std::string::npos)
      << r.output;
  // One lab disk beside live PostgreSQL (the third table): the lab matrix's 16 points,
  // 12 with all four within 20 % (docs/lab.md, "One lab disk": the replay and the
  // simulator group more commits per WAL flush than the live server at 4 clients).
  const size_t disk = r.output.find("## One lab disk, beside live PostgreSQL");
  ASSERT_NE(disk, std::string::npos) << r.output;
  int points = 0;
  for (const char* iops : {"\n| 150 |", "\n| 600 |"}) {
    for (size_t at = r.output.find(iops, disk); at != std::string::npos;
         at = r.output.find(iops, at + 1)) {
      ++points;
    }
  }
  EXPECT_EQ(points, 16) << r.output;
  EXPECT_NE(r.output.find("\n12 of 16 points within 20 %", disk), std::string::npos) << r.output;
}

}  // namespace
}  // namespace pgstorsim
