#include "driver/summary.h"

#include <gtest/gtest.h>

#include "common/units.h"
#include "driver/statement_sql.h"

namespace pgstorsim {
namespace {

EngineOutput SampleOutput() {
  EngineOutput out;
  out.transactions = 1000;
  out.failed = 10;
  out.measured_s = 4.0;
  out.connect_s = 0.0125;
  for (int i = 0; i < 1000; ++i) out.txn_latency.Record(i < 500 ? 2 * kNsPerMs : 4 * kNsPerMs);
  size_t n = DriverStatements(WorkloadKind::kTpcbLike).size();
  out.stmt_latency.resize(n);
  out.stmt_failures.assign(n, 0);
  out.stmt_failures[1] = 10;
  for (size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 100; ++k) out.stmt_latency[i].Record((i + 1) * kNsPerMs);
  }
  out.per_second_txns = {100, 200, 300, 400};
  out.per_second_latency_ns = {100 * 1e6, 200 * 2e6, 300 * 3e6, 400 * 4e6};
  return out;
}

TEST(SummaryTest, PgbenchStyleLines) {
  RunConfig c;
  c.clients = 4;
  c.threads = 2;
  c.duration_ns = 4 * kNsPerSec;
  c.prepared = true;
  std::string s = FormatRunSummary(c, 10, SampleOutput());
  for (const char* expected :
       {"transaction type: <builtin: TPC-B (sort of)>\n", "scaling factor: 10\n",
        "query mode: prepared\n", "number of clients: 4\n", "number of threads: 2\n",
        "duration: 4 s\n", "number of transactions actually processed: 1000\n",
        "number of failed transactions: 10 (0.990%)\n", "latency average = 3.000 ms\n",
        "latency stddev = 1.000 ms\n", "initial connection time = 12.500 ms\n",
        "tps = 250.000000 (without initial connection time)\n",
        "statement latencies in milliseconds and failures:\n",
        "         2.000          10  UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE "
        "aid = $2;\n"}) {
    EXPECT_NE(s.find(expected), std::string::npos) << "missing: " << expected << "\nin:\n" << s;
  }
  EXPECT_NE(s.find("  UPDATE branches      5.000     5.000     5.000     5.000"), std::string::npos)
      << s;
}

TEST(SummaryTest, TransactionsModeAndRateLines) {
  RunConfig c;
  c.transactions_per_client = 50;
  c.rate_tps = 100;
  c.max_tries = 3;
  std::string s = FormatRunSummary(c, 1, SampleOutput());
  EXPECT_NE(s.find("number of transactions per client: 50\n"), std::string::npos);
  EXPECT_NE(s.find("rate limit schedule lag: avg"), std::string::npos);
  EXPECT_NE(s.find("number of transactions retried: 0 (0.000%)\n"), std::string::npos);
  EXPECT_NE(s.find("total number of retries: 0\n"), std::string::npos);
}

TEST(SummaryTest, StatementResultsUseSharedNames) {
  RunConfig c;
  auto st = StatementResults(c, SampleOutput());
  ASSERT_EQ(st.size(), 7u);
  EXPECT_EQ(st[0].name, "BEGIN");
  EXPECT_EQ(st[1].failures, 10u);
  EXPECT_EQ(st[6].name, "END");
  EXPECT_EQ(st[6].latency.count(), 100u);
}

TEST(SummaryTest, SeriesAggregatesSeconds) {
  EngineOutput out = SampleOutput();
  auto one = SeriesFromPerSecond(out, 1);
  ASSERT_EQ(one.size(), 4u);
  EXPECT_DOUBLE_EQ(one[2].tps, 300);
  EXPECT_DOUBLE_EQ(one[3].mean_latency_ms, 4.0);
  auto two = SeriesFromPerSecond(out, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].transactions, 700u);
  EXPECT_DOUBLE_EQ(two[1].tps, 350);
  EXPECT_DOUBLE_EQ(two[1].t_s, 4.0);
  EXPECT_DOUBLE_EQ(two[0].mean_latency_ms, (100 * 1.0 + 200 * 2.0) / 300);
}

TEST(SummaryTest, ClientCpuLineOnlyWhenSomethingCommitted) {
  RunConfig c;
  EngineOutput out = SampleOutput();
  EXPECT_EQ(FormatRunSummary(c, 1, out).find("client CPU"), std::string::npos);
  out.cpu.user_s = 0.01;
  out.cpu.sys_s = 0.03;
  out.cpu.voluntary_switches = 7000;
  out.cpu.committed = 1000;
  EXPECT_NE(FormatRunSummary(c, 1, out).find(
                "client CPU per transaction: 40.0 us (user 10.0, sys 30.0), 7.00 sleeps, "
                "over 1000 committed"),
            std::string::npos)
      << FormatRunSummary(c, 1, out);
  nlohmann::json j = ClientCpuJson(out.cpu);
  EXPECT_DOUBLE_EQ(j["us_per_transaction"].get<double>(), 40.0);
  EXPECT_EQ(j["voluntary_switches"].get<int64_t>(), 7000);
  EXPECT_EQ(j["committed"].get<uint64_t>(), 1000u);
}

}  // namespace
}  // namespace pgstorsim
