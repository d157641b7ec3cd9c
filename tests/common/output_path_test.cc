#include "common/output_path.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "common/results.h"

namespace pgstorsim {
namespace {

class OutputPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pgstorsim-output-path-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::string Touch(const std::string& name) {
    std::ofstream(dir_ + "/" + name) << "x";
    return dir_ + "/" + name;
  }
  std::string dir_;
};

TEST_F(OutputPathTest, NewFileIsAllowed) {
  EXPECT_TRUE(CheckOutputPath("--out", dir_ + "/new.json", {}, false).ok());
}

TEST_F(OutputPathTest, ExistingFileNeedsForce) {
  const std::string f = Touch("old.json");
  Status s = CheckOutputPath("--out", f, {}, false);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--out " + f + " exists; add --force"), std::string::npos);
  EXPECT_TRUE(CheckOutputPath("--out", f, {}, true).ok());
}

TEST_F(OutputPathTest, AnInputIsNeverReplacedEvenWithForce) {
  const std::string f = Touch("trace.bin");
  const std::string other_spelling = dir_ + "/./trace.bin";
  Status s = CheckOutputPath("--out", other_spelling, {f}, true);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is also an input"), std::string::npos);
}

TEST_F(OutputPathTest, AnInputNotYetWrittenIsComparedByPath) {
  Status s = CheckOutputPath("--out", dir_ + "/a/../k.log", {dir_ + "/k.log"}, true);
  EXPECT_FALSE(s.ok());
}

TEST_F(OutputPathTest, DirectoryIsRefusedAndDevNullAllowed) {
  EXPECT_FALSE(CheckOutputPath("--out", dir_, {}, true).ok());
  EXPECT_TRUE(CheckOutputPath("--out", "/dev/null", {}, false).ok());
}

TEST(DefaultResultsPathTest, NamesInOneSecondNeverCollide) {
  std::set<std::string> names;
  for (int i = 0; i < 50; ++i) names.insert(DefaultResultsPath("run"));
  EXPECT_EQ(names.size(), 50u);
  EXPECT_NE(names.begin()->find("-" + std::to_string(::getpid())), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
