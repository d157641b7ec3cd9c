#include "model/model_error.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/file_util.h"
#include "model/leave_one_out.h"

namespace pgstorsim {
namespace {

const std::string kRoot = PGSTORSIM_SOURCE_DIR;

std::vector<ModelErrorRow> FileRows() {
  auto text = ReadFile(kRoot + "/results/validation/model-error.tsv");
  EXPECT_TRUE(text.ok());
  auto rows = ParseModelErrorTsv(text.ok() ? *text : "", "model-error.tsv");
  EXPECT_TRUE(rows.ok()) << rows.status().message();
  return rows.ok() ? *rows : std::vector<ModelErrorRow>{};
}

// The target: the band built without a row (its class's conformal 80 %
// quantile over the other rows) covers that row's measured tps on >= 80 % of rows.
TEST(ModelError, LeaveOneOutBandCoversAtLeastEightyPercentOfValidationRows) {
  const std::vector<ModelErrorRow> rows = FileRows();
  ASSERT_GE(rows.size(), 20u);
  int covered = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ModelError e = ModelErrorOf(rows, rows[i].error_class, static_cast<int>(i));
    if (std::fabs(rows[i].relative_error()) <= e.band_fraction) ++covered;
  }
  EXPECT_GE(covered, static_cast<int>(std::ceil(0.8 * rows.size())))
      << covered << " of " << rows.size();
}

TEST(ModelError, CompiledTableIsTheFile) {
  const std::vector<ModelErrorRow> rows = FileRows();
  ASSERT_EQ(ModelErrorRows().size(), rows.size());
  const ModelError pooled = PooledModelError();
  EXPECT_EQ(pooled.error_class, "all");
  EXPECT_GT(pooled.band_fraction, 0);
  EXPECT_GT(pooled.rms_fraction, 0);
  // A class with too few rows falls back to all of them.
  EXPECT_EQ(ModelErrorFor("ssd read-bound").error_class, "all");
}

// The table is what the current model predicts: regenerate with `pgstorsim validate
// --scenario results/validation/m5110e-calibrated.toml --model-error-out
// results/validation/model-error.tsv`.
TEST(ModelError, TableIsCurrent) {
  auto calibrated = LoadScenario(kRoot + "/results/validation/m5110e-calibrated.toml");
  ASSERT_TRUE(calibrated.ok());
  auto rows = LoadValidationRows(kRoot + "/" + kM5110eRowsPath);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  auto field = FieldLeaveOneOut(*calibrated, *rows);
  ASSERT_TRUE(field.ok()) << field.status().message();
  auto lab = LabLeaveOneOut(kRoot + "/results/validation/lab-matrix-measured.tsv",
                            kRoot + "/results/validation/lab-matrix-scenarios");
  ASSERT_TRUE(lab.ok()) << lab.status().message();
  std::vector<ModelErrorRow> now = *field;
  now.insert(now.end(), lab->begin(), lab->end());
  const std::vector<ModelErrorRow> file = FileRows();
  ASSERT_EQ(now.size(), file.size());
  for (size_t i = 0; i < now.size(); ++i) {
    EXPECT_EQ(now[i].row, file[i].row);
    EXPECT_EQ(now[i].error_class, file[i].error_class) << now[i].row;
    EXPECT_NEAR(now[i].predicted_tps, file[i].predicted_tps, 1e-3 * file[i].predicted_tps)
        << now[i].row;
  }
}

TEST(ModelError, BadTableLinesNameTheLine) {
  auto rows = ParseModelErrorTsv("table\trow\tclass\tm\tp\n# c\nx\ty\tz\tnot\t3\n", "f.tsv");
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("f.tsv:3"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
