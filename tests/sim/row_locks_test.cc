#include "sim/row_locks.h"

#include <gtest/gtest.h>

#include "common/units.h"
#include "sim/run_simulation.h"
#include "sim/sim_config.h"
#include "sim_test_util.h"

namespace pgstorsim::sim {
namespace {

TEST(RowLocks, WaitersAreGrantedInArrivalOrderOneAtATime) {
  RowLocks locks(4);
  EXPECT_TRUE(locks.Acquire(Relation::kBranches, 1, 0));
  EXPECT_TRUE(locks.Acquire(Relation::kBranches, 1, 0));  // Own row again.
  EXPECT_FALSE(locks.Acquire(Relation::kBranches, 1, 2));
  EXPECT_FALSE(locks.Acquire(Relation::kBranches, 1, 1));
  EXPECT_TRUE(locks.Acquire(Relation::kTellers, 1, 3));  // Other relation, same key.
  std::vector<uint32_t> granted;
  locks.ReleaseAll(0, &granted);
  EXPECT_EQ(granted, std::vector<uint32_t>({2}));
  granted.clear();
  locks.ReleaseAll(2, &granted);
  EXPECT_EQ(granted, std::vector<uint32_t>({1}));
  granted.clear();
  locks.ReleaseAll(1, &granted);
  locks.ReleaseAll(3, &granted);
  EXPECT_TRUE(granted.empty());
  EXPECT_EQ(locks.held_rows(), 0u);
}

TEST(RowLocks, ReleaseHandsEveryRowToItsOwnFirstWaiter) {
  RowLocks locks(3);
  EXPECT_TRUE(locks.Acquire(Relation::kTellers, 7, 0));
  EXPECT_TRUE(locks.Acquire(Relation::kBranches, 1, 0));
  EXPECT_FALSE(locks.Acquire(Relation::kBranches, 1, 1));
  EXPECT_FALSE(locks.Acquire(Relation::kTellers, 7, 2));
  std::vector<uint32_t> granted;
  locks.ReleaseAll(0, &granted);
  EXPECT_EQ(granted, std::vector<uint32_t>({2, 1}));  // In client 0's lock order.
  EXPECT_EQ(locks.held_rows(), 2u);
}

// A fully cached database with write-through commits: every WAL flush waits for the
// platter, so flushes are the bottleneck and commits would group.
SimConfig FlushBoundConfig(int64_t scale) {
  SimConfig c;
  c.host.scale = scale;
  c.clients = 4;
  SetCacheSizes(256LL << 20, 2816LL << 20, &c);  // 4 GiB of RAM, 1 GiB kept by the OS.
  c.transactions_per_client = 300;
  c.array.level = RaidLevel::kRaid10;
  c.array.members = 4;
  c.array.stripe_unit_bytes = 64 << 10;
  c.fs.fs_block_bytes = 8192;
  c.controller.write_back = false;
  return c;
}

double CommitsPerFlush(const Results& r) {
  return r.sections.at("wal")["commits_per_flush"].get<double>();
}
double Flushes(const Results& r) { return r.sections.at("wal")["flushes"].get<double>(); }
double WaitMs(const Results& r, const char* statement) {
  return r.sections.at("row_locks")["by_statement"][statement]["wait_ms_mean"].get<double>();
}
uint64_t Waits(const Results& r, const char* statement) {
  return r.sections.at("row_locks")["by_statement"][statement]["waits"].get<uint64_t>();
}
double MeanMs(const Results& r, const char* statement) {
  for (const StatementResult& s : r.statements) {
    if (s.name == statement) return s.latency.mean_ns() / kNsPerMs;
  }
  ADD_FAILURE() << "no statement " << statement;
  return 0;
}

TEST(RowLockContention, OneBranchSerialisesCommitsToOnePerFlush) {
  SimConfig c = FlushBoundConfig(1);
  c.row_locks = false;
  const Results free = MustSimulate(c);
  EXPECT_GT(CommitsPerFlush(free), 1.8);  // Without locks the 4 clients group.
  c.row_locks = true;
  const Results locked = MustSimulate(c);
  EXPECT_LT(CommitsPerFlush(locked), 1.1);
  // Every transaction updates branch 1 and holds it through its flush: at most one
  // transaction per flush, so tps <= flushes per second.
  EXPECT_LE(locked.transactions, Flushes(locked) * 1.01);
  EXPECT_LT(locked.tps, 0.7 * free.tps);
  // The wait is spent in UPDATE branches, about three quarters of a flush cycle.
  EXPECT_GT(Waits(locked, "UPDATE branches"), locked.transactions / 2);
  const double cycle_ms = 1000.0 / locked.tps;
  EXPECT_GT(WaitMs(locked, "UPDATE branches"), cycle_ms);
  EXPECT_GT(MeanMs(locked, "UPDATE branches"), MeanMs(free, "UPDATE branches") + cycle_ms);
  EXPECT_EQ(Waits(free, "UPDATE branches"), 0u);
}

TEST(RowLockContention, LargeScaleHasAlmostNoWaits) {
  SimConfig c = FlushBoundConfig(1000);
  // Not cached (1 GiB of RAM, all kept by the OS): the pages are read, the rows rarely meet.
  SetCacheSizes(128LL << 20, 0, &c);
  c.transactions_per_client = 100;
  c.host.start = pgmodel::CacheStart::kCold;
  c.row_locks = false;
  const Results free = MustSimulate(c);
  c.row_locks = true;
  const Results locked = MustSimulate(c);
  // 1000 branches, 10000 tellers: a row is rarely held by one of 3 other clients.
  EXPECT_LE(locked.sections.at("row_locks")["waits"].get<uint64_t>(), locked.transactions / 100);
  EXPECT_NEAR(locked.tps, free.tps, 0.02 * free.tps);
}

TEST(RowLockContention, WithoutSynchronousCommitLocksEndAtCommitNotFlush) {
  SimConfig c = FlushBoundConfig(1);
  c.synchronous_commit = false;
  const Results r = MustSimulate(c);
  // Branch 1 is still contended, but a wait lasts CPU times, not a platter flush.
  EXPECT_GT(Waits(r, "UPDATE branches"), 0u);
  EXPECT_LT(WaitMs(r, "UPDATE branches"), 1.0);
}

TEST(RowLockContention, SameSeedSameWaits) {
  SimConfig c = FlushBoundConfig(2);
  c.transactions_per_client = 200;
  const Results a = MustSimulate(c);
  const Results b = MustSimulate(c);
  EXPECT_EQ(a.sections.at("row_locks").dump(), b.sections.at("row_locks").dump());
  EXPECT_EQ(a.transactions, b.transactions);
  EXPECT_GT(a.sections.at("row_locks")["waits"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace pgstorsim::sim
