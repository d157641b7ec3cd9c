#include "common/results_merge.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

Results Part(const std::string& sysid, uint64_t txns, double tps, int64_t latency_ns) {
  Results r = NewResults("run");
  r.environment = {
      {"hostname", "client"},
      {"server",
       {{"system_identifier", sysid}, {"host", "h"}, {"port", "5432"}, {"database", "d"}}}};
  r.config = {{"threads", 1},
              {"scenario", {{"workload.clients", 2}, {"workload.scale", 10}}},
              {"scripts", {{{"name", "tpcb-like"}, {"weight", 1}, {"builtin", true}}}}};
  r.transactions = txns;
  r.tps = tps;
  r.duration_s = 10;
  for (uint64_t i = 0; i < txns; ++i) r.transaction_latency.Record(latency_ns);
  StatementResult s;
  s.name = "END";
  s.latency.Record(latency_ns);
  r.statements.push_back(s);
  r.series = {{1.0, txns / 2, tps, latency_ns / 1e6}, {2.0, txns / 2, tps, 1.0}};
  r.sections["series_interval_s"] = 1;
  return r;
}

TEST(ResultsMergeTest, AddsCountsHistogramsSeriesAndClients) {
  auto merged = MergeResults({Part("42", 100, 10, 1000000), Part("42", 300, 30, 3000000)},
                             {"a.json", "b.json"});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  EXPECT_EQ(merged->transactions, 400u);
  EXPECT_DOUBLE_EQ(merged->tps, 40);
  EXPECT_EQ(merged->transaction_latency.count(), 400u);
  EXPECT_NEAR(merged->transaction_latency.mean_ns(), 2500000, 30000);
  EXPECT_EQ(merged->config["scenario"]["workload.clients"], 4);
  EXPECT_FALSE(merged->config.contains("clients"));  // Stated once, in the scenario keys.
  EXPECT_EQ(merged->config["threads"], 2);
  EXPECT_EQ(merged->config["scenario"]["workload.scale"], 10);
  ASSERT_EQ(merged->series.size(), 2u);
  EXPECT_EQ(merged->series[0].transactions, 200u);
  EXPECT_DOUBLE_EQ(merged->series[0].tps, 40);
  EXPECT_NEAR(merged->series[0].mean_latency_ms, (50 * 1.0 + 150 * 3.0) / 200, 1e-9);
  EXPECT_EQ(merged->statements[0].latency.count(), 2u);
  EXPECT_EQ(merged->sections["merged_parts"].size(), 2u);
  EXPECT_EQ(merged->sections["merged_parts"][1]["file"], "b.json");
}

TEST(ResultsMergeTest, RefusesAnotherServerOrSchema) {
  auto other = MergeResults({Part("42", 1, 1, 1), Part("43", 1, 1, 1)}, {"a", "b"});
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("not the same server"), std::string::npos);
  Results scaled = Part("42", 1, 1, 1);
  scaled.config["scenario"]["workload.scale"] = 20;
  auto schema = MergeResults({Part("42", 1, 1, 1), scaled}, {"a", "b"});
  ASSERT_FALSE(schema.ok());
  EXPECT_NE(schema.status().message().find("not the same schema"), std::string::npos);
  Results predicted = Part("42", 1, 1, 1);
  predicted.kind = "predict";
  EXPECT_FALSE(MergeResults({Part("42", 1, 1, 1), predicted}, {"a", "b"}).ok());
}

TEST(ResultsMergeTest, UnknownIdentifierFallsBackToHostPortDatabase) {
  Results a = Part("unknown: permission denied", 1, 1, 1);
  Results b = Part("unknown: permission denied", 1, 1, 1);
  EXPECT_TRUE(MergeResults({a, b}, {"a", "b"}).ok());
  b.environment["server"]["port"] = "5433";
  EXPECT_FALSE(MergeResults({a, b}, {"a", "b"}).ok());
}

}  // namespace
}  // namespace pgstorsim
