// The server options every connecting command shares: pgbench's spellings, -h as the
// host (never help), and a positional database name that must agree with -d.
#include "cli/server_flags.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pgstorsim {
namespace {

struct Parsed {
  ServerFlags flags;
  std::string positional;
  bool help = false;
};

Parsed Parse(std::vector<std::string> args) {
  Parsed p;
  CLI::App app("test");
  AddServerFlags(&app, &p.flags, &p.positional);
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector.
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    p.help = true;
  }
  return p;
}

TEST(ServerFlags, SpelledAsPgbenchSpellsThem) {
  const Parsed p = Parse(
      {"--db", "sslmode=disable", "-h", "localhost", "-p", "5433", "-U", "alice", "-d", "bench"});
  EXPECT_FALSE(p.help);
  EXPECT_EQ(p.flags.db, "sslmode=disable");
  EXPECT_EQ(p.flags.host, "localhost");
  EXPECT_EQ(p.flags.port, "5433");
  EXPECT_EQ(p.flags.user, "alice");
  EXPECT_EQ(p.flags.dbname, "bench");
  EXPECT_TRUE(Parse({"--help"}).help);
}

TEST(ServerFlags, APositionalDatabaseNameAgreesWithDashD) {
  Parsed alone = Parse({"-h", "db1", "bench"});
  ASSERT_TRUE(ApplyPositionalDbname(alone.positional, &alone.flags).ok());
  EXPECT_EQ(alone.flags.dbname, "bench");
  EXPECT_EQ(alone.flags.host, "db1");

  Parsed same = Parse({"-d", "bench", "bench"});
  ASSERT_TRUE(ApplyPositionalDbname(same.positional, &same.flags).ok());
  EXPECT_EQ(same.flags.dbname, "bench");

  Parsed none = Parse({"-d", "bench"});
  ASSERT_TRUE(ApplyPositionalDbname(none.positional, &none.flags).ok());
  EXPECT_EQ(none.flags.dbname, "bench");

  Parsed other = Parse({"-d", "bench", "prod"});
  const Status s = ApplyPositionalDbname(other.positional, &other.flags);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "-d bench and the database name prod disagree");
  EXPECT_EQ(other.flags.dbname, "bench");  // Left as given.
}

}  // namespace
}  // namespace pgstorsim
