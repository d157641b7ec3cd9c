#include "common/results.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/file_util.h"
#include "common/random.h"

namespace pgstorsim {
namespace {

Results Sample(uint64_t seed) {
  Results r = NewResults("run");
  Random rng(seed);
  r.transactions = 100;
  r.duration_s = 10;
  r.tps = 10;
  r.config = {{"clients", 4}};
  StatementResult s{"UPDATE accounts", "UPDATE pgbench_accounts ...", 0, {}};
  for (int i = 0; i < 100; ++i) {
    int64_t v = rng.UniformInt(1000, 9000000);
    s.latency.Record(v);
    r.transaction_latency.Record(v * 2);
  }
  r.statements.push_back(s);
  r.series.push_back({1.0, 10, 10.0, 2.0});
  return r;
}

TEST(Results, JsonRoundTrip) {
  Results r = Sample(1);
  auto back = Results::FromJson(r.ToJson());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->kind, "run");
  EXPECT_EQ(back->transactions, 100u);
  EXPECT_EQ(back->config["clients"], 4);
  ASSERT_EQ(back->statements.size(), 1u);
  EXPECT_EQ(back->statements[0].latency.PercentileNs(0.95),
            r.statements[0].latency.PercentileNs(0.95));
  EXPECT_EQ(back->ToJson(), r.ToJson());
}

TEST(Results, RejectsForeignDocuments) {
  EXPECT_FALSE(Results::FromJson({{"schema", "other"}}).ok());
  nlohmann::json j = Sample(2).ToJson();
  j["version"] = 99;
  auto r = Results::FromJson(j);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("99"), std::string::npos);
}

TEST(Results, MergeAddsShards) {
  Results a = Sample(1), b = Sample(2);
  b.flags.push_back("interrupted");
  b.complete = false;
  a.Merge(b);
  EXPECT_EQ(a.transactions, 200u);
  EXPECT_DOUBLE_EQ(a.tps, 20);
  EXPECT_EQ(a.statements[0].latency.count(), 200u);
  EXPECT_FALSE(a.complete);
  EXPECT_EQ(a.flags.size(), 1u);
}

TEST(Results, SaveIsAtomicAndLoadNamesTheFile) {
  std::string dir = testing::TempDir() + "/results_test_" + std::to_string(::getpid());
  std::string path = dir + "/sub/r.json";
  ASSERT_TRUE(SaveResults(path, Sample(3)).ok());
  auto loaded = LoadResults(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->transactions, 100u);
  int leftovers = 0;
  for (auto& e : std::filesystem::directory_iterator(dir + "/sub")) leftovers += e.path() != path;
  EXPECT_EQ(leftovers, 0);
  ASSERT_TRUE(WriteFileAtomically(dir + "/bad.json", "{not json").ok());
  auto bad = LoadResults(dir + "/bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.json"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Random, SeedDeterminesStream) {
  Random a(7), b(7), c(8);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.Next(), b.Next());
  EXPECT_NE(Random(7).Next(), c.Next());
  Random r(9);
  for (int i = 0; i < 1000; ++i) {
    int64_t v = r.UniformInt(-5, 5);
    EXPECT_GE(v, -5);
    EXPECT_LE(v, 5);
  }
  EXPECT_NE(Random(7).Fork(1).Next(), Random(7).Fork(2).Next());
}

// A float where an integer belongs ("min_ns": 3.6e134, out of int64's range) is a clear
// error, as a negative count is, never a cast.
TEST(ResultsTest, IntegerFieldsMustBeIntegersInRange) {
  Results r = NewResults("run");
  r.transaction_latency.Record(1000);
  const nlohmann::json good = r.ToJson();
  ASSERT_TRUE(Results::FromJson(good).ok());
  nlohmann::json bad = good;
  bad["transaction_latency"]["min_ns"] = 3.6e134;
  auto loaded = Results::FromJson(bad);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("min_ns"), std::string::npos)
      << loaded.status().message();
  bad = good;
  bad["summary"]["transactions"] = -5;
  EXPECT_FALSE(Results::FromJson(bad).ok());
  bad = good;
  bad["version"] = 1.5;
  EXPECT_FALSE(Results::FromJson(bad).ok());
}

}  // namespace
}  // namespace pgstorsim
