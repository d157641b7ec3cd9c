#include "pg/process.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(RunProcessTest, CapturesOutputAndExitCode) {
  auto r = RunProcess({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->output, "out\nerr\n");
}

TEST(RunProcessTest, StdinIsDevNull) {
  auto r = RunProcess({"sh", "-c", "cat; echo done"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "done\n");
}

TEST(RunProcessTest, MissingProgramIsAnError) {
  auto r = RunProcess({"/nonexistent/program-xyz"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("program-xyz"), std::string::npos);
}

TEST(RunProcessTest, PipeDescriptorIsNotInherited) {
  // The capture pipe may reach the child only as its stdout and stderr: a third copy
  // (the pipe's original descriptor) would be inherited by daemons the child starts
  // (pg_ctl start) and RunProcess would never see end-of-file.
  auto r = RunProcess({"sh", "-c",
                       "t=$(readlink /proc/$$/fd/1); n=0; for f in /proc/$$/fd/*; do "
                       "[ \"$(readlink $f)\" = \"$t\" ] && n=$((n+1)); done; echo $n"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->output, "2\n");
}

}  // namespace
}  // namespace pgstorsim
