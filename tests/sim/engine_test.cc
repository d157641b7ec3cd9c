#include <gtest/gtest.h>

#include "common/units.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"

namespace pgstorsim::sim {
namespace {

// A small, fully cached database: no data I/O, no checkpoints during the run.
SimConfig CachedConfig() {
  SimConfig c;
  c.host.scale = 1;
  c.clients = 1;
  SetCacheSizes(256LL << 20, 2816LL << 20, &c);  // 4 GiB of RAM, 1 GiB kept by the OS.
  c.host.start = pgmodel::CacheStart::kWarm;
  c.transactions_per_client = 2000;
  c.array.level = RaidLevel::kRaid10;
  c.array.members = 4;
  c.array.stripe_unit_bytes = 64 << 10;
  c.fs.fs_block_bytes = 8192;
  return c;
}

SimulationOutput MustRun(const SimConfig& c) {
  StatusOr<SimulationOutput> out = RunSimulation(c);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? std::move(out).value() : SimulationOutput();
}

const StatementResult& Statement(const Results& r, const std::string& name) {
  for (const StatementResult& s : r.statements) {
    if (s.name == name) return s;
  }
  ADD_FAILURE() << "no statement " << name;
  return r.statements.front();
}

TEST(EngineTest, ClosedLoopSingleClientTpsIsInverseOfServiceTimes) {
  SimConfig c = CachedConfig();
  c.wal_on_data_volume = false;  // Ideal WAL device: 20 us per flush.
  int64_t sum_ns = 20'000;
  for (int64_t cpu : c.cpu_ns) sum_ns += cpu + c.client_rtt_ns;
  SimulationOutput out = MustRun(c);
  EXPECT_EQ(out.results.transactions, 2000u);
  EXPECT_NEAR(out.results.tps, 1e9 / sum_ns, 1e9 / sum_ns * 0.001);
  EXPECT_NEAR(out.results.transaction_latency.mean_ns(), sum_ns, sum_ns * 0.001);
}

TEST(EngineTest, WriteBackCommitIsFastWriteThroughIsRotationBound) {
  SimConfig c = CachedConfig();
  SimulationOutput back = MustRun(c);
  const double end_back_ms = Statement(back.results, "END").latency.mean_ns() / kNsPerMs;
  // CPU 0.02 + client 0.03 + controller ack 0.2 + flush 0.03 ms.
  EXPECT_NEAR(end_back_ms, 0.28, 0.03);
  c.controller.write_back = false;
  SimulationOutput through = MustRun(c);
  const double end_through_ms = Statement(through.results, "END").latency.mean_ns() / kNsPerMs;
  EXPECT_GT(end_through_ms, 2.0);  // Waits for the platter: up to a 4 ms rotation.
  EXPECT_LT(end_through_ms, 4.5);
  EXPECT_LT(through.results.tps, 300.0);  // ~ 250 rotations per second at 15K rpm.
  EXPECT_GT(back.results.tps, 4 * through.results.tps);
}

TEST(EngineTest, SameSeedSameResultsDifferentSeedDifferentResults) {
  SimConfig c = CachedConfig();
  c.host.scale = 20;
  c.clients = 4;
  c.host.start = pgmodel::CacheStart::kCold;
  c.transactions_per_client = 300;
  auto json = [](SimConfig cfg) {
    nlohmann::json j = MustRun(cfg).results.ToJson();
    j.erase("created_utc");
    return j.dump();
  };
  const std::string a = json(c);
  EXPECT_EQ(a, json(c));
  c.seed = 2;
  EXPECT_NE(a, json(c));
}

TEST(EngineTest, ColdStartRampsUp) {
  SimConfig c = CachedConfig();
  c.host.scale = 10;  // ~150 MB, read from disk on first touch.
  c.clients = 8;
  c.cpu_cores = 1;  // Caps the warm rate: a short run.
  c.host.start = pgmodel::CacheStart::kCold;
  c.transactions_per_client = 0;
  c.duration_ns = 30 * kNsPerSec;
  c.series_interval_ns = 3 * kNsPerSec;
  SimulationOutput out = MustRun(c);
  const auto& series = out.results.series;
  ASSERT_GE(series.size(), 10u);
  EXPECT_GT(series[series.size() - 1].tps, 2 * series[0].tps);
  EXPECT_GT(out.results.sections["cache"]["misses"].get<double>(), 1000);
  // The warm run starts fast.
  c.host.start = pgmodel::CacheStart::kWarm;
  SimulationOutput warm = MustRun(c);
  EXPECT_GT(warm.results.series[0].tps, 2 * series[0].tps);
}

TEST(EngineTest, GroupCommitSharesFlushes) {
  SimConfig c = CachedConfig();
  c.clients = 16;
  c.transactions_per_client = 200;
  c.controller.write_back = false;  // Slow flushes make commits pile up.
  c.row_locks = false;              // At scale 1 all would queue on the one branch row.
  SimulationOutput out = MustRun(c);
  EXPECT_GT(out.results.sections["wal"]["commits_per_flush"].get<double>(), 3.0);
}

TEST(EngineTest, ReportsDevicesAndStatementsInPgbenchOrder) {
  SimulationOutput out = MustRun(CachedConfig());
  const Results& r = out.results;
  EXPECT_EQ(r.kind, "simulate");
  ASSERT_EQ(r.statements.size(), 7u);
  EXPECT_EQ(r.statements[0].name, "BEGIN");
  EXPECT_EQ(r.statements[1].name, "UPDATE accounts");
  EXPECT_EQ(r.statements[6].name, "END");
  EXPECT_EQ(r.sections["devices"].size(), 4u);
  EXPECT_TRUE(r.sections.contains("controller"));
  EXPECT_GT(out.events, 0u);
}

TEST(EngineTest, DatabaseLargerThanArrayIsAnError) {
  SimConfig c = CachedConfig();
  c.host.scale = 100000;  // 1.5 TB on 4 x 300 GB RAID 10.
  StatusOr<SimulationOutput> out = RunSimulation(c);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("do not fit"), std::string::npos);
}

TEST(EngineTest, OpenLoopRunsAtTheGivenRate) {
  SimConfig c = CachedConfig();
  c.clients = 4;
  c.transactions_per_client = 0;
  c.duration_ns = 100 * kNsPerSec;
  c.rate_tps = 200;
  SimulationOutput out = MustRun(c);
  EXPECT_NEAR(out.results.tps, 200, 10);  // Poisson: 20000 +- ~140 arrivals.
  // Far from saturation the latency is the unloaded one (< 1 ms), not a backlog.
  EXPECT_LT(out.results.transaction_latency.mean_ns(), 1.5 * kNsPerMs);
}

TEST(EngineTest, CheckpointsInflateWalWithFullPageImages) {
  SimConfig c = CachedConfig();
  c.host.scale = 5;
  c.clients = 4;
  c.transactions_per_client = 0;
  c.duration_ns = 8 * kNsPerSec;
  auto wal_per_txn = [](const SimConfig& cfg, double* fpis) {
    SimulationOutput out = MustRun(cfg);
    *fpis = out.results.sections["wal"]["full_page_images"].get<double>();
    return out.results.sections["wal"]["bytes_inserted"].get<double>() / out.results.transactions;
  };
  double fpis_rare = 0, fpis_often = 0, fpis_off = 0;
  c.host.checkpoint_timeout_ns = 300 * kNsPerSec;  // No checkpoint in the run.
  const double rare = wal_per_txn(c, &fpis_rare);
  c.host.checkpoint_timeout_ns = 1 * kNsPerSec;
  const double often = wal_per_txn(c, &fpis_often);
  c.host.full_page_writes = false;
  const double off = wal_per_txn(c, &fpis_off);
  EXPECT_GT(fpis_often, 1.5 * fpis_rare);
  EXPECT_GT(often, rare * 1.2);
  EXPECT_EQ(fpis_off, 0);
  EXPECT_LT(off, 1000);  // A TPC-B transaction's records alone are a few hundred bytes.
  EXPECT_GT(rare, off);
}

TEST(EngineTest, CachedAsyncCommitIsCpuBound) {
  SimConfig c = CachedConfig();
  c.synchronous_commit = false;
  c.clients = 16;
  c.cpu_cores = 2;
  c.transactions_per_client = 1000;
  c.row_locks = false;  // At scale 1 all would queue on the one branch row.
  int64_t cpu_ns = 0;
  for (int64_t ns : c.cpu_ns) cpu_ns += ns;
  SimulationOutput out = MustRun(c);
  const double bound_tps = c.cpu_cores * 1e9 / cpu_ns;
  EXPECT_NEAR(out.results.tps, bound_tps, 0.02 * bound_tps);
  EXPECT_GT(out.results.sections["cpu"]["utilization"].get<double>(), 0.97);
  // Twice the cores, twice the throughput.
  c.cpu_cores = 4;
  EXPECT_NEAR(MustRun(c).results.tps, 2 * bound_tps, 0.04 * bound_tps);
}

}  // namespace
}  // namespace pgstorsim::sim
