// The model's parameter names come from the shared [calibration] table
// (scenario/calibration_keys.h) and each is bound to one ModelParams field.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/storage_model.h"
#include "scenario/calibration_keys.h"

namespace pgstorsim {
namespace {

TEST(ModelParamsTest, NamesAreTheTablesModelKeysInOrder) {
  std::vector<std::string> model_keys;
  for (const CalibrationKey& key : CalibrationKeys()) {
    if (key.model) model_keys.push_back(key.name);
  }
  EXPECT_EQ(ModelParamNames(), model_keys);
  // Every field of ModelParams (all doubles) has a name.
  EXPECT_EQ(sizeof(ModelParams), model_keys.size() * sizeof(double));
}

TEST(ModelParamsTest, EachNameSetsAndGetsItsOwnField) {
  std::set<double> seen;
  ModelParams p;
  double value = 100;
  for (const std::string& name : ModelParamNames()) {
    SetParam(&p, name, ++value);
    EXPECT_EQ(GetParam(p, name), value) << name;
  }
  // Distinct fields: every value set is still there.
  for (const std::string& name : ModelParamNames()) seen.insert(GetParam(p, name));
  EXPECT_EQ(seen.size(), ModelParamNames().size());
}

TEST(ModelParamsTest, FitBoundsHoldTheDefaults) {
  const ModelParams defaults;
  for (const std::string& name : ModelParamNames()) {
    const CalibrationKey* key = FindCalibrationKey(name);
    ASSERT_NE(key, nullptr) << name;
    EXPECT_LT(key->fit_lower, key->fit_upper) << name;
    if (name == "whole_block_reads") continue;    // 0 = off, below any fitted value.
    if (name == "destage_position_ms") continue;  // 0 = from destage_queue_depth.
    EXPECT_GE(GetParam(defaults, name), key->fit_lower) << name;
    EXPECT_LE(GetParam(defaults, name), key->fit_upper) << name;
  }
}

TEST(ModelParamsTest, UnknownNamesAreIgnored) {
  ModelParams p;
  SetParam(&p, "cpu_ms_end", 9);  // A simulator-only key.
  EXPECT_EQ(GetParam(p, "cpu_ms_end"), 0);
  EXPECT_EQ(FindCalibrationKey("no_such_key"), nullptr);
}

}  // namespace
}  // namespace pgstorsim
