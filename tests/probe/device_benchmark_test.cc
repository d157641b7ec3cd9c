#include "probe/device_benchmark.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

namespace pgstorsim {
namespace {

TEST(DeviceBenchmarkTest, ScratchFileGetsThreePatternsAndIsRemoved) {
  DeviceBenchmarkOptions o;
  o.path = "/var/tmp/pgstorsim-devbench-" + std::to_string(getpid()) + ".img";
  o.seconds_per_pattern = 1;
  o.size_bytes = 16 << 20;
  std::vector<std::string> lines;
  auto m = RunDeviceBenchmark(o, nullptr, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->size(), 3u);
  EXPECT_EQ((*m)[0].name, "randread-qd1");
  EXPECT_EQ((*m)[1].name, "randread-qd32");
  EXPECT_EQ((*m)[2].name, "write-fsync");
  for (const DeviceMeasurement& d : *m) {
    EXPECT_EQ(d.results.kind, "replay");
    EXPECT_GT(d.results.transactions, 0u) << d.name;
  }
  EXPECT_EQ(lines.size(), 3u);
  struct stat st {};
  EXPECT_NE(stat(o.path.c_str(), &st), 0) << "the scratch file must be removed";
  EXPECT_NE(stat((o.path + ".pgstorsim-created").c_str(), &st), 0) << "and its marker";
}

TEST(DeviceBenchmarkTest, AnExistingFileIsOnlyRead) {
  DeviceBenchmarkOptions o;
  o.path = "/var/tmp/pgstorsim-devbench-mine-" + std::to_string(getpid()) + ".img";
  o.seconds_per_pattern = 1;
  o.size_bytes = 4 << 20;
  {
    std::ofstream f(o.path);
    f << std::string(o.size_bytes, 'x');
  }
  std::vector<std::string> lines;
  auto m = RunDeviceBenchmark(o, nullptr, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->size(), 2u);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("write-fsync skipped"), std::string::npos) << lines.back();
  std::ifstream in(o.path);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, std::string(o.size_bytes, 'x')) << "the file must be unchanged";
  unlink(o.path.c_str());
}

}  // namespace
}  // namespace pgstorsim
