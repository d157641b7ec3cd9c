// Capacity planning end to end through the built binary: predict shards joined by
// `report`, the TSV scripts read, objectives, and the answer's bad-input cases.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "support/shell.h"

namespace pgstorsim {
namespace {

const std::string kScenario =
    std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml";

class Planning : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pgstorsim-planning-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

size_t Lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

TEST_F(Planning, ShardsJoinIntoTheWholeSweep) {
  const std::string sweep = "predict --scenario " + kScenario +
                            " --sweep array.stripe=32k,128k,1MiB --sweep workload.clients=1,10";
  for (int i = 1; i <= 3; ++i) {
    ShellResult r = RunPgstorsim(sweep + " --shard " + std::to_string(i) + "/3 --out " +
                                 Path("s" + std::to_string(i) + ".json"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  ShellResult whole = RunPgstorsim(sweep + " --out " + Path("whole.json"));
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  ShellResult joined = RunPgstorsim("report --format tsv " + Path("s3.json") + " " +
                                    Path("s1.json") + " " + Path("s2.json"));
  ASSERT_EQ(joined.exit_code, 0) << joined.output;
  ShellResult one = RunPgstorsim("report --format tsv " + Path("whole.json"));
  // 6 sweep rows (after the header, the result's line and its statements' lines), the
  // same as the unsharded sweep's.
  auto rows = [](const std::string& tsv) {  // The sweep rows without the file column.
    std::istringstream in(tsv);
    std::string line, out;
    while (std::getline(in, line)) {
      if (line.find("\tpredict\t-\t") != std::string::npos || line.rfind("file", 0) == 0) continue;
      out += line.substr(line.find('\t')) + "\n";
    }
    return out;
  };
  EXPECT_EQ(Lines(rows(joined.output)), 6u) << joined.output;
  EXPECT_EQ(rows(joined.output), rows(one.output));
  // `merge` joins them into one file with the whole sweep, whatever the order.
  ShellResult merged = RunPgstorsim("merge " + Path("s2.json") + " " + Path("s1.json") + " " +
                                    Path("s3.json") + " --out " + Path("merged.json"));
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  EXPECT_NE(merged.output.find("joined 3 shards: 6 sweep points"), std::string::npos);
  ShellResult from_merge = RunPgstorsim("report --format tsv " + Path("merged.json"));
  EXPECT_EQ(rows(from_merge.output), rows(one.output));
  ShellResult missing = RunPgstorsim("merge " + Path("s1.json") + " " + Path("s3.json") +
                                     " --out " + Path("bad.json"));
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.output.find("shard 2/3 missing"), std::string::npos) << missing.output;
  // Two of three shards: kept apart, flagged, no error.
  ShellResult partial =
      RunPgstorsim("report --format md " + Path("s1.json") + " " + Path("s2.json"));
  EXPECT_EQ(partial.exit_code, 0) << partial.output;
}

TEST_F(Planning, ObjectivesAnswerPerConfiguration) {
  ShellResult r =
      RunPgstorsim("predict --scenario " + kScenario +
                   " --sweep array.stripe=32k,1MiB --slo 'p95<50ms' --out " + Path("slo.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("array.stripe=1MiB: p95<50ms met"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("most clients:"), std::string::npos);
  EXPECT_NE(r.output.find("at 2x data (scale 4000)"), std::string::npos);
  ShellResult md = RunPgstorsim("report --format md " + Path("slo.json"));
  ASSERT_EQ(md.exit_code, 0);
  EXPECT_NE(md.output.find("**Best: stripe 1 MiB"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("met by 2 of 2 configurations"), std::string::npos) << md.output;
  // What it would take, from the objective's answer for the same configuration.
  EXPECT_NE(md.output.find("What it would take: stripe 1 MiB holds it up to "), std::string::npos)
      << md.output;
  // An objective nobody meets: says so, and by how much the closest misses.
  ShellResult hard =
      RunPgstorsim("predict --scenario " + kScenario +
                   " --sweep array.stripe=32k,1MiB --slo 'tps>=5000' --out " + Path("hard.json"));
  ASSERT_EQ(hard.exit_code, 0) << hard.output;
  ShellResult none = RunPgstorsim("report --format md " + Path("hard.json"));
  EXPECT_NE(none.output.find("No configuration meets tps>=5000; the closest, stripe 1 MiB, misses "
                             "it by"),
            std::string::npos)
      << none.output;
  // Workload keys only: projections, nothing to recommend.
  ShellResult load = RunPgstorsim("predict --scenario " + kScenario +
                                  " --sweep workload.clients=1,10,40 --out " + Path("load.json"));
  ASSERT_EQ(load.exit_code, 0);
  ShellResult proj = RunPgstorsim("report --format md " + Path("load.json"));
  EXPECT_NE(proj.output.find("there is nothing to recommend"), std::string::npos) << proj.output;
  EXPECT_EQ(proj.output.find("Best:"), std::string::npos) << proj.output;
  EXPECT_EQ(proj.output.find("**clients 40"), std::string::npos) << proj.output;
}

TEST_F(Planning, AnIoWorkloadGrowsByItsFile) {
  // A device benchmark's data is its file: the answer names the largest file, not a scale
  // the workload does not use.
  const std::string io_predict =
      "predict --scenario " + kScenario +
      " --set workload.type=io --set workload.io_size=8KiB --set workload.read_fraction=1"
      " --set workload.clients=4 --set workload.file_size=8GiB --set host.os_cache=4GiB"
      " --slo 'p95<30ms' 2>/dev/null --out ";
  ShellResult r = RunPgstorsim(io_predict + Path("io.json") + " --sweep array.stripe=32k,1MiB");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("largest file: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("at 2x data (file 16 GiB)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("scale"), std::string::npos) << r.output;
  ShellResult md = RunPgstorsim("report --format md " + Path("io.json"));
  ASSERT_EQ(md.exit_code, 0) << md.output;
  const size_t file = md.output.find(" file (");
  ASSERT_NE(file, std::string::npos) << md.output;
  EXPECT_NE(md.output.find("larger than the array", file), std::string::npos) << md.output;
  EXPECT_EQ(md.output.find("not at any scale"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("requests/s, p95 "), std::string::npos) << md.output;
  EXPECT_EQ(md.output.find(" tps, p95 "), std::string::npos) << md.output;

  // Without a sweep the answer is the current configuration's, named once.
  ShellResult one = RunPgstorsim(io_predict + Path("io-one.json"));
  ASSERT_EQ(one.exit_code, 0) << one.output;
  ShellResult lead = RunPgstorsim("report --format md " + Path("io-one.json"));
  ASSERT_EQ(lead.exit_code, 0) << lead.output;
  EXPECT_NE(lead.output.find("p95<30ms met ("), std::string::npos) << lead.output;
  EXPECT_NE(lead.output.find(" requests/s, p95 "), std::string::npos) << lead.output;
  EXPECT_NE(lead.output.find("**m5110e: p95<30ms met ("), std::string::npos) << lead.output;
}

TEST_F(Planning, WhatLimitsEachConfigurationIsInWords) {
  // Write-back against a plain HBA: the first is bound by its full cache, the second by
  // the commits' WAL flushes and checkpoint bursts (not by its reads).
  ShellResult r = RunPgstorsim("predict --scenario " + kScenario +
                               " --sweep controller.kind=raid,hba --out " + Path("kind.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ShellResult md = RunPgstorsim("report --format md " + Path("kind.json"));
  ASSERT_EQ(md.exit_code, 0) << md.output;
  EXPECT_NE(md.output.find("| disk writes (controller cache full) |"), std::string::npos)
      << md.output;
  EXPECT_NE(md.output.find("| disk writes (commits or reads wait for them) |"), std::string::npos)
      << md.output;
  EXPECT_EQ(md.output.find("| disk reads (cache misses) |"), std::string::npos) << md.output;
  // The console names the regime's weight for what the configuration has.
  ShellResult hba =
      RunPgstorsim("predict --scenario " + kScenario + " --set controller.kind=hba 2>/dev/null");
  EXPECT_NE(hba.output.find("regime write-bound (write-capacity weight "), std::string::npos)
      << hba.output;
}

TEST_F(Planning, RefusedPointsAreNamedWithTheirReason) {
  // RAID 50 in spans of two: the four-disk point is refused, the others predicted.
  ShellResult r = RunPgstorsim("predict --scenario " + kScenario +
                               " --set array.level=raid50 --set array.spans=2"
                               " --sweep array.disks=4,8 --out " +
                               Path("spans.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ShellResult md = RunPgstorsim("report --format md " + Path("spans.json"));
  ASSERT_EQ(md.exit_code, 0) << md.output;
  EXPECT_NE(md.output.find("- Not predicted: disks 4 ("), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("spans of at least 3 members"), std::string::npos) << md.output;
  EXPECT_EQ(md.output.find("Not predicted: disks 8"), std::string::npos) << md.output;
}

TEST_F(Planning, BadOptionsFailWithOneLine) {
  for (const std::string& args :
       {std::string("--slo 'p95<'"), std::string("--slo 'latency<5ms'"),
        std::string("--slo 'tps<=5'"), std::string("--sweep array.stripe=32k --shard 3/2"),
        std::string("--shard 1/2")}) {
    ShellResult r = RunPgstorsim("predict --scenario " + kScenario + " " + args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(Lines(r.output), 1u) << args << ": " << r.output;
  }
  ShellResult fmt = RunPgstorsim("report --format xml " + Path("x.json"));
  EXPECT_NE(fmt.exit_code, 0);
}

}  // namespace
}  // namespace pgstorsim
