#include "trace/trace_generator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <set>

#include "support/collect_trace.h"
#include "trace/trace_format.h"

namespace pgstorsim {
namespace {

GeneratorOptions Small() {
  GeneratorOptions o;
  o.host.scale = 2;
  o.transactions = 3000;
  o.clients = 4;
  o.seed = 11;
  return o;
}

TEST(TraceGeneratorTest, DeterministicPerSeed) {
  Collected a = Generate(Small()), b = Generate(Small());
  ASSERT_TRUE(a.status.ok()) << a.status.message();
  EXPECT_EQ(a.records, b.records);
  GeneratorOptions other = Small();
  other.seed = 12;
  Collected c = Generate(other);
  EXPECT_NE(a.records, c.records);
}

TEST(TraceGeneratorTest, ColdCacheCountsAreSane) {
  GeneratorOptions o = Small();
  o.host.heap_churn = false;  // Every update HOT: accounts rows stay where they were loaded.
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  const GeneratorSummary& s = c.summary;
  EXPECT_EQ(s.transactions, 3000u);
  EXPECT_EQ(s.fsyncs, 3000u);  // One commit flush each, no group commit.
  // Scale 2 fits shared buffers: every read is a first touch of a distinct page.
  std::set<std::pair<uint32_t, int64_t>> read_pages;
  uint64_t reads = 0, fsyncs = 0, writes = 0;
  int64_t last_time = 0;
  StatusOr<TraceHeader> header = BuildTraceHeader(o);
  ASSERT_TRUE(header.ok());
  for (const TraceRecord& r : c.records) {
    EXPECT_GE(r.time_ns, last_time);
    last_time = r.time_ns;
    EXPECT_TRUE(CheckRecord(*header, r).ok()) << CheckRecord(*header, r).message();
    if (r.op == IoOp::kRead) {
      ++reads;
      EXPECT_TRUE(read_pages.insert({r.file, r.offset_bytes}).second) << "page read twice";
      EXPECT_EQ(r.length_bytes, 8192);
    }
    fsyncs += r.op == IoOp::kFsync;
    writes += r.op == IoOp::kWrite && r.stream == IoStream::kData;
  }
  EXPECT_EQ(reads, s.data_reads);
  EXPECT_EQ(fsyncs, s.fsyncs);
  EXPECT_EQ(writes, s.data_writes);
  // Writes are only history extensions: 3000 rows / 157 per page -> 20 pages.
  EXPECT_EQ(s.data_writes, 20u);
  EXPECT_EQ(s.misses, s.data_reads);
  // Expected distinct pages of n uniform touches over N: N (1 - (1 - 1/N)^n), for the
  // accounts heap (3279 pages) and pkey leaves (547), + root, tellers and branches heap + leaf (4).
  auto distinct = [](double pages, double n) { return pages * (1 - std::pow(1 - 1 / pages, n)); };
  const double expected = distinct(3279, 3000) + distinct(547, 3000) + 1 + 4;
  EXPECT_NEAR(static_cast<double>(s.data_reads), expected, 0.03 * expected);
  EXPECT_EQ(s.records, c.records.size());
}

TEST(TraceGeneratorTest, NonHotUpdatesGrowAccounts) {
  GeneratorOptions o = Small();
  o.host.start = pgmodel::CacheStart::kWarm;
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  // Fillfactor 100: the first update of each accounts page moves the row.
  EXPECT_GT(c.summary.non_hot_updates, 1000u);
  EXPECT_LT(c.summary.non_hot_updates, 3000u);
  EXPECT_GT(c.summary.prunes, 0u);
  const int64_t loaded_bytes = 3279 * 8192LL;  // ceil(200000 / 61) pages.
  uint64_t appended = 0;
  for (const TraceRecord& r : c.records) {
    if (r.file == 0 && r.op == IoOp::kWrite && r.offset_bytes >= loaded_bytes) ++appended;
  }
  // One extension write per 61 moved rows.
  EXPECT_EQ(appended, (c.summary.non_hot_updates + 60) / 61);
  // Fillfactor 90 leaves room on every page: all updates HOT.
  o.host.fillfactor = 90;
  EXPECT_EQ(Generate(o).summary.non_hot_updates, 0u);
}

TEST(TraceGeneratorTest, WarmCacheHoldsSmallDatabase) {
  GeneratorOptions o = Small();
  o.host.start = pgmodel::CacheStart::kWarm;
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  EXPECT_EQ(c.summary.data_reads, 0u);
  EXPECT_DOUBLE_EQ(c.summary.overall_hit_ratio(), 1.0);
}

TEST(TraceGeneratorTest, SmallCacheMissesAndWritesBack) {
  GeneratorOptions o = Small();
  o.host.scale = 10;  // ~19000 pages of accounts + pkey.
  o.transactions = 20000;
  o.host.cache.shared_buffers_pages = 2048;
  o.host.cache.os_cache_pages = 4096;
  o.host.start = pgmodel::CacheStart::kWarm;
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  const GeneratorSummary& s = c.summary;
  EXPECT_GT(s.misses, 10000u);
  EXPECT_GT(s.data_writes, 5000u);  // Dirty accounts pages evicted.
  EXPECT_GT(s.os_hits, 0u);
  EXPECT_LT(s.overall_hit_ratio(), 0.95);
  EXPECT_GT(s.overall_hit_ratio(), 0.5);
}

TEST(TraceGeneratorTest, WalWritesArePageAlignedAppends) {
  Collected c = Generate(Small());
  ASSERT_TRUE(c.status.ok());
  int64_t previous_end = 0;
  for (const TraceRecord& r : c.records) {
    if (r.stream != IoStream::kWal || r.op != IoOp::kWrite) continue;
    EXPECT_EQ(r.offset_bytes % 8192, 0);
    EXPECT_EQ(r.length_bytes % 8192, 0);
    // Each flush starts at the partial page the previous one ended in.
    EXPECT_GE(r.offset_bytes + 8192, previous_end);
    EXPECT_LE(r.offset_bytes, previous_end);
    previous_end = r.offset_bytes + r.length_bytes;
  }
  EXPECT_GT(c.summary.full_page_images, 0u);
  EXPECT_GE(previous_end, c.summary.wal_bytes);
}

TEST(TraceGeneratorTest, WalFileIsSizedToTheTraceAndWraps) {
  GeneratorOptions o = Small();
  o.transactions = 100;
  auto small = TraceGenerator::Create(o);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ((*small)->header().files[7].name, "wal");
  EXPECT_EQ((*small)->header().files[7].size_bytes, 16 << 20);
  o.transactions = 40000;  // About 60 MiB of WAL at scale 2.
  o.host.wal_cache_region_bytes = 32 << 20;
  auto big = TraceGenerator::Create(o);
  ASSERT_TRUE(big.ok());
  const TraceHeader& header = (*big)->header();
  EXPECT_EQ(header.files[7].size_bytes, 32 << 20);
  int64_t previous = 0;
  int wraps = 0;
  GeneratorSummary summary;
  Status s = (*big)->Run(
      [&](const TraceRecord& r) {
        if (r.stream == IoStream::kWal && r.op == IoOp::kWrite) {
          wraps += r.offset_bytes < previous;
          previous = r.offset_bytes;
        }
        return CheckRecord(header, r);
      },
      &summary);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_GT(summary.wal_bytes, 32 << 20);
  EXPECT_GE(wraps, 1);
}

TEST(TraceGeneratorTest, GroupCommitSharesFsyncs) {
  GeneratorOptions o = Small();
  o.rate_tps = 4000;                   // 250 us apart.
  o.group_commit_window_ns = 1000000;  // 1 ms: about 4 clients per flush.
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  EXPECT_LT(c.summary.fsyncs, 1000u);
  EXPECT_GE(c.summary.fsyncs, 750u);
  int64_t last = 0;
  for (const TraceRecord& r : c.records) {
    EXPECT_GE(r.time_ns, last);
    last = r.time_ns;
  }
}

TEST(TraceGeneratorTest, CheckpointsWriteDirtyPagesAndResetFullPageImages) {
  GeneratorOptions o = Small();
  o.host.checkpoint_timeout_ns = 1000LL * 1000 * 1000;  // 1 s = 1000 transactions.
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok());
  EXPECT_EQ(c.summary.checkpoints, 2u);
  uint64_t background = 0;
  for (const TraceRecord& r : c.records) {
    if (r.client == 4) {
      ++background;
      EXPECT_EQ(r.op, IoOp::kWrite);
      EXPECT_EQ(r.statement, 255);
    }
  }
  EXPECT_GT(background, 1000u);
  GeneratorOptions no_checkpoint = Small();
  EXPECT_GT(c.summary.full_page_images, Generate(no_checkpoint).summary.full_page_images);
}

TEST(TraceGeneratorTest, KeysLogDrivesTransactions) {
  const std::string path = ::testing::TempDir() + "/keys_" + std::to_string(::getpid()) + ".log";
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 1\n"
        << "1 0 5 3 1 10 100 900 1\n"
        << "0 0 7 1 2 -3 50 400 1\n"
        << "0 1 9 1 2 -3 500 950 0\n";
  }
  GeneratorOptions o = Small();
  o.keys_log_path = path;
  Collected c = Generate(o);
  ASSERT_TRUE(c.status.ok()) << c.status.message();
  EXPECT_EQ(c.summary.transactions, 2u);
  EXPECT_EQ(c.summary.skipped_transactions, 1u);
  ASSERT_FALSE(c.records.empty());
  EXPECT_EQ(c.records.front().client, 0u);  // Commit order: client 0 ended first.
  EXPECT_EQ(c.records.back().client, 1u);
  EXPECT_EQ(BuildTraceHeader(o)->meta["transactions"], 2);
  EXPECT_EQ(BuildTraceHeader(o)->meta["background_client"], 4);
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 1\n9 0 5 3 1 10 100 900 1\n";
  }
  EXPECT_EQ(BuildTraceHeader(o)->meta["background_client"], 10);  // After client 9.
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 1\n1 0 5 3 1 10 100\n";
  }
  c = Generate(o);
  ASSERT_FALSE(c.status.ok());
  EXPECT_NE(c.status.message().find(path + ":2"), std::string::npos) << c.status.message();
  std::remove(path.c_str());
}

TEST(TraceGeneratorTest, RejectsBadOptions) {
  GeneratorOptions o = Small();
  o.clients = 0;
  EXPECT_NE(Generate(o).status.message().find("--clients"), std::string::npos);
  o = Small();
  o.host.workload = WorkloadKind::kIo;
  EXPECT_NE(Generate(o).status.message().find("--workload"), std::string::npos);
  o = Small();
  o.host.cache.shared_buffers_pages = 1;
  EXPECT_FALSE(Generate(o).status.ok());
  o = Small();
  o.host.measured_relations = {{"pgbench_accounts", "many"}};
  EXPECT_NE(Generate(o).status.message().find("pgbench_accounts"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
