#include "model/sweep.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace pgstorsim {
namespace {

TEST(Sweep, CartesianProductWithRefusedPoints) {
  auto base = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(base.ok());
  auto t = RunSweepTable(*base, {"array.stripe=32k,1MiB,2MiB", "workload.clients=1,10"});
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->points.size(), 6u);
  EXPECT_EQ(t->points[0].values, (std::vector<std::string>{"32k", "1"}));
  EXPECT_EQ(t->points[5].values, (std::vector<std::string>{"2MiB", "10"}));
  EXPECT_TRUE(t->points[0].ok);
  EXPECT_FALSE(t->points[4].ok);  // 2 MiB is above the controller's maximum.
  EXPECT_NE(t->points[4].error.find("array.stripe"), std::string::npos);
  EXPECT_GT(t->points[3].prediction.tps, t->points[1].prediction.tps);
  const std::string text = FormatSweepTable(*t);
  EXPECT_NE(text.find("refused"), std::string::npos);
  EXPECT_FALSE(RunSweepTable(*base, {"array.nothing=1,2"}).ok());
  EXPECT_FALSE(RunSweepTable(*base, {"array.stripe"}).ok());
}

TEST(Sweep, AnIoWorkloadsColumnsAreItsRequests) {
  auto base =
      LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml",
                   {"workload.type=io", "workload.io_size=8KiB", "workload.read_fraction=0.5",
                    "workload.io_fsync_writes=on", "workload.file_size=8GiB"});
  ASSERT_TRUE(base.ok()) << base.status().message();
  auto t = RunSweepTable(*base, {"workload.clients=1,4"});
  ASSERT_TRUE(t.ok()) << t.status().message();
  const std::string text = FormatSweepTable(*t);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "workload.clients\ttps\tp95 ms\tread ms\twrite ms\tregime");
  const SweepPoint& four = t->points[1];
  char row[128];
  std::snprintf(row, sizeof row, "4\t%.1f\t%.2f\t%.2f\t%.2f\t", four.prediction.tps,
                four.prediction.transaction_percentiles.p95_ms,
                four.prediction.statement_latency_ms.at("read"),
                four.prediction.statement_latency_ms.at("write"));
  EXPECT_NE(text.find(row), std::string::npos) << text;
  EXPECT_GT(four.prediction.statement_latency_ms.at("write"), 0);
}

TEST(Sweep, EachWorkloadKindShowsItsOwnStatements) {
  auto base = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(base.ok()) << base.status().message();
  auto t = RunSweepTable(*base, {"workload.type=tpcb-like,select-only"});
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->statements, (std::vector<std::string>{"UPDATE accounts", "END", "SELECT accounts"}));
  const std::string text = FormatSweepTable(*t);
  const SweepPoint& select = t->points[1];
  ASSERT_TRUE(select.ok) << select.error;
  char row[128];
  std::snprintf(row, sizeof row, "select-only\t%.1f\t%.2f\t-\t-\t%.2f\t%s\n", select.prediction.tps,
                select.prediction.transaction_percentiles.p95_ms,
                select.prediction.statement_latency_ms.at("SELECT accounts"),
                select.prediction.regime.c_str());
  EXPECT_NE(text.find(row), std::string::npos) << text;
  EXPECT_GT(select.prediction.statement_latency_ms.at("SELECT accounts"), 0);

  auto only = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml",
                           {"workload.type=select-only"});
  ASSERT_TRUE(only.ok()) << only.status().message();
  auto s = RunSweepTable(*only, {"workload.clients=1,4"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->statements, (std::vector<std::string>{"SELECT accounts"}));
}

}  // namespace
}  // namespace pgstorsim
