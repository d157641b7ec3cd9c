// The CPU as a station of the analytic model (model/cpu_demand.h): a CPU-bound closed
// system against the MVA bounds, cores as servers, utilisation never above 1, and the
// regime naming the CPU when it is the bottleneck.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/cpu_demand.h"
#include "model/mva.h"
#include "model/storage_model.h"
#include "model_test_util.h"
#include "scenario/scenario.h"

namespace pgstorsim {
namespace {

// pgbench select-only at scale 10 (150 MB) in a warm 16 GiB host: no disk reads.
Scenario CachedSelectOnly(int clients, int cores) {
  auto s = DefaultScenario({"workload.type=select-only", "workload.scale=10",
                            "workload.clients=" + std::to_string(clients),
                            "host.cpu_cores=" + std::to_string(cores), "calibration.cpu_ms=0.5"});
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

double CpuUtilization(const Prediction& p) {
  for (const DeviceLoad& d : p.devices) {
    if (d.name == "cpu") return d.utilization;
  }
  ADD_FAILURE() << "no cpu device";
  return 0;
}

// A c-core CPU with N customers thinking Z between visits (the machine-repairman
// model): the exact throughput from the birth-death chain of customers at the CPU.
double RepairmanThroughputPerMs(int clients, double demand_ms, int cores, double think_ms) {
  std::vector<double> pi = {1.0};
  for (int j = 1; j <= clients; ++j) {
    pi.push_back(pi.back() * (clients - j + 1) / think_ms / (std::min(j, cores) / demand_ms));
  }
  double sum = 0, x = 0;
  for (double v : pi) sum += v;
  for (int j = 0; j <= clients; ++j) x += pi[j] / sum * std::min(j, cores) / demand_ms;
  return x;
}

TEST(CpuStation, MultiServerStationIsExact) {
  for (int cores : {1, 2, 8}) {
    for (int clients : {1, 2, 4, 8, 16, 64}) {
      const MvaResult r = SolveMva(clients, {}, 0.5, {1.0, cores});
      EXPECT_NEAR(r.throughput_per_ms, RepairmanThroughputPerMs(clients, 1.0, cores, 0.5),
                  1e-9 * r.throughput_per_ms)
          << cores << " cores, " << clients << " clients";
      EXPECT_LE(r.utilization.back(), 1 + 1e-12);
      EXPECT_NEAR(r.cycle_ms, 0.5 + r.residence_ms.back(), 1e-9);
    }
  }
  // Below c customers nobody queues: X = N / (D + Z); saturated: c / D.
  EXPECT_NEAR(SolveMva(4, {}, 0, {2.0, 8}).throughput_per_ms, 4 / 2.0, 1e-12);
  EXPECT_NEAR(SolveMva(400, {}, 0, {2.0, 8}).throughput_per_ms, 8 / 2.0, 1e-9);
  // Beside a queueing station: one customer spends D + D_k.
  EXPECT_NEAR(SolveMva(1, {3.0}, 0, {2.0, 8}).throughput_per_ms, 1 / 5.0, 1e-12);
  // A pacer network keeps the CPU a queue: X <= c / D even where the pacers allow more.
  EXPECT_NEAR(SolvePacedMva(400, {0.01}, 0, {2.0, 8}).throughput_per_ms, 8 / 2.0, 1e-6);
}

TEST(CpuStation, SelectOnlyDemandIsItsStatementsShare) {
  // The simulator's split: select-only runs SELECT accounts only (0.171 of cpu_ms),
  // tpcb-like all seven shares (1.0).
  const Scenario select = CachedSelectOnly(1, 8);
  EXPECT_NEAR(TransactionCpu(select, ParamsFromScenario(select)).demand_ms, 0.171 * 0.5, 1e-12);
  Scenario tpcb = select;
  tpcb.workload.type = WorkloadKind::kTpcbLike;
  EXPECT_NEAR(TransactionCpu(tpcb, ParamsFromScenario(tpcb)).demand_ms, 0.5, 1e-12);
}

TEST(CpuStation, CpuBoundClosedSystemMeetsTheMvaBound) {
  // N clients, c cores, demand D, no think time: X <= min(N / D, c / D), X -> c / D.
  for (int cores : {1, 2, 8}) {
    for (int clients : {1, 2, 4, 8, 16, 64, 256}) {
      const Scenario s = CachedSelectOnly(clients, cores);
      const double d_ms = TransactionCpu(s, ParamsFromScenario(s)).demand_ms;
      const Prediction p = MustPredict(s);
      const double bound_tps = 1000 * std::min(clients / d_ms, cores / d_ms);
      EXPECT_LT(p.reads_per_transaction, 1e-3);
      EXPECT_LE(p.tps, bound_tps * (1 + 1e-9)) << cores << " cores, " << clients << " clients";
      // Fewer clients than cores: nobody waits for a core.
      if (clients <= cores) {
        EXPECT_NEAR(p.tps, 1000 * clients / d_ms, 1e-6 * p.tps);
      }
      if (clients >= 8 * cores) {
        EXPECT_GE(p.tps, 0.95 * bound_tps) << cores << " cores, " << clients << " clients";
      }
      EXPECT_LE(CpuUtilization(p), 1 + 1e-9);
      EXPECT_EQ(p.regime, "cpu-bound") << cores << " cores, " << clients << " clients";
    }
  }
}

TEST(CpuStation, SelectOnlyInCacheScalesWithCores) {
  const Prediction two = MustPredict(CachedSelectOnly(64, 2));
  const Prediction eight = MustPredict(CachedSelectOnly(64, 8));
  EXPECT_NEAR(CpuUtilization(two), 1.0, 0.01);
  EXPECT_GT(CpuUtilization(eight), 0.9);
  EXPECT_GT(eight.tps / two.tps, 3.6);
  EXPECT_LE(eight.tps / two.tps, 4.0 + 1e-9);
}

TEST(CpuStation, UtilisationNeverAboveOne) {
  for (const char* type : {"tpcb-like", "simple-update", "select-only"}) {
    for (const char* cpu_ms : {"0.6", "5", "25"}) {
      for (int cores : {1, 4, 16}) {
        for (int clients : {1, 16, 256}) {
          auto s = LoadScenario(
              std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml",
              {std::string("workload.type=") + type, std::string("calibration.cpu_ms=") + cpu_ms,
               "host.cpu_cores=" + std::to_string(cores),
               "workload.clients=" + std::to_string(clients)});
          ASSERT_TRUE(s.ok()) << s.status().message();
          const Prediction p = MustPredict(*s);
          for (const DeviceLoad& d : p.devices) {
            EXPECT_LE(d.utilization, 1 + 1e-6) << d.name << " " << type << " cpu_ms " << cpu_ms
                                               << " cores " << cores << " clients " << clients;
          }
        }
      }
    }
  }
}

TEST(CpuStation, CpuBoundOnlyWhenTheCpuIsTheBusiestStation) {
  // The seed server's random TPC-B at scale 2000 is bound by its disks; the same on one
  // core with 25 ms of CPU per transaction is bound by the CPU.
  const std::string seed = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";
  auto disk = LoadScenario(seed);
  auto cpu = LoadScenario(seed, {"host.cpu_cores=1", "calibration.cpu_ms=25"});
  ASSERT_TRUE(disk.ok() && cpu.ok());
  EXPECT_NE(MustPredict(*disk).regime, "cpu-bound");
  const Prediction p = MustPredict(*cpu);
  EXPECT_EQ(p.regime, "cpu-bound");
  EXPECT_LE(p.tps, 1000 / 25.0 * (1 + 1e-9));
}

TEST(CpuStation, StatementLatenciesAddUpToTheCycle) {
  // Closed loop without think time: N / X = the transaction's latency, CPU queue included.
  const Prediction p = MustPredict(CachedSelectOnly(64, 2));
  EXPECT_NEAR(64 * 1000 / p.tps, p.transaction_latency_ms, 1e-3 * p.transaction_latency_ms);
  ASSERT_EQ(p.statement_latency_ms.size(), 1u);
  EXPECT_EQ(p.statement_latency_ms.begin()->first, "SELECT accounts");
}

TEST(CpuStation, OpenLoopRateIsRefusedNamingTheKey) {
  auto s = DefaultScenario({"workload.rate=100"});
  ASSERT_TRUE(s.ok());
  auto p = Predict(*s);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("workload.rate"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
