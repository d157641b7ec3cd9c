// libpq loaded on first use: calls reach the library with their arguments, commands
// that never connect never load it, a connecting command does, and one that cannot
// load it says so in one line.
#include "pg/libpq_loader.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <string>

#include "support/shell.h"

namespace pgstorsim {
namespace {

TEST(LibpqLoader, LoadsTheLibraryAndForwardsArguments) {
  ASSERT_TRUE(LoadLibpq().ok()) << LoadLibpq().message();
  EXPECT_GE(PQlibVersion(), 100000);
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse("host=db.example port=6543", &error);
  ASSERT_NE(options, nullptr) << (error != nullptr ? error : "");
  std::string host, port;
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr) continue;
    if (std::string(o->keyword) == "host") host = o->val;
    if (std::string(o->keyword) == "port") port = o->val;
  }
  PQconninfoFree(options);
  EXPECT_EQ(host, "db.example");
  EXPECT_EQ(port, "6543");
  EXPECT_EQ(PQconninfoParse("no equals sign", &error), nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_FALSE(std::string(error).empty());
  PQfreemem(error);
}

// The dynamic loader's own account (LD_DEBUG=files) of the objects a command loads.
std::string LoadedObjects(const std::string& args) {
  return RunShell("cd " + ::testing::TempDir() + " && LD_DEBUG=files " +
                  std::string(PGSTORSIM_BINARY) + " " + args)
      .output;
}

TEST(LibpqLoader, PredictNeverLoadsLibpq) {
  const std::string log = LoadedObjects("predict --scenario " + std::string(PGSTORSIM_SOURCE_DIR) +
                                        "/scenarios/m5110e.toml");
  if (log.find("file=libstdc++") == std::string::npos) {
    GTEST_SKIP() << "the dynamic loader ignores LD_DEBUG here";
  }
  EXPECT_NE(log.find("tps = "), std::string::npos) << log.substr(0, 2000);
  EXPECT_EQ(log.find("libpq"), std::string::npos) << log.substr(0, 2000);
}

TEST(LibpqLoader, AConnectingCommandLoadsLibpqWhenItConnects) {
  const std::string log = LoadedObjects("run --db 'host=/nonexistent-dir port=1' -T 1");
  if (log.find("file=libstdc++") == std::string::npos) {
    GTEST_SKIP() << "the dynamic loader ignores LD_DEBUG here";
  }
  EXPECT_NE(log.find(std::string("file=") + kLibpqSoname), std::string::npos)
      << log.substr(0, 2000);
  EXPECT_NE(log.find("cannot connect"), std::string::npos) << log.substr(0, 2000);
}

// A libpq.so.5 the dynamic loader cannot use (an empty file found first through
// LD_LIBRARY_PATH): a connecting command says so in one line and exits 1; predict runs.
TEST(LibpqLoader, AnUnloadableLibraryIsOneErrorLine) {
  const std::string dir = ::testing::TempDir() + "/unloadable_libpq_" + std::to_string(getpid());
  ASSERT_EQ(RunShell("mkdir -p " + dir + " && : > " + dir + "/" + kLibpqSoname).exit_code, 0);
  const std::string env = "LD_LIBRARY_PATH=" + dir + " ";
  const ShellResult run =
      RunShell(env + PGSTORSIM_BINARY + " run --db 'host=/nonexistent-dir port=1' -T 1");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(run.output.rfind("pgstorsim run: cannot load libpq.so.5", 0), 0u) << run.output;
  EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << run.output;
  const ShellResult predict = RunShell(env + PGSTORSIM_BINARY + " predict --scenario " +
                                       PGSTORSIM_SOURCE_DIR + "/scenarios/m5110e.toml");
  EXPECT_EQ(predict.exit_code, 0) << predict.output;
  RunShell("rm -rf " + dir);
}

}  // namespace
}  // namespace pgstorsim
