// The analytic model's [calibration] keys in the simulator (docs/simulator.md, "The
// analytic model's calibration keys"), PostgreSQL 9.1's checkpoint_segments, and the
// fixed (calibrated) destage positioning at the disk.
#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <numeric>
#include <string>

#include "common/units.h"
#include "model/cpu_demand.h"
#include "model/destage_cost.h"
#include "pgmodel/host_scenario.h"
#include "scenario/calibration_keys.h"
#include "scenario/scenario.h"
#include "scenario/storage_geometry.h"
#include "sim/disk.h"
#include "sim/sim_config.h"
#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

const std::string kBase = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";

SimConfig ConfigFor(const std::vector<std::string>& overrides) {
  auto scenario = LoadScenario(kBase, overrides);
  EXPECT_TRUE(scenario.ok()) << scenario.status().message();
  auto config = SimConfigFromScenario(*scenario);
  EXPECT_TRUE(config.ok()) << config.status().message();
  return config.ok() ? *config : SimConfig();
}

TEST(CalibrationMappingTest, ModelKeysGetTheirPhysicalMeaning) {
  const SimConfig c = ConfigFor({"io.queue_depth=32", "calibration.read_seek_scale=0.5",
                                 "calibration.destage_position_ms=1.25", "calibration.cpu_ms=0.8",
                                 "calibration.commit_ms=0.25", "calibration.cache_fraction=0.5",
                                 "host.ram=24GiB", "postgres.shared_buffers=2GiB"});
  EXPECT_DOUBLE_EQ(c.disk.seek_scale, 0.5);
  EXPECT_EQ(c.controller.destage_position_ns, 1'250'000);
  EXPECT_EQ(c.disk.scheduler, DiskScheduler::kFifo);  // Fitted costs hold the reordering.
  EXPECT_EQ(c.controller.destage_outstanding, 2);     // In order: no deeper queue.
  const int64_t cpu = std::accumulate(c.cpu_ns.begin(), c.cpu_ns.end(), int64_t{0});
  EXPECT_NEAR(static_cast<double>(cpu), 800'000, 10);
  // UPDATE accounts has CPU time of its own (0.187 of cpu_ms), beside its reads.
  EXPECT_EQ(c.cpu_ns[static_cast<int>(Statement::kUpdateAccounts)], 149'600);
  EXPECT_EQ(c.client_rtt_ns, 0);
  EXPECT_EQ(c.controller.write_ack_ns, 250'000 - c.controller.command_overhead_ns);
  // Half of 24 GiB: distinct pages, inclusive cache.
  EXPECT_EQ(c.host.cache.os_cache_pages, (12LL << 30) / kPageBytes);
}

TEST(CalibrationMappingTest, SsdLatencyScalesMultiplyTheSsdsLatenciesOnly) {
  const std::vector<std::string> ssd = {"disks.type=ssd", "disks.capacity=400GiB",
                                        "disks.read_latency=90us", "disks.write_latency=30us"};
  std::vector<std::string> scaled = ssd;
  scaled.insert(scaled.end(), {"calibration.ssd_read_latency_scale=1.5",
                               "calibration.ssd_write_latency_scale=0.5"});
  const SimConfig c = ConfigFor(scaled);
  EXPECT_EQ(c.disk.ssd_read_ns, 135'000);
  EXPECT_EQ(c.disk.ssd_write_ns, 15'000);
  EXPECT_EQ(ConfigFor(ssd).disk.ssd_read_ns, 90'000);
  // An HDD keeps its mechanics.
  const SimConfig hdd = ConfigFor({"calibration.ssd_read_latency_scale=3"});
  EXPECT_EQ(hdd.disk.ssd_read_ns, ConfigFor({}).disk.ssd_read_ns);
  EXPECT_DOUBLE_EQ(hdd.disk.seek_scale, ConfigFor({}).disk.seek_scale);
}

TEST(CalibrationMappingTest, CpuMsSplitsByTheModelsStatementShares) {
  // One table: the simulator's per-statement CPU is cpu_ms x model/cpu_demand.h's share.
  const SimConfig c = ConfigFor({"calibration.cpu_ms=2"});
  for (int i = 0; i < kStatementCount; ++i) {
    const Statement st = static_cast<Statement>(i);
    EXPECT_EQ(c.cpu_ns[i], MsToNs(2 * StatementCpuShare(st))) << StatementName(st);
  }
  EXPECT_EQ(c.cpu_ns[static_cast<int>(Statement::kSelectAccounts)], 342'000);  // 0.171 x 2 ms.
}

TEST(CalibrationMappingTest, WithoutCalibrationTheMechanicsStay) {
  const SimConfig c = ConfigFor({"io.queue_depth=32"});
  EXPECT_DOUBLE_EQ(c.disk.seek_scale, 1.0);
  EXPECT_LT(c.controller.destage_position_ns, 0);
  EXPECT_EQ(c.disk.scheduler, DiskScheduler::kSatf);
  EXPECT_EQ(c.controller.destage_outstanding, 4);  // Reordering gains from a deeper queue.
  // Simulator-only keys still override the model's share (and the queue of destages).
  EXPECT_EQ(ConfigFor({"calibration.destage_position_ms=1.25",
                       "calibration.controller_destage_outstanding=6"})
                .controller.destage_outstanding,
            6);
  const SimConfig d = ConfigFor({"calibration.cpu_ms=0.8", "calibration.cpu_ms_end=0.1"});
  EXPECT_EQ(d.cpu_ns[static_cast<int>(Statement::kEnd)], 100'000);
}

TEST(CalibrationMappingTest, DestageQueueDepthChargesTheModelsCostPerDestage) {
  // The cost depends on the workload's footprint: both instruments take it from the
  // model (model/destage_cost.h) for the scenario as simulated.
  for (const char* scale : {"workload.scale=2000", "workload.scale=6000"}) {
    const std::vector<std::string> set = {"calibration.destage_queue_depth=6", scale};
    auto scenario = LoadScenario(kBase, set);
    ASSERT_TRUE(scenario.ok()) << scenario.status().message();
    auto ms = DestagePositionMsFor(*scenario, ParamsFromScenario(*scenario));
    ASSERT_TRUE(ms.ok()) << ms.status().message();
    const SimConfig c = ConfigFor(set);
    EXPECT_EQ(c.controller.destage_position_ns, MsToNs(*ms)) << scale;
    EXPECT_EQ(c.disk.scheduler, DiskScheduler::kFifo);
    EXPECT_EQ(c.controller.destage_outstanding, 2);
  }
  const SimConfig through =
      ConfigFor({"calibration.destage_queue_depth=6", "controller.write_policy=write-through"});
  EXPECT_EQ(through.disk.scheduler, DiskScheduler::kFifo);  // As with a fitted cost.
  EXPECT_LT(ConfigFor({"calibration.destage_queue_depth=6"}).controller.destage_position_ns,
            ConfigFor({"calibration.destage_queue_depth=6", "workload.scale=6000"})
                .controller.destage_position_ns);
  // An explicit cost wins; the simulator-only key still sets the queue.
  const SimConfig both =
      ConfigFor({"calibration.destage_queue_depth=6", "calibration.destage_position_ms=1.25",
                 "calibration.controller_destage_outstanding=5"});
  EXPECT_EQ(both.controller.destage_position_ns, 1'250'000);
  EXPECT_EQ(both.controller.destage_outstanding, 5);
  EXPECT_EQ(ConfigFor({"calibration.destage_queue_depth=6",
                       "calibration.controller_destage_outstanding=5"})
                .controller.destage_outstanding,
            5);
}

TEST(CalibrationMappingTest, PostgreSql91CheckpointsEveryThreeSegments) {
  const SimConfig old = ConfigFor({"postgres.version=9.1"});  // max_wal_size is refused.
  EXPECT_EQ(old.host.checkpoint_wal_bytes, 48LL << 20);
  EXPECT_GE(old.host.wal_cache_region_bytes, old.host.checkpoint_wal_bytes);
  const SimConfig modern = ConfigFor({"postgres.version=15", "postgres.max_wal_size=1GiB"});
  EXPECT_EQ(modern.host.checkpoint_wal_bytes, static_cast<int64_t>((1LL << 30) / 1.9));
}

class Recorder : public IoListener {
 public:
  explicit Recorder(Simulator* sim) : sim_(sim) {}
  void OnIoDone(uint64_t token) override { done_ns[token] = sim_->now_ns(); }
  int64_t done_ns[4] = {};

 private:
  Simulator* sim_;
};

// A destage write with a fixed positioning costs exactly that (plus overhead and
// transfer); the next one, continuing where the head stopped within its stripe unit
// (continues_command), streams; a contiguous one that starts another stripe unit is
// another controller command and pays the positioning again.
TEST(CalibrationMappingTest, FixedDestagePositioningAtTheDisk) {
  Simulator sim(5);
  SimDiskConfig config;
  config.sustained_bytes_per_s = 100e6;
  auto disk = CreateDisk(config, sim, 1, "disk0");
  Recorder recorder(&sim);
  const int64_t offset = 40LL << 30;
  disk->Submit({IoOp::kWrite, offset, 32768, 1'500'000}, &recorder, 0);
  disk->Submit({IoOp::kWrite, offset + 32768, 32768, 1'500'000, true}, &recorder, 1);
  disk->Submit({IoOp::kWrite, offset + 65536, 32768, 1'500'000, false}, &recorder, 2);
  sim.RunUntil(INT64_MAX);
  const int64_t transfer_ns = static_cast<int64_t>(32768 * 1e9 / 100e6);
  EXPECT_EQ(recorder.done_ns[0], config.command_overhead_ns + 1'500'000 + transfer_ns);
  EXPECT_EQ(recorder.done_ns[1] - recorder.done_ns[0], config.command_overhead_ns + transfer_ns);
  EXPECT_EQ(recorder.done_ns[2] - recorder.done_ns[1],
            config.command_overhead_ns + 1'500'000 + transfer_ns);
}

TEST(CalibrationMappingTest, ExplicitOsCacheIsThePageCacheWhateverTheRamFraction) {
  const SimConfig c =
      ConfigFor({"host.ram=256MiB", "host.os_cache=196MiB", "postgres.shared_buffers=32MiB",
                 "calibration.cache_fraction=0.5"});
  EXPECT_EQ(c.host.cache.os_cache_pages, (196LL << 20) / kPageBytes);
  EXPECT_FALSE(LoadScenario(kBase, {"host.ram=256MiB", "host.os_cache=240MiB",
                                    "postgres.shared_buffers=32MiB"})
                   .ok());  // Does not fit host.ram with shared_buffers.
}

// The simulator's OS writes in flight are predict's (pgmodel::OsWritesInFlight).
TEST(CalibrationMappingTest, OsWritesInFlightAreTheHostModels) {
  EXPECT_EQ(ConfigFor({}).background_writes_outstanding, pgmodel::kOsWritesInFlight);
  auto scenario = LoadScenario(kBase, {"calibration.os_writes_outstanding=31.6"});
  ASSERT_TRUE(scenario.ok());
  EXPECT_EQ(ConfigFor({"calibration.os_writes_outstanding=31.6"}).background_writes_outstanding,
            pgmodel::OsWritesInFlight(*scenario));
  EXPECT_EQ(pgmodel::OsWritesInFlight(*scenario), 32);
  EXPECT_FALSE(LoadScenario(kBase, {"calibration.os_writes_outstanding=0"}).ok());
}

// The simulator's OS dirty thresholds and expiry are predict's (pgmodel::OsDirtyLimitsOf),
// the calibrated expiry and direct data writes included.
TEST(CalibrationMappingTest, OsDirtyLimitsAreTheHostModels) {
  for (const std::vector<std::string>& sets :
       {std::vector<std::string>{},
        {"calibration.os_dirty_expire_s=5"},
        {"io.data_writes=direct"},
        {"io.data_writes=direct", "calibration.os_dirty_expire_s=5"}}) {
    auto scenario = LoadScenario(kBase, sets);
    ASSERT_TRUE(scenario.ok()) << scenario.status().message();
    const pgmodel::OsDirtyLimits want = pgmodel::OsDirtyLimitsOf(*scenario);
    const pgmodel::OsDirtyLimits got = ConfigFor(sets).os_dirty;
    EXPECT_EQ(got.background_bytes, want.background_bytes) << sets.size();
    EXPECT_EQ(got.limit_bytes, want.limit_bytes) << sets.size();
    EXPECT_EQ(got.expire_ns, want.expire_ns) << sets.size();
  }
  EXPECT_EQ(ConfigFor({"calibration.os_dirty_expire_s=5"}).os_dirty.expire_ns, 5000000000LL);
  EXPECT_EQ(ConfigFor({"io.data_writes=direct"}).os_dirty.expire_ns, 0);
}

// The controller's read-cache hit and the per-command times are the scenario's
// constants, which predict charges too (ControllerReadHitMs; the calibration key
// overrides the hit in both models).
TEST(CalibrationMappingTest, ControllerAndDriveTimesAreTheSharedConstants) {
  const SimConfig c = ConfigFor({});
  EXPECT_EQ(c.controller.read_hit_ns, ControllerConfig::kReadHitNs);
  EXPECT_EQ(c.controller.command_overhead_ns, ControllerConfig::kCommandOverheadNs);
  EXPECT_EQ(c.disk.command_overhead_ns, DiskConfig::kHddCommandOverheadNs);
  const std::vector<std::string> sets = {"calibration.controller_read_hit_ms=0.35"};
  EXPECT_EQ(ConfigFor(sets).controller.read_hit_ns, 350'000);
  auto scenario = LoadScenario(kBase, sets);
  ASSERT_TRUE(scenario.ok()) << scenario.status().message();
  EXPECT_DOUBLE_EQ(ControllerReadHitMs(*scenario), 0.35);
}

// The simulator reads exactly the rows of the shared [calibration] table marked
// `simulator`, and each statement's CPU key names that statement.
TEST(CalibrationMappingTest, SimulatorReadsTheTablesSimulatorKeys) {
  for (const CalibrationKey& key : CalibrationKeys()) {
    EXPECT_EQ(SimulatorReadsCalibrationKey(key.name), key.simulator) << key.name;
  }
  EXPECT_FALSE(SimulatorReadsCalibrationKey("no_such_key"));
  for (int i = 0; i < kStatementCount; ++i) {
    std::string key = "cpu_ms_";
    for (const char* p = StatementName(static_cast<Statement>(i)); *p; ++p) {
      key += *p == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    }
    ASSERT_NE(FindCalibrationKey(key), nullptr) << key;
    const SimConfig c = ConfigFor({"calibration." + key + "=0.125"});
    EXPECT_EQ(c.cpu_ns[i], 125'000) << key;
  }
}

}  // namespace
}  // namespace pgstorsim::sim
