#include "driver/cache_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "driver/summary.h"

namespace pgstorsim {
namespace {

TEST(CacheCheckTest, RatiosFromCounters) {
  StatCounters before = {{"tables.heap_blks_hit", 100},
                         {"tables.heap_blks_read", 10},
                         {"tables.idx_blks_hit", 0},
                         {"tables.idx_blks_read", 0},
                         {"tables.pgbench_accounts.heap_blks_hit", 50},
                         {"tables.pgbench_accounts.heap_blks_read", 10}};
  StatCounters after = before;
  after["tables.heap_blks_hit"] += 300;
  after["tables.heap_blks_read"] += 100;
  after["tables.pgbench_accounts.heap_blks_hit"] += 100;
  after["tables.pgbench_accounts.heap_blks_read"] += 100;
  after["database.xact_commit"] = 50;
  CacheCheck c = ComputeCacheCheck(before, after, 100 * 8192 * 0.75, "", 2.0);
  EXPECT_DOUBLE_EQ(c.reads_per_transaction, 2.0);
  EXPECT_DOUBLE_EQ(c.shared_hit_ratio, 0.75);
  EXPECT_DOUBLE_EQ(c.accounts_hit_ratio, 0.5);
  EXPECT_DOUBLE_EQ(c.os_hit_ratio, 0.25);
  EXPECT_FALSE(c.StartedWarm());
  EXPECT_NE(c.Describe().find("shared hit ratio 0.750 (pgbench_accounts 0.500), OS hit ratio "
                              "0.250, PostgreSQL's count of the blocks it asked for"),
            std::string::npos)
      << c.Describe();
  CacheCheck remote = ComputeCacheCheck(before, after, -1, "server not local", 2.0);
  EXPECT_LT(remote.os_hit_ratio, 0);
  EXPECT_NE(c.Describe().find("100 blocks read by PostgreSQL (2.00 per transaction)"),
            std::string::npos)
      << c.Describe();
  EXPECT_NE(remote.Describe().find("OS hit ratio unknown (server not local)"), std::string::npos);
  EXPECT_TRUE(remote.ToJson()["os_hit_ratio"].is_null());
}

TEST(CacheCheckTest, WarmStartIsFlagged) {
  StatCounters before;
  StatCounters after = {{"tables.pgbench_accounts.heap_blks_hit", 990},
                        {"tables.pgbench_accounts.heap_blks_read", 10},
                        {"tables.heap_blks_hit", 990},
                        {"tables.heap_blks_read", 10}};
  CacheCheck c = ComputeCacheCheck(before, after, 0, "", 2.0);
  EXPECT_TRUE(c.StartedWarm());
  EXPECT_NE(c.Describe().find("WARNING: this cold run started warm"), std::string::npos);
}

TEST(CacheCheckTest, OwnProcessStorageReadsAreReadable) {
  EXPECT_GE(ServerStorageReadBytes(getpid()), 0);
  EXPECT_LT(ServerStorageReadBytes(999999999), 0);
}

TEST(ServerStatsSummaryTest, PerTransactionFigures) {
  StatCounters d = {{"wal.wal_bytes", 2048000},      {"wal.wal_fpi", 500},
                    {"tables.heap_hit_ratio", 0.95}, {"bgwriter.checkpoints_timed", 1},
                    {"bgwriter.checkpoints_req", 0}, {"bgwriter.buffers_checkpoint", 40},
                    {"bgwriter.buffers_clean", 3},   {"bgwriter.buffers_backend", 7}};
  std::string s = FormatServerStats(d, 1000);
  EXPECT_NE(s.find("WAL per transaction: 2048 bytes, 0.500 full-page images"), std::string::npos)
      << s;
  EXPECT_NE(s.find("shared buffer hit ratio: heap 0.950, indexes n/a"), std::string::npos) << s;
  EXPECT_NE(s.find("checkpoints: 1 timed, 0 requested"), std::string::npos);
  EXPECT_NE(s.find("checkpointer 40, background writer 3, backends 7"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
