// The simulator's CPU: FCFS over cpu_cores cores, utilisation counted up to the run's
// end (never above 1, even when the queued work runs far past it).
#include <gtest/gtest.h>

#include "common/units.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"

namespace pgstorsim::sim {
namespace {

TEST(SimCpu, UtilisationNeverExceedsOneWhenWorkRunsPastTheEnd) {
  SimConfig c;
  c.host.workload = WorkloadKind::kSelectOnly;
  c.host.scale = 1;
  SetCacheSizes(256LL << 20, 2816LL << 20, &c);  // 4 GiB of RAM, 1 GiB kept by the OS.
  c.clients = 64;
  c.cpu_cores = 2;
  c.duration_ns = 1 * kNsPerSec;
  c.client_rtt_ns = 0;
  // 50 ms per select: 64 clients queue 1.6 s of work on two cores, past the 1 s run.
  c.cpu_ns[static_cast<int>(Statement::kSelectAccounts)] = 50 * kNsPerMs;
  auto out = RunSimulation(c);
  ASSERT_TRUE(out.ok()) << out.status().message();
  const double u = out->results.sections["cpu"]["utilization"].get<double>();
  EXPECT_LE(u, 1.0 + 1e-12);
  EXPECT_GT(u, 0.99);
  // Two cores at 50 ms: 40 selects per second at most.
  EXPECT_LE(out->results.tps, 40.0 + 1e-9);
  EXPECT_GE(out->results.tps, 38.0);
}

}  // namespace
}  // namespace pgstorsim::sim
