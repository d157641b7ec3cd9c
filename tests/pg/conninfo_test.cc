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

// Flags with only --db given.
ServerFlags DbFlag(const std::string& db) {
  ServerFlags flags;
  flags.db = db;
  return flags;
}

TEST(RedactConninfoTest, KeyValuePassword) {
  EXPECT_EQ(RedactConninfo("host=db port=5432 password=s3cret user=bob"),
            "user=bob password=*** host=db port=5432");
  EXPECT_EQ(RedactConninfo("password = 'a b\\' c' dbname=x"), "password=*** dbname=x");
  EXPECT_EQ(RedactConninfo("host=/tmp dbname=postgres"), "dbname=postgres host=/tmp");
  EXPECT_EQ(RedactConninfo(""), "");
}

TEST(RedactConninfoTest, QuotedValueContainingPasswordWordIsKept) {
  EXPECT_EQ(RedactConninfo("application_name='password=x' password=y"),
            "password=*** application_name=password=x");
  EXPECT_EQ(RedactConninfo("application_name='a b' host=h"), "host=h application_name='a b'");
}

TEST(RedactConninfoTest, UriUserPassword) {
  EXPECT_EQ(RedactConninfo("postgresql://alice:hunter2@db.example:5432/bank"),
            "user=alice password=*** dbname=bank host=db.example port=5432");
  EXPECT_EQ(RedactConninfo("postgres://alice@db/bank"), "user=alice dbname=bank host=db");
  EXPECT_EQ(RedactConninfo("postgresql://db/bank?user=a&password=zz&sslmode=off"),
            "user=a password=*** dbname=bank host=db sslmode=off");
}

TEST(RedactConninfoTest, NeverContainsSecret) {
  for (const char* c :
       {"password=topsecret", "postgresql://u:topsecret@h/d", "postgresql://h/d?password=topsecret",
        "host=h  password='topsecret'", "host='unterminated password=topsecret"}) {
    EXPECT_EQ(RedactConninfo(c).find("topsecret"), std::string::npos) << c;
  }
}

TEST(ResolveConninfoTest, FlagWinsOverEnvironment) {
  auto c =
      ResolveConninfo(DbFlag("host=a"), FakeEnv({{"PGSTORSIM_DB", "host=b"}, {"PGHOST", "c"}}));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->conninfo, "host=a");
  EXPECT_EQ(c->source, "--db");
  EXPECT_FALSE(c->embedded);
}

TEST(ResolveConninfoTest, PgbenchFlagsOverrideDbKeys) {
  ServerFlags f;
  f.db = "postgresql://u:pw@h1:5433/d1";
  f.host = "h2";
  f.dbname = "d2";
  auto c = ResolveConninfo(f, FakeEnv({}));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->conninfo, "user=u password=pw dbname=d2 host=h2 port=5433");
  EXPECT_EQ(c->source, "--db and -h/-p/-U/-d");
  ServerFlags only;
  only.port = "6543";
  only.user = "bob";
  auto d = ResolveConninfo(only, FakeEnv({}));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->conninfo, "user=bob port=6543");
  EXPECT_FALSE(d->embedded);
}

TEST(ResolveConninfoTest, MalformedDbIsAnErrorNamingTheOption) {
  auto c = ResolveConninfo(DbFlag("host=a nonsense_key=1"), FakeEnv({}));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().rfind("--db: ", 0), 0u) << c.status().message();
  EXPECT_NE(c.status().message().find("nonsense_key"), std::string::npos);
}

TEST(ResolveConninfoTest, PgstorsimDbThenLibpqEnvThenEmbedded) {
  auto a = ResolveConninfo({}, FakeEnv({{"PGSTORSIM_DB", "host=b"}, {"PGHOST", "c"}}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->conninfo, "host=b");
  EXPECT_EQ(a->source, "PGSTORSIM_DB");
  auto b = ResolveConninfo({}, FakeEnv({{"PGDATABASE", "bank"}}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->conninfo, "");
  EXPECT_EQ(b->source, "libpq environment (PGDATABASE)");
  EXPECT_FALSE(b->embedded);
  auto c = ResolveConninfo({}, FakeEnv({{"PGHOST", ""}, {"PGSSLMODE", "require"}}));
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->embedded);
  EXPECT_EQ(c->source, "embedded cluster");
}

TEST(ResolveConninfoTest, ServicePortAndUserAloneNameAServer) {
  for (const char* var : {"PGSERVICE", "PGPORT", "PGUSER", "PGHOSTADDR"}) {
    auto c = ResolveConninfo({}, FakeEnv({{var, "x"}}));
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(c->embedded) << var;
    EXPECT_EQ(c->source, std::string("libpq environment (") + var + ")");
  }
  auto two = ResolveConninfo({}, FakeEnv({{"PGPORT", "1"}, {"PGUSER", "u"}}));
  EXPECT_EQ(two->source, "libpq environment (PGPORT, PGUSER)");
}

}  // namespace
}  // namespace pgstorsim
