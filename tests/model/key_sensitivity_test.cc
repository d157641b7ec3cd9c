// Every scenario key is used by predict, refused by it, or declared unused: each row of
// tests/data/predict_key_sensitivity.tsv sets one key off its base value and checks that
// predict's answer moves (or that the scenario is refused), and every key of the format
// has a row or is in key_coverage.h's list of keys predict answers as for their default.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "model/storage_model.h"
#include "scenario/key_coverage.h"
#include "scenario/scenario.h"
#include "support/tsv_table.h"

namespace pgstorsim {
namespace {

using testing_support::ReadTsvTable;
using testing_support::SplitTsvFields;
using testing_support::TsvRow;

const char kTable[] = "tests/data/predict_key_sensitivity.tsv";
const std::string kBase = std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml";

std::vector<std::string> Overrides(const std::string& base) {
  if (base == "-" || base.empty()) return {};
  return SplitTsvFields(base, ';');
}

// Relative change of `b` from `a`, 0 when both are 0.
double Moved(double a, double b) {
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0 ? std::fabs(b - a) / scale : 0;
}

TEST(KeySensitivity, EveryKeyMovesPredictOrIsRefusedOrDeclaredUnused) {
  const std::vector<TsvRow> rows = ReadTsvTable(kTable);
  ASSERT_GE(rows.size(), 60u) << kTable;
  for (const TsvRow& row : rows) {
    const std::string& key = row.at("key");
    const std::string& expect = row.at("expect");
    SCOPED_TRACE(key + "=" + row.at("value") + " on " + row.at("base"));
    if (expect.rfind("unused:", 0) == 0) continue;
    const std::vector<std::string> base = Overrides(row.at("base"));
    std::vector<std::string> changed = base;
    changed.push_back(key + "=" + row.at("value"));
    auto s0 = LoadScenario(kBase, base);
    ASSERT_TRUE(s0.ok()) << s0.status().message();
    auto p0 = Predict(*s0);
    ASSERT_TRUE(p0.ok()) << p0.status().message();
    auto s1 = LoadScenario(kBase, changed);
    if (expect == "refused") {
      EXPECT_FALSE(s1.ok() && Predict(*s1).ok());
      continue;
    }
    ASSERT_EQ(expect, "changes");
    ASSERT_TRUE(s1.ok()) << s1.status().message();
    auto p1 = Predict(*s1);
    ASSERT_TRUE(p1.ok()) << p1.status().message();
    const double moved = std::max({Moved(p0->tps, p1->tps),
                                   Moved(p0->transaction_latency_ms, p1->transaction_latency_ms),
                                   Moved(p0->bytes_per_s, p1->bytes_per_s)});
    EXPECT_GT(moved, 1e-3) << "tps " << p0->tps << " -> " << p1->tps;
  }
}

TEST(KeySensitivity, EveryKeyHasARowOrIsListedAsUnused) {
  std::set<std::string> covered;
  for (const TsvRow& row : ReadTsvTable(kTable)) covered.insert(row.at("key"));
  for (const std::string& k : KeysIgnoredBy(ScenarioModel::kPredict)) covered.insert(k);
  for (const ScenarioKeyInfo& k : ScenarioKeys()) EXPECT_TRUE(covered.count(k.key)) << k.key;
}

}  // namespace
}  // namespace pgstorsim
