#include <gtest/gtest.h>

#include <cstdlib>

#include "pg/server.h"
#include "pg/server_stats.h"

namespace pgstorsim {
namespace {

TEST(ServerStatsPgTest, SnapshotSeesWalGrowAndSettings) {
  const char* db = std::getenv("PGSTORSIM_TEST_DB");
  if (db == nullptr) GTEST_SKIP() << "PGSTORSIM_TEST_DB not set (scripts/test.sh sets it)";
  auto before = TakeSnapshot(db);
  ASSERT_TRUE(before.ok()) << before.status().message();
  {
    auto conn = Connect(db);
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    ASSERT_TRUE(Exec(conn->get(), "DROP TABLE IF EXISTS stats_probe_t").ok());
    ASSERT_TRUE(
        Exec(conn->get(), "CREATE TABLE stats_probe_t AS SELECT generate_series(1, 20000) g").ok());
    ASSERT_TRUE(Exec(conn->get(), "SELECT pg_stat_force_next_flush()").ok());
    ASSERT_TRUE(Exec(conn->get(), "DROP TABLE stats_probe_t").ok());
  }  // Closing the session flushes its statistics too.
  auto after = TakeSnapshot(db);
  ASSERT_TRUE(after.ok()) << after.status().message();
  StatCounters d = StatsDelta(before->counters, after->counters);
  EXPECT_GT(d["wal.wal_records"], 0);
  EXPECT_GT(d["wal.wal_bytes"], 0);
  EXPECT_EQ(after->settings.at("block_size"), "8192");
  for (const char* k :
       {"shared_buffers", "synchronous_commit", "full_page_writes", "checkpoint_timeout",
        "max_wal_size", "wal_sync_method", "server_version"}) {
    EXPECT_FALSE(after->settings.at(k).empty()) << k;
  }
  EXPECT_EQ(before->postmaster_start_time, after->postmaster_start_time);
}

TEST(ServerStatsPgTest, UnreachableServerIsOneLineWithoutPassword) {
  auto snap = TakeSnapshot("host=/nonexistent-dir port=1 password=hunter2 connect_timeout=2");
  ASSERT_FALSE(snap.ok());
  EXPECT_EQ(snap.status().message().find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
