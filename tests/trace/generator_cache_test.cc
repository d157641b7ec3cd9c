// The trace generator's cache accounting as pg_statio counts it (per relation buffer
// fetches, UPDATE's re-read of its row's page, extends counted as reads), its
// pg_prewarm start state, and transaction times taken from a keys log.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "trace/trace_generator.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace {

GeneratorSummary Summarize(const GeneratorOptions& o, std::vector<TraceRecord>* records = nullptr) {
  GeneratorSummary s;
  Status status = GenerateTrace(
      o,
      [records](const TraceRecord& r) {
        if (records != nullptr) records->push_back(r);
        return Status::Ok();
      },
      &s);
  EXPECT_TRUE(status.ok()) << status.message();
  return s;
}

GeneratorOptions HotOnly(int64_t transactions) {
  GeneratorOptions o;
  o.host.scale = 1;
  o.transactions = transactions;
  o.clients = 2;
  o.seed = 5;
  o.host.heap_churn = false;
  return o;
}

const RelationCacheCounts& Of(const GeneratorSummary& s, Relation r) {
  return s.relations.at(static_cast<size_t>(r));
}

TEST(GeneratorCacheTest, CountsBufferFetchesPerRelationLikePgStatio) {
  const GeneratorSummary s = Summarize(HotOnly(1000));
  ASSERT_EQ(s.relations.size(), static_cast<size_t>(kRelationCount));
  // Accounts: the SELECT's fetch, the UPDATE's fetch and heap_update()'s re-read.
  EXPECT_EQ(Of(s, Relation::kAccounts).fetches(), 3000u);
  EXPECT_EQ(Of(s, Relation::kTellers).fetches(), 2000u);
  EXPECT_EQ(Of(s, Relation::kBranches).fetches(), 2000u);
  // History: one fetch per insert; each new page is an extend (a read for pg_statio).
  const RelationCacheCounts& history = Of(s, Relation::kHistory);
  EXPECT_EQ(history.fetches(), 1000u);
  EXPECT_GT(history.extends, 0u);
  EXPECT_EQ(history.misses, 0u);
  uint64_t hits = 0, misses = 0;
  for (const RelationCacheCounts& c : s.relations) {
    hits += c.shared_hits;
    misses += c.misses;
  }
  EXPECT_EQ(hits, s.shared_hits);
  EXPECT_EQ(misses, s.misses);
  // Cold start: every first touch of a table page is a read.
  EXPECT_LT(s.StatioHitRatio(false), 1.0);
  EXPECT_GT(s.StatioHitRatio(false), 0.0);
}

TEST(GeneratorCacheTest, PgPrewarmStartHoldsWhatFits) {
  GeneratorOptions o = HotOnly(1000);
  // Scale 1 (about 16 MiB) fits 128 MiB of shared buffers whole.
  o.host.start = pgmodel::CacheStart::kPgPrewarm;
  const GeneratorSummary s = Summarize(o);
  EXPECT_EQ(s.misses, 0u);
  EXPECT_DOUBLE_EQ(s.StatioHitRatio(true), 1.0);
  const uint64_t extends = Of(s, Relation::kHistory).extends;
  uint64_t fetches = 0;
  for (int r = 0; r < kRelationCount; ++r) {
    if (!IsIndex(static_cast<Relation>(r))) fetches += s.relations[r].fetches();
  }
  EXPECT_DOUBLE_EQ(s.StatioHitRatio(false), 1.0 - static_cast<double>(extends) / fetches);

  // Too small for the database: pg_prewarm leaves the relations read last (the indexes
  // and the end of the accounts heap), so the first accounts blocks miss.
  o.host.cache.shared_buffers_pages = 512;  // 4 MiB; accounts alone are ~1640 pages.
  o.transactions = 200;
  const GeneratorSummary small = Summarize(o);
  EXPECT_GT(Of(small, Relation::kAccounts).misses, 0u);
  o.host.start = pgmodel::CacheStart::kCold;
  const GeneratorSummary cold = Summarize(o);
  EXPECT_GT(Of(cold, Relation::kAccountsPkey).misses, Of(small, Relation::kAccountsPkey).misses);
  EXPECT_EQ(BuildTraceHeader(HotOnly(1))->meta["cache"], "cold");
  GeneratorOptions prewarm = HotOnly(1);
  prewarm.host.start = pgmodel::CacheStart::kPgPrewarm;
  EXPECT_EQ(BuildTraceHeader(prewarm)->meta["cache"], "pg-prewarm");
}

TEST(GeneratorCacheTest, KeysLogTimesStampTheRecords) {
  const std::string path =
      ::testing::TempDir() + "/timed_keys_" + std::to_string(::getpid()) + ".log";
  {
    std::ofstream out(path);
    // client txn aid tid bid delta start_ns end_ns committed; overlapping transactions.
    out << "pgstorsim keys-log 1\n"
        << "0 0 5 3 1 10 1000000 3000000 1\n"
        << "1 0 9 2 1 -4 2000000 5000000 1\n"
        << "0 1 7 1 1 2 9000000 9500000 1\n";
  }
  GeneratorOptions o = HotOnly(0);
  o.keys_log_path = path;
  o.rate_tps = 1;  // Nominal spacing would be one second: the log's times must win.
  std::vector<TraceRecord> records;
  Summarize(o, &records);
  EXPECT_EQ(BuildTraceHeader(o)->meta["times"], "keys-log");
  std::remove(path.c_str());
  ASSERT_FALSE(records.empty());
  const std::map<uint64_t, std::pair<int64_t, int64_t>> window = {
      {0, {1000000, 3000000}}, {1, {2000000, 5000000}}, {2, {9000000, 9500000}}};
  int64_t previous = 0;
  for (const TraceRecord& r : records) {
    EXPECT_GE(r.time_ns, previous);  // Never decreasing.
    previous = r.time_ns;
    if (r.client == 2) continue;  // The background writer (none expected here).
    const auto& [start, end] = window.at(r.transaction);
    EXPECT_GE(r.time_ns, start) << "transaction " << r.transaction;
    EXPECT_LE(r.time_ns, end) << "transaction " << r.transaction;
  }
  EXPECT_LT(records.front().time_ns, 3000000);  // Not at a nominal 1 s slot.
  EXPECT_GE(records.back().time_ns, 9000000);

  // Without times (all zero) the nominal rate spaces the transactions.
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 1\n0 0 5 3 1 10 0 0 1\n0 1 7 1 1 2 0 0 1\n";
  }
  records.clear();
  Summarize(o, &records);
  EXPECT_EQ(BuildTraceHeader(o)->meta["times"], "nominal");
  std::remove(path.c_str());
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.back().transaction, 1u);
  EXPECT_GE(records.back().time_ns, 1000000000);
}

}  // namespace
}  // namespace pgstorsim
