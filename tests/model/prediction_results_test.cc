#include "model/prediction_results.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(PredictionResults, SweepRowsInReportShapeWithBaseAndHeadlineTps) {
  auto base = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(base.ok()) << base.status().message();
  auto table = RunSweepTable(*base, {"array.stripe=1MiB,32KiB,2MiB"});
  ASSERT_TRUE(table.ok()) << table.status().message();
  auto current = Predict(*base);
  ASSERT_TRUE(current.ok());
  Results r = SweepPredictionToResults(*base, *current, *table);
  EXPECT_EQ(r.kind, "predict");
  EXPECT_DOUBLE_EQ(r.tps, current->tps);
  EXPECT_GT(r.tps, 0);
  EXPECT_TRUE(r.sections.contains("prediction"));
  EXPECT_EQ(r.config["sweep_keys"], nlohmann::json({"array.stripe"}));
  const nlohmann::json& rows = r.sections["sweep"];
  ASSERT_EQ(rows.size(), 3u);
  // Settings carry the results name of the key, its unit in the name.
  EXPECT_EQ(rows[0]["settings"].value("array.stripe_bytes", 0), 1 << 20);
  EXPECT_FALSE(rows[0]["base"].get<bool>());
  EXPECT_GT(rows[0]["tps"].get<double>(), rows[1]["tps"].get<double>());
  EXPECT_TRUE(rows[0].contains("latency_ms"));
  EXPECT_TRUE(rows[0].contains("tps_low"));
  // The scenario's stripe is "32k": "32KiB" is the same configuration.
  EXPECT_TRUE(rows[1]["base"].get<bool>());
  EXPECT_DOUBLE_EQ(rows[1]["tps"].get<double>(), current->tps);
  // 2 MiB exceeds the controller's maximum: refused, no tps.
  EXPECT_TRUE(rows[2].contains("error"));
  EXPECT_FALSE(rows[2].contains("tps"));
}

// END's parts are in the results: an SSD pair behind an HBA has a WAL flush on the
// commit path and checkpoint bursts; the write-back M5110e acknowledges from its cache.
TEST(PredictionResults, EndPartsWithoutWriteBackCache) {
  const std::string path = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";
  auto hba = LoadScenario(
      path, {"controller.kind=hba", "array.level=raid0", "array.disks=2", "disks.type=ssd",
             "disks.capacity=400GiB", "workload.scale=200", "workload.duration=30s"});
  ASSERT_TRUE(hba.ok()) << hba.status().message();
  auto p = Predict(*hba);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const nlohmann::json j = PredictionToJson(*p);
  EXPECT_GT(j.at("end_wal_flush_ms").get<double>(), 0);
  EXPECT_GT(j.at("end_checkpoint_stall_ms").get<double>(), 0);
  EXPECT_GT(j.at("checkpoint_burst_ms").get<double>(),
            j.at("end_checkpoint_stall_ms").get<double>());
  EXPECT_LT(j.at("end_wal_flush_ms").get<double>() + j.at("end_checkpoint_stall_ms").get<double>(),
            j.at("statement_latency_ms").at("END").get<double>());
  auto base = LoadScenario(path);
  ASSERT_TRUE(base.ok());
  auto wb = Predict(*base);
  ASSERT_TRUE(wb.ok());
  const nlohmann::json k = PredictionToJson(*wb);
  EXPECT_EQ(k.at("end_wal_flush_ms").get<double>(), 0);
  // The write-back cache's stalls: a commit behind the OS's writes in flight.
  EXPECT_GT(k.at("commit_behind_os_writes_ms").get<double>(), 0);
  EXPECT_EQ(k.at("commit_behind_os_writes_ms").get<double>(), wb->commit_behind_os_writes_ms);
  EXPECT_EQ(k.at("stalled_transaction_share").get<double>(), wb->stalled_transaction_share);
  EXPECT_GT(j.at("stalled_transaction_share").get<double>(), 0);  // The HBA's bursts.
}

}  // namespace
}  // namespace pgstorsim
