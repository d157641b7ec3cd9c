// Every committed fuzz input (tests/fuzz/corpus/<target>/, the seeds and what fuzzing
// found worth keeping, crash reproducers included) runs through its fuzz target in the
// ordinary build, so a regression shows without clang or libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz/fuzz_targets.h"

namespace pgstorsim::fuzz {
namespace {

TEST(FuzzCorpusTest, EveryCommittedInputPassesItsTarget) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(PGSTORSIM_SOURCE_DIR) / "tests/fuzz/corpus";
  for (const FuzzTarget& t : AllFuzzTargets()) {
    const fs::path dir = root / t.name;
    ASSERT_TRUE(fs::is_directory(dir)) << dir << " missing: every target has a corpus";
    int inputs = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
      std::ifstream in(entry.path(), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      SCOPED_TRACE(entry.path().string());
      EXPECT_EQ(t.fn(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
      ++inputs;
    }
    EXPECT_GT(inputs, 0) << dir << " is empty";
  }
}

}  // namespace
}  // namespace pgstorsim::fuzz
