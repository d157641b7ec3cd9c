// Helpers of the model tests: a scenario from overrides and its prediction. An error
// fails the calling test (gtest EXPECT) and returns an empty value; nothing crashes.
#ifndef PGSTORSIM_TESTS_MODEL_MODEL_TEST_UTIL_H_
#define PGSTORSIM_TESTS_MODEL_MODEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// The default scenario with `overrides` ("key=value") applied.
inline Scenario MustScenario(const std::vector<std::string>& overrides) {
  auto s = DefaultScenario(overrides);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

inline Prediction MustPredict(const Scenario& s) {
  auto p = Predict(s);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : Prediction{};
}

inline Prediction MustPredict(const std::vector<std::string>& overrides) {
  return MustPredict(MustScenario(overrides));
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_MODEL_MODEL_TEST_UTIL_H_
