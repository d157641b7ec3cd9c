// Percentiles from the model (model/percentiles.h): the distributions' arithmetic on
// cases with closed forms, and predict's transaction p95 against the simulator's
// histograms on the cross-check points of tests/data/percentile_crosscheck.tsv.
#include "model/percentiles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/storage_model.h"
#include "scenario/scenario.h"
#include "support/tsv_table.h"

namespace pgstorsim {
namespace {

TEST(Percentiles, FixedOnlyIsAPoint) {
  StatementShape s;
  s.mean_ms = s.fixed_ms = 0.3;
  const LatencyPercentiles q = StatementPercentiles(s);
  EXPECT_DOUBLE_EQ(q.p50_ms, 0.3);
  EXPECT_DOUBLE_EQ(q.p99_ms, 0.3);
}

// An exponential wait of mean m: quantile f at -m ln(1 - f).
TEST(Percentiles, ExponentialWaitQuantiles) {
  StatementShape s;
  s.fixed_ms = 1;
  s.mean_ms = 11;
  const LatencyPercentiles q = StatementPercentiles(s);
  EXPECT_NEAR(q.p50_ms, 1 + 10 * std::log(2.0), 0.05);
  EXPECT_NEAR(q.p95_ms, 1 + 10 * std::log(20.0), 0.1);
  EXPECT_NEAR(q.p99_ms, 1 + 10 * std::log(100.0), 0.2);
}

// Half the executions read once (service 4 ms, idle disk: no wait): p50 is the fixed
// part, p95 fixed + service.
TEST(Percentiles, ReadsAreABinomialMixture) {
  StatementShape s;
  s.fixed_ms = 0.1;
  s.reads = 0.5;
  s.read_service_ms = 4;
  s.busy = 0;
  s.mean_ms = 0.1 + 0.5 * 4;
  const LatencyPercentiles q = StatementPercentiles(s);
  EXPECT_NEAR(q.p50_ms, 0.1, 0.05);
  EXPECT_NEAR(q.p95_ms, 4.1, 0.2);
}

// Rare stalls (1 % of executions wait 1 s on average) leave p95 at the fixed part and
// put p99 near the stall.
TEST(Percentiles, RareStallsOnlyMoveTheTail) {
  StatementShape s;
  s.fixed_ms = 0.2;
  s.mean_ms = 0.2 + 10;
  s.stall_ms = 1000;
  const LatencyPercentiles q = StatementPercentiles(s);
  EXPECT_NEAR(q.p95_ms, 0.2, 0.01);
  EXPECT_LT(q.p99_ms, 50);
  EXPECT_GT(StatementPercentiles({0.2 + 30, 0.2, 0, 0, 0, 1000}).p99_ms, 100);
}

// Frequent stalls: three statements each wait 500 ms on average in stalls of 1 s, so a
// transaction waits in K of them, K Poisson of mean 1.5 (P(K <= 0..5) = 0.223, 0.558,
// 0.809, 0.934, 0.981, 0.996): p50 one stall, p95 four, p99 five, and the distribution
// keeps the mean.
TEST(Percentiles, FrequentStallsAddUpToTheMean) {
  StatementShape s;
  s.fixed_ms = 0.1;
  s.mean_ms = 0.1 + 500;
  s.stall_ms = 1000;
  const std::map<std::string, StatementShape> shapes = {{"a", s}, {"b", s}, {"c", s}};
  const LatencyPercentiles q = TransactionPercentiles(shapes);
  EXPECT_NEAR(q.p50_ms, 0.3 + 1000, 1);
  EXPECT_NEAR(q.p95_ms, 0.3 + 4000, 1);
  EXPECT_NEAR(q.p99_ms, 0.3 + 5000, 1);
  EXPECT_NEAR(StalledShare(shapes), 1 - std::exp(-1.5), 1e-12);
  const std::vector<double> v = TransactionQuantiles(shapes, 2000);
  double mean = 0;
  for (double x : v) mean += x / v.size();
  EXPECT_NEAR(mean, 0.3 + 1500, 15);
}

// Checkpoint bursts: 2 ms of a 3 ms excess comes as stalls of exactly 100 ms (2 % of
// the executions), the other 1 ms as an exponential wait: p50 and p95 see only that
// wait; p99 is a stall plus the wait's median (0.02 x P(wait > x) = 0.01).
TEST(Percentiles, CheckpointBurstsAreStallsOfTheirLength) {
  StatementShape s;
  s.fixed_ms = 0.5;
  s.mean_ms = 0.5 + 3;
  s.burst_mean_ms = 2;
  s.burst_ms = 100;
  const LatencyPercentiles q = StatementPercentiles(s);
  EXPECT_NEAR(q.p50_ms, 0.5 + std::log(2.0 / 0.98), 0.05);
  EXPECT_LT(q.p95_ms, 0.5 + 5);
  EXPECT_NEAR(q.p99_ms, 0.5 + 100 + std::log(2.0), 0.3);
  // Without the burst split the same mean is one exponential wait of 3 ms.
  s.burst_mean_ms = s.burst_ms = 0;
  EXPECT_NEAR(StatementPercentiles(s).p95_ms, 0.5 + 3 * std::log(20.0), 0.1);
}

// A commit that finds a 10 ms flush in progress waits what is left of it: every commit
// here (a 5 ms mean wait), a gamma of the uniform's mean and squared coefficient of
// variation 1/3 (shape 3): p99 = 5 / 3 x chi-square(6) p99 / 2 = 5 / 3 x 8.406, far
// below an exponential wait's 5 x ln 100.
TEST(Percentiles, WaitForTheFlushInProgressIsBounded) {
  StatementShape s;
  s.fixed_ms = 10;
  s.mean_ms = 10 + 5;
  s.flush_ms = 10;
  s.flush_wait_ms = 5;
  EXPECT_NEAR(StatementPercentiles(s).p99_ms, 10 + 5.0 / 3 * 8.406, 0.2);
}

// Without a write-back cache a commit's own WAL flush is a fixed part of END, and
// predict says how much of END the checkpoint bursts are (an SSD pair behind an HBA).
TEST(Percentiles, HbaCommitFlushAndBursts) {
  auto s =
      LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml",
                   {"controller.kind=hba", "array.level=raid0", "array.disks=2", "disks.type=ssd",
                    "disks.capacity=400GiB", "workload.scale=200", "workload.clients=10",
                    "workload.duration=30s"});
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto p = Predict(*s);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const double end_ms = p->statement_latency_ms.at("END");
  EXPECT_GT(p->wal_flush_ms, 0);
  EXPECT_GT(p->checkpoint_stall_ms, 0);
  EXPECT_LT(p->wal_flush_ms + p->checkpoint_stall_ms, end_ms);
  EXPECT_GT(p->checkpoint_burst_ms, 10 * p->checkpoint_stall_ms);
  EXPECT_GE(p->statement_percentiles.at("END").p50_ms, p->wal_flush_ms);
  // A commit in a burst waits for two flushes behind the OS's writes, not the burst.
  EXPECT_GT(p->burst_flush_wait_ms, 0);
  EXPECT_LT(p->burst_flush_wait_ms, p->checkpoint_burst_ms);
  EXPECT_GE(p->statement_percentiles.at("END").p99_ms, p->burst_flush_wait_ms);
}

// A full write-back cache: the commits that stall wait behind the OS's writes in flight
// (twice their number x the busiest member's block write), so the p99 is that wait and
// grows with the writes in flight, while the mean stays.
TEST(Percentiles, WriteBackStallsAreCommitsBehindTheOsWrites) {
  const std::string path =
      std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml";
  const std::vector<std::string> point = {"array.stripe=1MiB", "workload.clients=10",
                                          "workload.scale=200", "workload.duration=900s"};
  auto s = LoadScenario(path, point);
  std::vector<std::string> deeper = point;
  deeper.push_back("calibration.os_writes_outstanding=512");
  auto d = LoadScenario(path, deeper);
  ASSERT_TRUE(s.ok() && d.ok());
  auto p = Predict(*s);
  auto q = Predict(*d);
  ASSERT_TRUE(p.ok() && q.ok());
  ASSERT_GT(p->cache_full_probability, 0.9);
  EXPECT_NEAR(q->commit_behind_os_writes_ms, 2 * p->commit_behind_os_writes_ms,
              1e-9 * p->commit_behind_os_writes_ms);
  EXPECT_NEAR(q->tps, p->tps, 1e-9 * p->tps);
  const LatencyPercentiles& t = p->transaction_percentiles;
  EXPECT_GT(t.p99_ms, 0.9 * p->commit_behind_os_writes_ms);
  EXPECT_LT(t.p99_ms, 1.1 * p->commit_behind_os_writes_ms + t.p95_ms);
  EXPECT_GT(q->transaction_percentiles.p99_ms, 1.5 * t.p99_ms);
  // The simulator stalls 3.1 % of the transactions here (300 s, seed 1); the p99 sits in
  // the stalls only when more than 1 % stall.
  EXPECT_GT(p->stalled_transaction_share, 0.01);
  EXPECT_LT(p->stalled_transaction_share, 0.05);
  EXPECT_LT(q->stalled_transaction_share, p->stalled_transaction_share);
}

// Many clients on a full write-back cache (scale 100, 64 to 400 clients): the stalls
// behind the OS's writes carry most of the mean, more of them the more clients, and the
// distribution still holds the model's mean (the simulator at 256 clients, 300 s, seed
// 1: mean 599 ms, p95 2894, p99 5016).
TEST(Percentiles, ManyClientsStallMoreAndKeepTheMean) {
  const std::string path =
      std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml";
  std::optional<Prediction> fewer;
  for (const char* clients : {"workload.clients=64", "workload.clients=400"}) {
    auto s = LoadScenario(path, {clients, "workload.scale=100", "host.cpu_cores=16"});
    ASSERT_TRUE(s.ok()) << s.status().message();
    auto p = Predict(*s);
    ASSERT_TRUE(p.ok()) << p.status().message();
    const std::vector<double> v = TransactionQuantiles(p->statement_shapes, 2000);
    double mean = 0;
    for (double x : v) mean += x / v.size();
    EXPECT_NEAR(mean, p->transaction_latency_ms, 0.03 * p->transaction_latency_ms) << clients;
    EXPECT_GT(p->transaction_percentiles.p99_ms, p->transaction_latency_ms) << clients;
    if (fewer) {
      EXPECT_GT(p->stalled_transaction_share, fewer->stalled_transaction_share);
      EXPECT_GT(p->transaction_percentiles.p95_ms, 2 * fewer->transaction_percentiles.p95_ms);
    }
    fewer = *p;
  }
}

// Every execution waits for cache room, a wait spanning 10 destage commands: a gamma of
// shape 10 and mean 3 ms (p95 = 3 / 10 x chi-square(20) p95 / 2 = 0.3 x 15.705).
TEST(Percentiles, RoomWaitIsAGammaOfItsCommands) {
  StatementShape s;
  s.fixed_ms = 0.2;
  s.mean_ms = 0.2 + 3;
  s.room_ms = 3;
  s.room_busy = 1;
  s.room_commands = 10;
  EXPECT_NEAR(StatementPercentiles(s).p95_ms, 0.2 + 0.3 * 15.705, 0.05);
  s.room_commands = 1;  // One command: exponential.
  EXPECT_NEAR(StatementPercentiles(s).p95_ms, 0.2 + 3 * std::log(20.0), 0.1);
}

// A read behind a saturated destage stream waits for the commands queued ahead of it
// (15 ms given that it waits, of 1 ms commands: a gamma of shape 15), narrower than
// behind an open stream.
TEST(Percentiles, SaturatedReadWaitIsNarrower) {
  StatementShape s;
  s.reads = 1;
  s.read_service_ms = 3;
  s.busy = 0.8;
  s.mean_ms = 3 / 0.2;  // Residence S / (1 - U): a wait of 12 ms, 15 given it waits.
  s.command_ms = 1;
  const double open_p99 = StatementPercentiles(s).p99_ms;
  s.saturated = 1;
  const LatencyPercentiles q = StatementPercentiles(s);
  EXPECT_LT(q.p99_ms, open_p99);
  // p99: the wait's 1 - 0.01 / 0.8 quantile, of a gamma of shape 15 and mean 15: 24.98.
  EXPECT_NEAR(q.p99_ms, 3 + 24.98, 0.3);
}

// Two independent exponentials of mean 5: the sum is Erlang-2 (p95 = 5 x 4.744).
TEST(Percentiles, TransactionConvolvesStatements) {
  StatementShape a;
  a.mean_ms = 5;
  const LatencyPercentiles q = TransactionPercentiles({{"a", a}, {"b", a}});
  EXPECT_NEAR(q.p95_ms, 5 * 4.7439, 0.15);
}

struct CrossCheck {
  std::vector<std::string> overrides;
  double sim_p95_ms = 0;
  double tolerance = 0;
  std::string reason;
  double sim_p99_ms = 0;
  std::optional<double> p99_tolerance;  // Unset: the p99 is not checked.
  std::string p99_reason;
};

std::vector<CrossCheck> ReadCrossChecks() {
  std::vector<CrossCheck> out;
  for (const auto& row : testing_support::ReadTsvTable("tests/data/percentile_crosscheck.tsv")) {
    CrossCheck c;
    c.overrides = testing_support::SplitTsvFields(row.at("overrides"), ';');
    c.overrides.push_back("workload.duration=" + row.at("duration"));
    c.sim_p95_ms = std::stod(row.at("sim_p95_ms"));
    c.tolerance = std::stod(row.at("tolerance"));
    c.reason = row.at("reason");
    c.sim_p99_ms = std::stod(row.at("sim_p99_ms"));
    if (row.at("p99_tolerance") != "-") c.p99_tolerance = std::stod(row.at("p99_tolerance"));
    c.p99_reason = row.at("p99_reason");
    out.push_back(c);
  }
  return out;
}

// Over the simulator cross-check matrix's pgbench points (76 of its 95 scenarios: RAID
// levels, disks, SSDs, throttles, workloads, 1-64 clients, commit settings), the
// transaction's distribution integrates to the model's mean transaction latency within
// 1 %: every part of each statement's mean is in it (20000 quantiles resolve stalls
// down to 0.005 % of the transactions).
TEST(Percentiles, EveryCrossCheckPointKeepsTheMean) {
  int checked = 0;
  for (const auto& row : testing_support::ReadTsvTable("tests/data/sim_predict_crosscheck.tsv")) {
    std::vector<std::string> overrides = testing_support::SplitTsvFields(row.at("overrides"), ';');
    overrides.push_back("workload.duration=" + row.at("duration"));
    auto s = LoadScenario(
        std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml",
        overrides);
    ASSERT_TRUE(s.ok()) << s.status().message();
    if (s->workload.type == WorkloadKind::kIo) continue;
    auto p = Predict(*s);
    ASSERT_TRUE(p.ok()) << row.at("name") << ": " << p.status().message();
    const std::vector<double> v = TransactionQuantiles(p->statement_shapes, 20000);
    double mean = 0;
    for (double x : v) mean += x / v.size();
    EXPECT_NEAR(mean, p->transaction_latency_ms, 0.01 * p->transaction_latency_ms)
        << row.at("name") << " stalled " << p->stalled_transaction_share;
    ++checked;
  }
  EXPECT_GE(checked, 76);
}

TEST(Percentiles, TransactionP95AndP99AgainstSimulator) {
  const std::vector<CrossCheck> points = ReadCrossChecks();
  ASSERT_GE(points.size(), 23u);
  int within_target = 0, p99_checked = 0;
  for (const CrossCheck& c : points) {
    auto s = LoadScenario(
        std::string(PGSTORSIM_SOURCE_DIR) + "/results/validation/m5110e-calibrated.toml",
        c.overrides);
    ASSERT_TRUE(s.ok()) << s.status().message();
    auto p = Predict(*s);
    ASSERT_TRUE(p.ok()) << p.status().message();
    const double ratio = p->transaction_percentiles.p95_ms / c.sim_p95_ms;
    std::string where;
    for (const std::string& o : c.overrides) where += o + " ";
    EXPECT_NEAR(ratio, 1.0, c.tolerance) << where << "(" << c.reason << ")";
    if (std::fabs(ratio - 1) <= 0.25) ++within_target;
    if (c.p99_tolerance) {
      EXPECT_NEAR(p->transaction_percentiles.p99_ms / c.sim_p99_ms, 1.0, *c.p99_tolerance)
          << where << "p99 (" << c.p99_reason << ")";
      ++p99_checked;
    }
    EXPECT_LE(p->transaction_percentiles.p50_ms, p->transaction_percentiles.p95_ms);
    EXPECT_LE(p->transaction_percentiles.p95_ms, p->transaction_percentiles.p99_ms);
  }
  // The points the file holds at 0.25: 19 of 23 (the reasons for the others are in the
  // file); the p99 is checked at every point.
  EXPECT_GE(within_target, 19);
  EXPECT_GE(p99_checked, 23);
}

}  // namespace
}  // namespace pgstorsim
