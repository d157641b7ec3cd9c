// GeneratorOptions::warmup_transactions: a warm trace that starts in steady state.
#include <gtest/gtest.h>

#include <vector>

#include "support/collect_trace.h"
#include "trace/trace_generator.h"

namespace pgstorsim {
namespace {

// Scale 10 (~19000 accounts + pkey pages) in 2048 shared buffers + 4096 OS pages, warm:
// evictions of dirty pages start once the first ~2000 transactions dirtied the buffers.
GeneratorOptions SmallCache() {
  GeneratorOptions o;
  o.host.scale = 10;
  o.clients = 4;
  o.seed = 5;
  o.host.cache.shared_buffers_pages = 2048;
  o.host.cache.os_cache_pages = 4096;
  o.host.start = pgmodel::CacheStart::kWarm;
  return o;
}

// Data writes per transaction among records of transactions [first, first + count).
double DataWritesPerTxn(const std::vector<TraceRecord>& records, uint64_t first, uint64_t count) {
  uint64_t writes = 0;
  for (const TraceRecord& r : records) {
    if (r.stream == IoStream::kData && r.op == IoOp::kWrite && r.transaction >= first &&
        r.transaction < first + count) {
      ++writes;
    }
  }
  return static_cast<double>(writes) / static_cast<double>(count);
}

TEST(GeneratorWarmupTest, RecordsAreTheLongerTracesTailShiftedToZero) {
  GeneratorOptions whole = SmallCache();
  whole.transactions = 3000;
  GeneratorOptions warmed = SmallCache();
  warmed.warmup_transactions = 2000;
  warmed.transactions = 1000;
  const Collected a = Generate(whole), b = Generate(warmed);
  ASSERT_TRUE(a.status.ok()) << a.status.message();
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  // No checkpoint, background writer or group commit here: every record belongs to a
  // transaction, so the warm-up trace is exactly the tail from transaction 2000 on.
  const int64_t shift_ns = 2000 * static_cast<int64_t>(1e9 / whole.rate_tps);
  std::vector<TraceRecord> tail;
  for (TraceRecord r : a.records) {
    if (r.transaction < 2000) continue;
    r.transaction -= 2000;
    r.time_ns -= shift_ns;
    tail.push_back(r);
  }
  ASSERT_FALSE(tail.empty());
  EXPECT_EQ(b.records, tail);
  EXPECT_LT(b.records.front().time_ns, shift_ns / 2000);  // Inside transaction 0's slot.
  EXPECT_EQ(b.records.front().transaction, 0u);
}

TEST(GeneratorWarmupTest, StartsWritingAtTheSteadyRate) {
  GeneratorOptions fresh = SmallCache();
  fresh.transactions = 5000;
  GeneratorOptions warmed = fresh;
  warmed.warmup_transactions = 4000;
  const Collected a = Generate(fresh), b = Generate(warmed);
  ASSERT_TRUE(a.status.ok() && b.status.ok());
  const double fresh_start = DataWritesPerTxn(a.records, 0, 500);
  const double steady = DataWritesPerTxn(a.records, 4000, 500);
  const double warmed_start = DataWritesPerTxn(b.records, 0, 500);
  EXPECT_LT(fresh_start, 0.2 * steady);  // Clean buffers: nothing to write back yet.
  EXPECT_GT(steady, 1.0);                // Accounts page + pkey leaf of non-HOT updates.
  EXPECT_NEAR(warmed_start, steady, 0.15 * steady);
}

TEST(GeneratorWarmupTest, SummaryAndHeaderCountTheRecordedPart) {
  GeneratorOptions o = SmallCache();
  o.warmup_transactions = 3000;
  o.transactions = 1500;
  const Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  const GeneratorSummary& s = c.summary;
  EXPECT_EQ(s.transactions, 1500u);
  EXPECT_EQ(s.fsyncs, 1500u);
  EXPECT_EQ(s.records, c.records.size());
  uint64_t writes = 0, reads = 0;
  for (const TraceRecord& r : c.records) {
    if (r.stream != IoStream::kData) continue;
    (r.op == IoOp::kWrite ? writes : reads) += 1;
  }
  EXPECT_EQ(s.data_writes, writes);
  EXPECT_EQ(s.data_reads, reads);
  EXPECT_EQ(s.misses, reads);  // No readahead: one device read per miss.
  StatusOr<TraceHeader> h = BuildTraceHeader(o);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->meta["transactions"], 1500);
  EXPECT_EQ(h->meta["warmup_transactions"], 3000);
}

TEST(GeneratorWarmupTest, RejectsANegativeWarmup) {
  GeneratorOptions o = SmallCache();
  o.warmup_transactions = -1;
  const Collected c = Generate(o);
  ASSERT_FALSE(c.status.ok());
  EXPECT_NE(c.status.message().find("--warmup-transactions"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
