// simulate against predict where the CPU binds (select-only in cache, cores as
// servers) and with synchronous_commit on and off: the same scenario, both models.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common/units.h"
#include "model/cpu_demand.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"
#include "sim/run_simulation.h"

namespace pgstorsim::sim {
namespace {

struct Both {
  double sim_tps = 0, model_tps = 0, sim_cpu = 0, model_cpu = 0;
  std::string model_regime;
};

Scenario FromDefault(const std::vector<std::string>& sets) {
  auto s = DefaultScenario(sets);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario{};
}

Scenario FromFile(const std::string& file, const std::vector<std::string>& sets) {
  auto s = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/" + file, sets);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario{};
}

// Both models on `s` run for `duration_ns` (the host's demands depend on the run's
// length: pgmodel/demands.h).
Both RunBoth(Scenario s, int64_t duration_ns, const std::string& label) {
  s.workload.duration_ns = duration_ns;
  auto p = Predict(s);
  EXPECT_TRUE(p.ok()) << p.status().message();
  auto c = SimConfigFromScenario(s);
  EXPECT_TRUE(c.ok()) << c.status().message();
  if (!p.ok() || !c.ok()) return {};
  auto run = RunSimulation(*c);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return {};
  Both b;
  b.sim_tps = run->results.tps;
  b.sim_cpu = run->results.sections["cpu"]["utilization"].get<double>();
  b.model_tps = p->tps;
  b.model_regime = p->regime;
  for (const DeviceLoad& d : p->devices) {
    if (d.name == "cpu") b.model_cpu = d.utilization;
  }
  std::printf("agreement %s: sim %.1f tps (cpu %.2f), predict %.1f tps (cpu %.2f, %s), x%.3f\n",
              label.c_str(), b.sim_tps, b.sim_cpu, b.model_tps, b.model_cpu, b.model_regime.c_str(),
              b.sim_tps / b.model_tps);
  return b;
}

Scenario CachedSelectOnly(int clients, int cores) {
  return FromDefault({"workload.type=select-only", "workload.scale=10", "calibration.cpu_ms=0.5",
                      "workload.clients=" + std::to_string(clients),
                      "host.cpu_cores=" + std::to_string(cores)});
}

TEST(CpuAgreement, SelectOnlyInCacheIsCappedByCoresInBothModels) {
  for (int cores : {2, 8}) {
    const Scenario s = CachedSelectOnly(64, cores);
    const double bound_tps = 1000 * cores / TransactionCpu(s, ParamsFromScenario(s)).demand_ms;
    const Both b =
        RunBoth(s, 2 * kNsPerSec, "select-only 64 clients " + std::to_string(cores) + " cores");
    EXPECT_LE(b.sim_tps, bound_tps * 1.001);
    EXPECT_GE(b.sim_tps, bound_tps * 0.95);
    EXPECT_LE(b.sim_cpu, 1.0 + 1e-9);
    EXPECT_GT(b.sim_cpu, 0.95);
    EXPECT_LE(b.model_cpu, 1.0 + 1e-9);
    EXPECT_EQ(b.model_regime, "cpu-bound");
    EXPECT_NEAR(b.sim_tps / b.model_tps, 1, 0.05) << cores << " cores";
  }
}

TEST(CpuAgreement, ClosedSystemAroundSaturationInBothModels) {
  // N <= c: nobody waits for a core (X = N / D); N = 2c: some do.
  for (int clients : {1, 4, 8, 16}) {
    const Both b = RunBoth(CachedSelectOnly(clients, 8), 1 * kNsPerSec,
                           "select-only 8 cores " + std::to_string(clients) + " clients");
    EXPECT_NEAR(b.sim_tps / b.model_tps, 1, 0.05) << clients;
  }
}

TEST(CommitAgreement, SynchronousCommitOffAgreesInDirectionAndSize) {
  // TPC-B in cache. The lab's throttled device (150 write IOPS, WAL on it, two cores):
  // on, the commits' WAL flushes queue at the write cap; off, the WAL writer flushes
  // every 200 ms and the cores bind. The default HDD RAID 10 written through: on, each
  // commit waits for its WAL write (group commit); off, the cores bind.
  const std::string lab = "results/validation/lab-matrix-scenarios/lab-150-s5.toml";
  const std::vector<std::string> hdd = {"controller.write_policy=write-through",
                                        "workload.scale=10", "workload.clients=16",
                                        "calibration.cpu_ms=0.5"};
  for (bool throttled : {true, false}) {
    auto run = [&](const std::string& sync) {
      std::vector<std::string> sets =
          throttled ? std::vector<std::string>{"calibration.cpu_ms=0.5"} : hdd;
      sets.push_back("postgres.synchronous_commit=" + sync);
      const std::string label = (throttled ? "lab-150-s5 " : "hdd write-through ") + sync;
      return throttled ? RunBoth(FromFile(lab, sets), 60 * kNsPerSec, label)
                       : RunBoth(FromDefault(sets), 20 * kNsPerSec, label);
    };
    const Both on = run("on");
    const Both off = run("off");
    const double sim_gain = off.sim_tps / on.sim_tps, model_gain = off.model_tps / on.model_tps;
    std::printf("%s: synchronous_commit off/on: sim x%.2f, predict x%.2f\n",
                throttled ? "lab-150-s5" : "hdd write-through", sim_gain, model_gain);
    EXPECT_GT(sim_gain, 1.5);
    EXPECT_GT(model_gain, 1.5);
    EXPECT_NEAR(off.sim_tps / off.model_tps, 1, 0.10) << (throttled ? "lab" : "hdd");
  }
}

}  // namespace
}  // namespace pgstorsim::sim
