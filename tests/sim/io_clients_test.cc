// The io workload in the simulator against the analytic model (the two must agree
// within 15 % on requests per second) and against itself (deterministic per seed).
// Disks serve in order (io.queue_depth = 1: no NCQ reordering, which the model has no
// mechanism for; docs/model.md, "Device workloads").
#include "sim/io_clients.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim::sim {
namespace {

Scenario Raid10(std::vector<std::string> sets) {
  std::vector<std::string> base = {
      "workload.type=io",         "workload.io_size=8KiB", "workload.duration=30s",
      "workload.clients=1",       "array.level=raid10",    "array.disks=4",
      "array.stripe=64KiB",       "io.queue_depth=1",      "disks.capacity=300GB",
      "workload.file_size=400GB", "host.ram=8GiB",         "filesystem.partition_offset=1MiB"};
  base.insert(base.end(), sets.begin(), sets.end());
  auto s = DefaultScenario(base);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

// The lab's disk: one throttled loop device, 150 I/Os per second each way, 8 KiB
// requests on a 1 GiB file.
Scenario LabDisk(std::vector<std::string> sets) {
  std::vector<std::string> base = {
      "workload.type=io",         "workload.io_size=8KiB", "workload.duration=30s",
      "workload.file_size=1GiB",  "controller.kind=hba",   "controller.cache_size=0",
      "array.level=jbod",         "array.disks=1",         "disks.type=throttled",
      "disks.read_iops=150",      "disks.write_iops=150",  "disks.read_latency=49us",
      "disks.write_latency=62us", "disks.capacity=2GiB"};
  base.insert(base.end(), sets.begin(), sets.end());
  auto s = DefaultScenario(base);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

struct Both {
  double predicted = 0, simulated = 0;
};

Both Run(const Scenario& s) {
  Both b;
  auto p = Predict(s);
  EXPECT_TRUE(p.ok()) << p.status().message();
  auto r = RunIoSimulation(s);
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (p.ok()) b.predicted = p->tps;
  if (r.ok()) b.simulated = r->results.tps;
  return b;
}

void ExpectAgree(const std::string& what, const Scenario& s) {
  const Both b = Run(s);
  EXPECT_GT(b.simulated, 0) << what;
  EXPECT_NEAR(b.predicted, b.simulated, 0.15 * b.simulated)
      << what << ": predicted " << b.predicted << " simulated " << b.simulated;
}

TEST(IoSimulation, RandomReadQd1AgreesWithPredict) {
  ExpectAgree("random read QD1", Raid10({"workload.read_fraction=1", "workload.io_direct=on"}));
}

TEST(IoSimulation, RandomReadQd32AgreesWithPredict) {
  ExpectAgree("random read QD32", Raid10({"workload.read_fraction=1", "workload.io_direct=on",
                                          "workload.io_depth=32"}));
}

TEST(IoSimulation, RandomWriteWithFsyncAgreesWithPredict) {
  // 8 KiB writes with an fsync each into 64 KiB UFS2 blocks behind a write-back
  // controller: each write reads its block under the file lock (randomio's mode).
  ExpectAgree("random write + fsync",
              Raid10({"workload.read_fraction=0", "workload.io_fsync_writes=on",
                      "workload.clients=8", "filesystem.type=ufs2", "filesystem.block_size=64KiB",
                      "filesystem.fragment_size=8KiB"}));
}

TEST(IoSimulation, SequentialReadAgreesWithPredict) {
  // One stream on one disk (behind an HBA): back-to-back requests continue where the
  // last one ended, so both run at the media transfer rate (1 MiB requests: the
  // simulator's per-command overhead, which the model has not, stays below 1 %).
  ExpectAgree("sequential read", Raid10({"workload.read_fraction=1", "workload.io_direct=on",
                                         "workload.io_access=sequential", "workload.io_size=1MiB",
                                         "array.level=jbod", "array.disks=1", "controller.kind=hba",
                                         "controller.cache_size=0", "workload.file_size=200GB"}));
}

// bonnie++'s seeks: a write rewrites the chunk its job has just read, so its 64 KiB
// UFS2 block is cached and the writer holds the file lock for no I/O; without
// io_rewrite the same writes read a random block under the lock and serialise the
// jobs on it (the simulator's lock then admits the readers between writers, the model
// one at a time: the two part there, docs/model.md "Device workloads"; simulated 537
// requests/s with rewrites against 434 without).
TEST(IoSimulation, RewritesAgreeWithPredictAndDoNotSerialiseTheJobs) {
  const std::vector<std::string> ufs = {"workload.read_fraction=0.909091", "workload.clients=3",
                                        "filesystem.type=ufs2", "filesystem.block_size=64KiB",
                                        "filesystem.fragment_size=8KiB"};
  std::vector<std::string> rewrite = ufs;
  rewrite.push_back("workload.io_rewrite=on");
  const Both with = pgstorsim::sim::Run(Raid10(rewrite));
  const Both without = pgstorsim::sim::Run(Raid10(ufs));
  EXPECT_NEAR(with.predicted, with.simulated, 0.15 * with.simulated)
      << "predicted " << with.predicted << " simulated " << with.simulated;
  EXPECT_GT(with.simulated, 1.15 * without.simulated) << without.simulated;
  EXPECT_GT(with.predicted, 1.5 * without.predicted) << without.predicted;
}

// The lab's throttled disk (blk-throttle's 100 ms slices, 150 reads/s): a request goes
// through at once while its slice's budget lasts, else waits for the next slice. Both
// models' request latency: the mean (in flight / rate) and p95 (a slice's wait at 1 and
// 4 in flight, three slices at 32), within 25 %.
TEST(IoSimulation, OnAThrottledDiskRequestLatenciesAgreeWithPredict) {
  for (int in_flight : {1, 4, 32}) {
    const Scenario s = LabDisk({"workload.read_fraction=1", "workload.io_direct=on",
                                "workload.clients=" + std::to_string(in_flight)});
    auto p = Predict(s);
    auto r = RunIoSimulation(s);
    ASSERT_TRUE(p.ok() && r.ok());
    const std::string at = "in flight " + std::to_string(in_flight);
    const LatencyHistogram& h = r->results.transaction_latency;
    const double sim_mean_ms = h.mean_ns() / 1e6, sim_p95_ms = h.PercentileNs(0.95) / 1e6;
    EXPECT_NEAR(p->transaction_latency_ms, sim_mean_ms, 0.05 * sim_mean_ms) << at;
    EXPECT_NEAR(p->statement_latency_ms.at("read"), p->transaction_latency_ms, 1e-9) << at;
    EXPECT_NEAR(p->transaction_percentiles.p95_ms, sim_p95_ms, 0.25 * sim_p95_ms) << at;
    EXPECT_EQ(p->regime, "read-bound") << at;
  }
}

// Its read and write caps are separate budgets: with both spent the device is busy
// once, as busy as its busier cap (predict's utilisation), not the sum of the two.
TEST(IoSimulation, AThrottledDiskIsAsBusyAsItsBusierCap) {
  const Scenario s =
      LabDisk({"workload.read_fraction=0.5", "workload.io_direct=on", "workload.clients=4"});
  auto r = RunIoSimulation(s);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto& disk = r->results.sections["devices"][0];
  const double reads = disk["read_utilization"], writes = disk["write_utilization"];
  EXPECT_GT(reads, 0.85);
  EXPECT_GT(writes, 0.85);
  EXPECT_DOUBLE_EQ(disk["utilization"].get<double>(), std::max(reads, writes));
  auto p = Predict(s);
  ASSERT_TRUE(p.ok());
  EXPECT_NEAR(p->devices[0].utilization, disk["utilization"].get<double>(), 0.1);
}

// A warm OS cache holds what earlier requests read: a share of the file in request-sized
// units, so 8 KiB reads in 4 KiB blocks hit it as often as it holds of the file (not the
// square of that, as for blocks cached one by one), and both models agree.
TEST(IoSimulation, AWarmCacheHoldsWholeRequests) {
  const Scenario s = Raid10({"workload.read_fraction=1", "workload.file_size=1GiB",
                             "host.os_cache=200MiB", "filesystem.block_size=4KiB"});
  auto r = RunIoSimulation(s);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const double held = 200.0 / 1024;
  EXPECT_NEAR(r->results.sections["io"]["os_cache_hit_ratio"].get<double>(), held, 0.02);
  ExpectAgree("warm buffered reads", s);
}

TEST(IoSimulation, SameSeedSameResultsAndReadWriteLatencies) {
  const Scenario s = Raid10({"workload.read_fraction=0.5", "workload.io_fsync_writes=on",
                             "workload.clients=4", "workload.duration=10s"});
  auto a = RunIoSimulation(s);
  auto b = RunIoSimulation(s);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->results.transactions, b->results.transactions);
  EXPECT_GT(a->results.transactions, 0u);
  ASSERT_EQ(a->results.statements.size(), 2u);
  EXPECT_EQ(a->results.statements[0].name, "read");
  EXPECT_EQ(a->results.statements[1].name, "write");
  EXPECT_GT(a->results.sections["io"]["iops"].get<double>(), 0);
}

TEST(IoSimulation, AFileLargerThanTheArrayIsRefusedBeforeAnyModelRuns) {
  auto s = DefaultScenario({"workload.type=io", "workload.io_size=8KiB", "workload.read_fraction=1",
                            "array.level=raid10", "array.disks=4", "disks.capacity=300GB",
                            "workload.file_size=2TB"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("workload.file_size"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim::sim
