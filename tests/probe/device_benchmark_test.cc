#include "probe/device_benchmark.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>

#include "model/measured.h"
#include "model/measured_conditions.h"
#include "probe/device_inference.h"

namespace pgstorsim {
namespace {

// What `calibrate` reads from a pattern's results: the io workload the pattern ran (the
// replayer's 32 workers of "QD32" are 32 jobs at depth 1) and its requests per second.
void ExpectMeasuredAsItsIoWorkload(const DeviceMeasurement& d, int64_t file_bytes) {
  auto m = ParseResultsJson(d.results.ToJson().dump(), d.name + ".json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  const bool writes = d.name == "write-fsync";
  const bool sequential = writes || d.name == "seqread";
  const std::map<std::string, std::string> expected = {
      {"workload.type", "io"},
      {"workload.clients", d.name == "randread-qd32" ? "32" : "1"},
      {"workload.io_depth", "1"},
      {"workload.io_size", d.name == "seqread" ? "1MiB" : "8KiB"},
      {"workload.read_fraction", writes ? "0" : "1"},
      {"workload.io_access", sequential ? "sequential" : "random"},
      {"workload.io_fsync_writes", writes ? "on" : "off"},
      {"workload.io_direct", "on"},
      {"workload.file_size", std::to_string(file_bytes >> 20) + "MiB"}};
  EXPECT_EQ(m->conditions, expected) << d.name;
  EXPECT_TRUE(IsDeviceBenchmark(*m)) << d.name;
  EXPECT_EQ(m->tps, 0) << d.name << ": requests are device figures, not transactions";
  EXPECT_GT(writes ? m->write_iops : m->read_iops, 0) << d.name;
  EXPECT_EQ(writes ? m->read_iops : m->write_iops, 0) << d.name;
  EXPECT_GT(writes ? m->write_latency_ms : m->read_latency_ms, 0) << d.name;
}

TEST(DeviceBenchmarkTest, ScratchFileGetsFourPatternsAndIsRemoved) {
  DeviceBenchmarkOptions o;
  o.path = "/var/tmp/pgstorsim-devbench-" + std::to_string(getpid()) + ".img";
  o.seconds_per_pattern = 1;
  o.size_bytes = 16 << 20;
  std::vector<std::string> lines;
  auto m = RunDeviceBenchmark(o, nullptr, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->size(), 4u);
  EXPECT_EQ((*m)[0].name, "randread-qd1");
  EXPECT_EQ((*m)[1].name, "randread-qd32");
  EXPECT_EQ((*m)[2].name, "seqread");
  EXPECT_EQ((*m)[3].name, "write-fsync");
  for (const DeviceMeasurement& d : *m) {
    EXPECT_EQ(d.results.kind, "replay");
    EXPECT_GT(d.results.transactions, 0u) << d.name;
    ExpectMeasuredAsItsIoWorkload(d, o.size_bytes);
  }
  EXPECT_EQ((*m)[2].request_bytes, 1 << 20);
  const DeviceTimings t = DeviceTimingsOf(*m);
  EXPECT_GT(t.seq_read_bytes_per_s, 0);
  EXPECT_DOUBLE_EQ(t.seq_read_bytes_per_s, (*m)[2].results.tps * (1 << 20));
  EXPECT_EQ(t.seq_read_request_bytes, 1 << 20);
  EXPECT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[2].find("MiB/s"), std::string::npos) << lines[2];
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
  ASSERT_EQ(m->size(), 3u);
  EXPECT_EQ((*m)[2].name, "seqread") << "sequential reads run on a file it only reads";
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("write-fsync skipped"), std::string::npos) << lines.back();
  std::ifstream in(o.path);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, std::string(o.size_bytes, 'x')) << "the file must be unchanged";
  unlink(o.path.c_str());
}

}  // namespace
}  // namespace pgstorsim
