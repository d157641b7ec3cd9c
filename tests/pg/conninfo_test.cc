#include "pg/conninfo.h"

#include <gtest/gtest.h>

#include <map>

namespace pgstorsim {
namespace {

EnvLookup FakeEnv(std::map<std::string, std::string> vars) {
  return [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

TEST(RedactConninfoTest, KeyValuePassword) {
  EXPECT_EQ(RedactConninfo("host=db port=5432 password=s3cret user=bob"),
            "host=db port=5432 password=*** user=bob");
  EXPECT_EQ(RedactConninfo("password = 'a b\\' c' dbname=x"), "password = *** dbname=x");
  EXPECT_EQ(RedactConninfo("host=/tmp dbname=postgres"), "host=/tmp dbname=postgres");
}

TEST(RedactConninfoTest, QuotedValueContainingPasswordWordIsKept) {
  EXPECT_EQ(RedactConninfo("application_name='password=x' password=y"),
            "application_name='password=x' password=***");
}

TEST(RedactConninfoTest, UriUserPassword) {
  EXPECT_EQ(RedactConninfo("postgresql://alice:hunter2@db.example:5432/bank"),
            "postgresql://alice:***@db.example:5432/bank");
  EXPECT_EQ(RedactConninfo("postgres://alice@db/bank"), "postgres://alice@db/bank");
  EXPECT_EQ(RedactConninfo("postgresql://db/bank?user=a&password=zz&sslmode=off"),
            "postgresql://db/bank?user=a&password=***&sslmode=off");
}

TEST(RedactConninfoTest, NeverContainsSecret) {
  for (const char* c : {"password=topsecret", "postgresql://u:topsecret@h/d",
                        "postgresql://h/d?password=topsecret", "host=h  password='topsecret'"}) {
    EXPECT_EQ(RedactConninfo(c).find("topsecret"), std::string::npos) << c;
  }
}

TEST(ResolveConninfoTest, FlagWinsOverEnvironment) {
  auto c = ResolveConninfo("host=a", FakeEnv({{"PGSTORSIM_DB", "host=b"}, {"PGHOST", "c"}}));
  EXPECT_EQ(c.conninfo, "host=a");
  EXPECT_EQ(c.source, "--db");
  EXPECT_FALSE(c.embedded);
}

TEST(ResolveConninfoTest, PgstorsimDbThenLibpqEnvThenEmbedded) {
  auto a = ResolveConninfo("", FakeEnv({{"PGSTORSIM_DB", "host=b"}, {"PGHOST", "c"}}));
  EXPECT_EQ(a.conninfo, "host=b");
  EXPECT_EQ(a.source, "PGSTORSIM_DB");
  auto b = ResolveConninfo("", FakeEnv({{"PGDATABASE", "bank"}}));
  EXPECT_EQ(b.conninfo, "");
  EXPECT_EQ(b.source, "libpq environment");
  EXPECT_FALSE(b.embedded);
  auto c = ResolveConninfo("", FakeEnv({{"PGHOST", ""}}));
  EXPECT_TRUE(c.embedded);
  EXPECT_EQ(c.source, "embedded cluster");
}

}  // namespace
}  // namespace pgstorsim
