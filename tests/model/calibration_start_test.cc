// Calibration that starts where the objective is flat: a throttled disk whose IOPS cap
// binds at the scenario's CPU cost, so tps does not move with cpu_ms there.
#include <gtest/gtest.h>

#include "model/calibration.h"
#include "model/storage_model.h"

namespace pgstorsim {
namespace {

constexpr double kTrueCpuMs = 3.0;

StatusOr<Scenario> OneClientLabScenario() {
  auto loaded = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) +
                             "/results/validation/lab-matrix-scenarios/lab-600-s5.toml");
  if (!loaded.ok()) return loaded.status();
  Scenario s = *loaded;
  for (const char* set : {"workload.clients=1", "workload.cache=warm"}) {
    Status st = ApplyOverride(&s, set);
    if (!st.ok()) return st;
  }
  return s;
}

TEST(CalibrationStart, LeavesAFlatStartWhereTheCapBindsAndRecoversCpu) {
  auto base = OneClientLabScenario();
  ASSERT_TRUE(base.ok()) << base.status().message();
  const ModelParams start = ParamsFromScenario(*base);
  auto at_start = PredictWith(*base, start);
  ASSERT_TRUE(at_start.ok());
  // The premise: at the starting cpu_ms the 600-IOPS write cap holds tps, so a small
  // change of cpu_ms does not change tps (the flat region).
  ModelParams nudged = start;
  nudged.cpu_ms *= 1.05;
  auto at_nudged = PredictWith(*base, nudged);
  ASSERT_TRUE(at_nudged.ok());
  ASSERT_DOUBLE_EQ(at_start->tps, at_nudged->tps);

  ModelParams truth = start;
  truth.cpu_ms = kTrueCpuMs;
  auto p = PredictWith(*base, truth);
  ASSERT_TRUE(p.ok());
  ASSERT_LT(p->tps, at_start->tps * 0.95);  // Off the cap at the true CPU cost.
  Measured m;
  m.source = "synthetic lab run";
  m.tps = p->tps;  // Only tps, as scripts/lab/lab-predict.sh calibrates.
  auto report = Calibrate(*base, {{m, {}}}, {"cpu_ms"});
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_NEAR(report->values[0], kTrueCpuMs, 0.01);
  EXPECT_LT(report->rms_relative_error, 1e-3);
}

}  // namespace
}  // namespace pgstorsim
