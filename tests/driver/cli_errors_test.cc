// User errors of init/run: one line on stderr naming the problem, non-zero exit,
// never a password. None of these reach a server.
#include <gtest/gtest.h>

#include <algorithm>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;

int Lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(CliErrorsTest, BadRunOptionsAreOneLineNamingTheOption) {
  struct Case {
    std::vector<std::string> args;
    const char* expected;
  } cases[] = {
      {{"run", "--clients", "0", "--db", "host=/nonexistent"}, "--clients"},
      {{"run", "-c", "2", "-j", "4", "--db", "host=/nonexistent"}, "--threads"},
      {{"run", "--workload", "tpcc", "--db", "host=/nonexistent"}, "--workload"},
      {{"run", "--cache", "hot", "--db", "host=/nonexistent"}, "--cache"},
      {{"run", "-T", "soon", "--db", "host=/nonexistent"}, "--duration"},
  };
  for (const Case& c : cases) {
    auto r = RunPgstorsim(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.output;  // Usage.
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << r.output;
    EXPECT_EQ(Lines(r.output), 1) << r.output;
  }
}

TEST(CliErrorsTest, PgbenchFlagsAreServerOptionsNotHelp) {
  // -h is the host (pgbench's meaning): no help text, exit 0 would hide the mistake.
  auto host = RunPgstorsim(
      {"run", "-h", "/nonexistent-socket-dir", "-p", "1", "-U", "u", "-T", "1", "bank"});
  EXPECT_EQ(host.exit_code, 1) << host.output;
  EXPECT_NE(host.output.find("cannot connect to 'user=u dbname=bank host=/nonexistent-socket-dir "
                             "port=1'"),
            std::string::npos)
      << host.output;
  auto bogus = RunPgstorsim({"run", "--bogus"});
  EXPECT_NE(bogus.exit_code, 0);
  auto missing = RunPgstorsim({"run", "-h"});
  EXPECT_NE(missing.exit_code, 0);
  auto help = RunPgstorsim({"run", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--aggregate-interval"), std::string::npos);
}

TEST(CliErrorsTest, EveryConnectingCommandTakesTheSameServerOptions) {
  // init, run and probe: -h -p -U and a positional database name reach libpq, and a
  // positional name that -d contradicts is a usage error naming both.
  const std::string out = ::testing::TempDir() + "/server-options-probe.toml";
  for (const char* cmd : {"init", "run", "probe"}) {
    std::vector<std::string> args = {cmd, "-h", "/nonexistent-socket-dir", "-p", "1", "-U", "u"};
    if (std::string(cmd) == "probe") args.insert(args.end(), {"--out", out});
    auto reach = args;
    reach.push_back("bank");
    auto r = RunPgstorsim(reach);
    EXPECT_EQ(r.exit_code, 1) << cmd << ": " << r.output;
    EXPECT_NE(r.output.find("cannot connect to 'user=u dbname=bank host=/nonexistent-socket-dir "
                            "port=1'"),
              std::string::npos)
        << cmd << ": " << r.output;
    auto clash = args;
    clash.insert(clash.end(), {"-d", "bench", "prod"});
    auto c = RunPgstorsim(clash);
    EXPECT_EQ(c.exit_code, 2) << cmd << ": " << c.output;
    EXPECT_NE(c.output.find("-d bench and the database name prod disagree"), std::string::npos)
        << cmd << ": " << c.output;
    EXPECT_EQ(Lines(c.output), 1) << cmd << ": " << c.output;
  }
}

TEST(CliErrorsTest, ColdOnAServerNotManagedNeedsACommand) {
  auto r = RunPgstorsim({"run", "--cache", "cold", "--db", "host=/nonexistent-socket-dir"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("--cache cold: this server is not managed by pgstorsim"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(Lines(r.output), 1) << r.output;
  auto stray = RunPgstorsim({"run", "--cold-command", "true", "--db", "host=/nonexistent"});
  EXPECT_NE(stray.output.find("--cold-command needs --cache cold"), std::string::npos);
}

TEST(CliErrorsTest, UnreachableServerIsOneLineWithoutPassword) {
  for (const char* cmd : {"init", "run"}) {
    auto r = RunPgstorsim(
        {cmd, "--db", "host=/nonexistent-socket-dir port=1 password=hunter2 connect_timeout=2"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("cannot connect"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("hunter2"), std::string::npos) << r.output;
    EXPECT_EQ(Lines(r.output), 1) << r.output;
  }
  auto uri = RunPgstorsim({"run", "--db", "postgresql://bob:hunter2@/db?host=/nonexistent&port=1"});
  EXPECT_EQ(uri.exit_code, 1);
  EXPECT_EQ(uri.output.find("hunter2"), std::string::npos) << uri.output;
}

TEST(CliErrorsTest, ClosedTcpPortIsOneLineWithoutPassword) {
  for (const char* cmd : {"init", "run"}) {
    auto r =
        RunPgstorsim({cmd, "--db", "host=127.0.0.1 port=1 password=hunter2 connect_timeout=2"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("cannot connect"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("refused"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("hunter2"), std::string::npos) << r.output;
    EXPECT_EQ(Lines(r.output), 1) << r.output;
    EXPECT_EQ(r.output.find('\t'), std::string::npos) << r.output;  // libpq's "\n\t".
    EXPECT_EQ(r.output.find("  "), std::string::npos) << r.output;
  }
}

TEST(CliErrorsTest, BadInitOptions) {
  auto r = RunPgstorsim({"init", "--fillfactor", "5", "--db", "host=/nonexistent"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--fillfactor"), std::string::npos) << r.output;
}

// CLI11's parse errors come out as one line with the command prefix and the range in
// words (not a 309-digit number), no "Run with --help" line, and exit code 2.
TEST(CliErrorsTest, ParseErrorsAreOneLineWithCommandRangeInWordsAndExit2) {
  struct Case {
    std::vector<std::string> args;
    const char* expected;
  } cases[] = {
      {{"run", "--clients", "abc"}, "pgstorsim run: "},
      {{"run", "--bogus"}, "pgstorsim run: "},
      {{"trace", "--scale", "0", "--out", "/dev/null"}, "must be at least 1 (got 0)"},
      {{"trace", "--scale", "1", "--fillfactor", "5", "--out", "/dev/null"},
       "must be between 10 and 100 (got 5)"},
      {{"trace", "--scale", "1", "--rate", "0", "--out", "/dev/null"},
       "must be more than 0 (got 0)"},
      {{"trace", "--scale", "1", "--cache", "hot", "--out", "/dev/null"},
       "must be one of cold, warm, pg-prewarm (got 'hot')"},
      {{"replay", "--pattern", "randrw", "--target", "/dev/null", "--read-fraction", "2"},
       "pgstorsim replay: --read-fraction: must be between 0 and 1 (got 2)"},
      {{"cluster", "nonsense"}, "pgstorsim cluster: "},
      {{"trace"}, "pgstorsim trace: --out is required"},
  };
  for (const Case& c : cases) {
    auto r = RunPgstorsim(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << r.output;
    EXPECT_EQ(r.output.rfind("pgstorsim ", 0), 0u) << r.output;
    EXPECT_EQ(Lines(r.output), 1) << r.output;
    EXPECT_LT(r.output.size(), 200u) << r.output;
  }
  auto help = RunPgstorsim({"run", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--clients"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
