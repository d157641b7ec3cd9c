#include "model/storage_model.h"

#include <gtest/gtest.h>

#include "model/access_geometry.h"

namespace pgstorsim {
namespace {

Scenario Base(const std::vector<std::string>& sets = {}) {
  auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml", sets);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

double Tps(const Scenario& s) {
  auto p = Predict(s);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? p->tps : 0;
}

TEST(AccessGeometry, MisalignedUfsBlocksSplitOverStripeUnits) {
  // 64 KiB blocks at a 63-sector offset on 32 KiB units: every read touches both pairs.
  auto g32 = ComputeAccessGeometry(Base({"array.stripe=32k"}));
  ASSERT_TRUE(g32.ok());
  EXPECT_NEAR(g32->read_forks, 2.0, 1e-9);
  EXPECT_NEAR(g32->write_commands, 6.0, 1e-9);  // 3 unit pieces x 2 mirror copies.
  // 1 MiB units: 1 block in 16 crosses a boundary.
  auto g1m = ComputeAccessGeometry(Base({"array.stripe=1MiB"}));
  ASSERT_TRUE(g1m.ok());
  EXPECT_NEAR(g1m->read_forks, 1.0625, 1e-9);
  EXPECT_NEAR(g1m->write_commands, 2.125, 1e-9);
  // Aligned partition: a 64 KiB block never crosses a 64 KiB unit.
  auto aligned =
      ComputeAccessGeometry(Base({"array.stripe=64k", "filesystem.partition_offset=1MiB"}));
  ASSERT_TRUE(aligned.ok());
  EXPECT_NEAR(aligned->read_forks, 1.0, 1e-9);
  // Mirror balancing: read cost is spread evenly over the four members.
  const DiskCosts c{5.0, 1.0, 100000.0};
  for (size_t m = 0; m < 4; ++m) EXPECT_NEAR(g1m->ReadMs(m, c), g1m->ReadMs(0, c), 1e-9);
  // A split read costs one positioning per pair (contiguous pieces on a member merge)
  // plus the block's transfer.
  EXPECT_NEAR(g32->read_commands, 2.0, 1e-9);
  EXPECT_NEAR(g1m->read_commands, 1.0625, 1e-9);
  for (const AccessGeometry* g : {&*g32, &*g1m}) {
    double total = 0;
    for (size_t m = 0; m < 4; ++m) total += g->ReadMs(m, c);
    EXPECT_NEAR(total, g->read_commands * 5.0 + 65536 / 100000.0, 1e-9);
  }
}

TEST(AccessGeometry, Raid5WritesReadModifyWrite) {
  auto g = ComputeAccessGeometry(Base({"array.level=raid5", "array.disks=4", "array.stripe=1MiB",
                                       "filesystem.partition_offset=1MiB"}));
  ASSERT_TRUE(g.ok());
  // Small write: read old data + parity, write data + parity.
  EXPECT_NEAR(g->write_commands, 4.0, 1e-9);
}

TEST(StorageModel, WarmBeatsColdAndLargeStripeBeatsSmall) {
  EXPECT_GT(Tps(Base({"array.stripe=1MiB"})), Tps(Base({"array.stripe=32k"})));
  EXPECT_GT(Tps(Base({"workload.cache=warm"})), Tps(Base({"workload.cache=cold"})));
  EXPECT_GT(Tps(Base({"workload.cache=cold", "workload.scale=2000"})),
            Tps(Base({"workload.cache=cold", "workload.scale=6000"})));
}

TEST(StorageModel, AlignmentHelpsAMisalignedSmallStripe) {
  EXPECT_GT(Tps(Base({"array.stripe=64k", "filesystem.partition_offset=1MiB"})),
            Tps(Base({"array.stripe=64k"})));
}

TEST(StorageModel, WriteThroughOrBadBatteryMakesCommitsWait) {
  auto wb = Predict(Base());
  auto wt = Predict(Base({"controller.write_policy=write-through"}));
  auto bad = Predict(Base({"controller.battery_healthy=off"}));
  ASSERT_TRUE(wb.ok() && wt.ok() && bad.ok());
  EXPECT_LT(wt->tps, wb->tps);
  EXPECT_NEAR(bad->tps, wt->tps, 1e-9);
}

TEST(StorageModel, ThroughputGrowsWithClientsUpToSaturation) {
  double last = 0;
  for (int clients : {1, 2, 5, 10, 20, 50}) {
    const double tps = Tps(Base({"workload.clients=" + std::to_string(clients)}));
    EXPECT_GE(tps, last * 0.999) << clients;
    last = tps;
  }
  auto one = Predict(Base({"workload.clients=1"}));
  ASSERT_TRUE(one.ok());
  // One client: the cycle is the sum of the statement latencies.
  EXPECT_NEAR(1000.0 / one->tps, one->transaction_latency_ms, 0.05 * one->transaction_latency_ms);
}

TEST(StorageModel, SelectOnlyHasNoCommitOrDestage) {
  auto p = Predict(Base({"workload.type=select-only"}));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->statement_latency_ms.count("END"), 0u);
  EXPECT_EQ(p->writes_per_transaction, 0);
  for (const DeviceLoad& d : p->devices) EXPECT_EQ(d.destage_utilization, 0) << d.name;
}

TEST(StorageModel, UtilisationStaysBelowOne) {
  auto p = Predict(Base({"workload.clients=200"}));
  ASSERT_TRUE(p.ok());
  for (const DeviceLoad& d : p->devices) EXPECT_LE(d.utilization, 1.0 + 1e-6) << d.name;
}

TEST(StorageModel, ErrorBandWidensWithStandardErrors) {
  Scenario s = Base();
  s.calibration.values["read_seek_scale"] = 1.0;
  s.calibration.standard_errors["read_seek_scale"] = 0.5;
  s.calibration.rms_relative_error = 0.05;
  auto p = Predict(s);
  ASSERT_TRUE(p.ok());
  EXPECT_LT(p->tps_low, p->tps * 0.95 + 1e-9);
  EXPECT_GT(p->tps_high, p->tps * 1.05 - 1e-9);
}

TEST(StorageModel, RandomioColdIsSlowerAndReadsAreMisses) {
  Scenario s = Base();
  const ModelParams p = ParamsFromScenario(s);
  RandomioSpec spec;
  spec.file_bytes = 48000LL << 20;
  auto warm = PredictRandomio(s, p, spec);
  spec.cold = true;
  auto cold = PredictRandomio(s, p, spec);
  ASSERT_TRUE(warm.ok() && cold.ok());
  EXPECT_LT(cold->tps, warm->tps);
  EXPECT_GT(cold->reads_per_transaction, warm->reads_per_transaction);
  EXPECT_NEAR(warm->reads_per_transaction,
              1 - p.cache_fraction * static_cast<double>(s.host.ram_bytes) / (48000LL << 20), 1e-9);
  EXPECT_DOUBLE_EQ(warm->writes_per_transaction, 0.5);
  spec.threads = 0;
  EXPECT_FALSE(PredictRandomio(s, p, spec).ok());
}

}  // namespace
}  // namespace pgstorsim
