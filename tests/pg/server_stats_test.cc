#include "pg/server_stats.h"

#include <gtest/gtest.h>

namespace pgstorsim {
namespace {

TEST(StatsDeltaTest, SubtractsAndCountsMissingFromZero) {
  StatCounters before = {{"wal.wal_bytes", 1000}, {"wal.wal_sync", 5}};
  StatCounters after = {{"wal.wal_bytes", 4096}, {"wal.wal_sync", 9}, {"wal.wal_fpi", 3}};
  StatCounters d = StatsDelta(before, after);
  EXPECT_DOUBLE_EQ(d["wal.wal_bytes"], 3096);
  EXPECT_DOUBLE_EQ(d["wal.wal_sync"], 4);
  EXPECT_DOUBLE_EQ(d["wal.wal_fpi"], 3);
}

TEST(StatsDeltaTest, HitRatiosFromDeltasOnly) {
  StatCounters before = {{"tables.heap_blks_hit", 1000},
                         {"tables.heap_blks_read", 1000},
                         {"indexes.idx_blks_hit", 10},
                         {"indexes.idx_blks_read", 0}};
  StatCounters after = {{"tables.heap_blks_hit", 1900},
                        {"tables.heap_blks_read", 1100},
                        {"indexes.idx_blks_hit", 10},
                        {"indexes.idx_blks_read", 0}};
  StatCounters d = StatsDelta(before, after);
  EXPECT_DOUBLE_EQ(d["tables.heap_hit_ratio"], 0.9);
  // No index activity during the run: no ratio rather than a division by zero.
  EXPECT_EQ(d.count("indexes.idx_hit_ratio"), 0u);
  EXPECT_EQ(d.count("tables.idx_hit_ratio"), 0u);
}

TEST(StatsDeltaTest, CountersToJsonGroupsByFirstSegment) {
  StatCounters c = {{"tables.pgbench_accounts.heap_blks_read", 7}, {"wal.wal_records", 2}};
  nlohmann::json j = CountersToJson(c);
  EXPECT_EQ(j["tables"]["pgbench_accounts.heap_blks_read"], 7);
  EXPECT_EQ(j["wal"]["wal_records"], 2);
}

}  // namespace
}  // namespace pgstorsim
