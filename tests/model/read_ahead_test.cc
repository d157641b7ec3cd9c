// Read-ahead in the analytic model, the simulator's mechanism: controller read-ahead
// "always" reads each missed block on to the end of its stripe unit (more transfer,
// the same commands); "adaptive" and OS read-ahead need sequential reads, which random
// pgbench pages never are, so they leave random workloads flat.
#include <gtest/gtest.h>

#include "model/access_geometry.h"
#include "model/storage_model.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

Scenario Base(const std::vector<std::string>& sets) {
  return testing_util::M5110eScenario(sets);
}

double Tps(const std::vector<std::string>& sets) {
  auto p = Predict(Base(sets));
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? p->tps : 0;
}

double ReadBytes(const std::vector<std::string>& sets) {
  auto g = ComputeAccessGeometry(Base(sets));
  EXPECT_TRUE(g.ok()) << g.status().message();
  double bytes = 0;
  for (const MemberWork& w : g->members) bytes += w.read_bytes;
  return bytes;
}

TEST(ReadAhead, AlwaysReadsToTheEndOfTheStripeUnit) {
  // 64 KiB blocks on an aligned 1 MiB stripe: a block ends on average half a unit
  // minus half a block before its unit's end; "always" reads that much more.
  const std::vector<std::string> aligned = {"array.stripe=1MiB", "filesystem.partition_offset=1MiB"};
  std::vector<std::string> always = aligned, adaptive = aligned, hba = aligned;
  always.push_back("controller.read_ahead=always");
  adaptive.push_back("controller.read_ahead=adaptive");
  hba.push_back("controller.read_ahead=always");
  hba.push_back("controller.kind=hba");
  EXPECT_NEAR(ReadBytes(adaptive), 65536, 1e-6);
  EXPECT_NEAR(ReadBytes(always), 65536 + (1048576 - 65536) / 2.0, 1e-6);
  EXPECT_NEAR(ReadBytes(hba), 65536, 1e-6);  // An HBA reads nothing ahead.
  EXPECT_LT(Tps(always), 0.9 * Tps(adaptive));
}

TEST(ReadAhead, RandomPagesAreFlatInAdaptiveAndOsReadAhead) {
  for (const char* stripe : {"array.stripe=32k", "array.stripe=1MiB"}) {
    for (const char* cache : {"workload.cache=warm", "workload.cache=cold"}) {
      SCOPED_TRACE(std::string(stripe) + " " + cache);
      const double none = Tps({stripe, cache, "controller.read_ahead=none"});
      EXPECT_DOUBLE_EQ(Tps({stripe, cache, "controller.read_ahead=adaptive"}), none);
      EXPECT_DOUBLE_EQ(Tps({stripe, cache, "filesystem.os_readahead=0"}),
                       Tps({stripe, cache, "filesystem.os_readahead=2MiB"}));
    }
  }
}

}  // namespace
}  // namespace pgstorsim
