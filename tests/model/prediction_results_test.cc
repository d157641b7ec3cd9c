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

// The results' histograms hold the model's distributions: every statement's and the
// transaction's percentiles are the prediction's (within half a 1/1000 slice and a
// bucket) and their means the prediction's means.
TEST(PredictionResults, HistogramsCarryTheModelsPercentilesAndMeans) {
  auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) +
                        "/results/validation/m5110e-calibrated.toml");
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto p = Predict(*s);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const Results r = PredictionToResults(*s, *p);
  auto expect_same = [](const LatencyHistogram& h, const LatencyPercentiles& q, double mean_ms,
                        const std::string& what) {
    EXPECT_NEAR(h.mean_ns() / 1e6, mean_ms, 1e-4 * mean_ms) << what;
    EXPECT_NEAR(h.PercentileNs(0.50) / 1e6, q.p50_ms, 0.01 * q.p50_ms) << what;
    EXPECT_NEAR(h.PercentileNs(0.95) / 1e6, q.p95_ms, 0.01 * q.p95_ms) << what;
    EXPECT_NEAR(h.PercentileNs(0.99) / 1e6, q.p99_ms, 0.01 * q.p99_ms) << what;
  };
  ASSERT_EQ(r.statements.size(), p->statement_latency_ms.size());
  for (const StatementResult& st : r.statements) {
    expect_same(st.latency, p->statement_percentiles.at(st.name),
                p->statement_latency_ms.at(st.name), st.name);
  }
  expect_same(r.transaction_latency, p->transaction_percentiles, p->transaction_latency_ms,
              "transaction");
  // Destage-bound at 10 clients: the tail is the commits' stalls, far above the median.
  EXPECT_GT(p->statement_percentiles.at("END").p99_ms,
            10 * p->statement_percentiles.at("END").p50_ms);
}

// An io workload's request is a read or a write: its histogram is their mixture in
// their shares, with the prediction's percentiles and mean.
TEST(PredictionResults, IoRequestHistogramIsTheMixtureOfReadsAndWrites) {
  auto s = LoadScenario(
      std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml",
      {"workload.type=io", "workload.io_size=8KiB", "workload.file_size=4GiB",
       "workload.read_fraction=0.7", "workload.io_fsync_writes=on", "workload.clients=8",
       "workload.duration=100s", "controller.write_policy=write-through"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto p = Predict(*s);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->statement_shares.size(), 2u);
  EXPECT_DOUBLE_EQ(p->statement_shares.at("read"), 0.7);
  const Results r = PredictionToResults(*s, *p);
  const LatencyHistogram& h = r.transaction_latency;
  const LatencyPercentiles& q = p->transaction_percentiles;
  EXPECT_NEAR(h.mean_ns() / 1e6, p->transaction_latency_ms, 1e-4 * p->transaction_latency_ms);
  EXPECT_NEAR(h.PercentileNs(0.95) / 1e6, q.p95_ms, 0.01 * q.p95_ms);
  EXPECT_NEAR(h.PercentileNs(0.50) / 1e6, q.p50_ms, 0.01 * q.p50_ms);
  // A mixture's median lies between its kinds' medians.
  const double read50 = p->statement_percentiles.at("read").p50_ms;
  const double write50 = p->statement_percentiles.at("write").p50_ms;
  EXPECT_GE(q.p50_ms, std::min(read50, write50) * 0.999);
  EXPECT_LE(q.p50_ms, std::max(read50, write50) * 1.001);
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
