#include "pgmodel/host.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <vector>

#include "common/units.h"

namespace pgstorsim::pgmodel {
namespace {

HostConfig SmallHost() {
  HostConfig c;
  c.scale = 1;
  c.cache.shared_buffers_pages = 4096;
  c.cache.os_cache_pages = 0;
  c.start = CacheStart::kWarm;
  return c;
}

std::unique_ptr<Host> MakeHost(const HostConfig& c) {
  StatusOr<std::unique_ptr<Host>> host = Host::Create(c);
  EXPECT_TRUE(host.ok()) << host.status().message();
  return host.ok() ? std::move(host).value() : nullptr;
}

// Every update HOT: TpcbModel's touches alone.
std::unique_ptr<Host> HotOnlyHost() {
  HostConfig config = SmallHost();
  config.heap_churn = false;
  return MakeHost(config);
}

// Runs one transaction through the host; returns the I/O it caused.
std::vector<CacheIo> RunTransaction(Host* host, const TxnKeys& keys) {
  std::vector<CacheIo> ios;
  host->RunTransaction(keys, &ios);
  return ios;
}

TEST(HostTest, ANewHistoryPageIsWrittenOnceAndLogsNoImage) {
  std::unique_ptr<Host> host = HotOnlyHost();
  ASSERT_NE(host, nullptr);
  const std::vector<CacheIo> ios = RunTransaction(host.get(), {1, 1, 1, 5});
  const HostCounts& c = host->counts();
  EXPECT_EQ(c.extend_writes, 1u);  // pgbench_history is empty after init.
  EXPECT_EQ(c.relations[static_cast<int>(Relation::kHistory)].extends, 1u);
  // Images: the accounts, tellers and branches pages (first change after the start),
  // not the history page its INSERT initialises.
  EXPECT_EQ(c.full_page_images, 3u);
  ASSERT_EQ(ios.size(), 1u);
  EXPECT_EQ(ios[0].kind, CacheIo::kWrite);
  EXPECT_EQ(ios[0].first.file, static_cast<uint32_t>(Relation::kHistory));
}

TEST(HostTest, AnUpdateFetchesItsRowPageTwice) {
  std::unique_ptr<Host> host = HotOnlyHost();
  ASSERT_NE(host, nullptr);
  RunTransaction(host.get(), {1, 1, 1, 5});
  const HostCounts& c = host->counts();
  // UPDATE accounts: heap page twice; SELECT accounts: once more.
  EXPECT_EQ(c.relations[static_cast<int>(Relation::kAccounts)].fetches(), 3u);
  EXPECT_EQ(c.relations[static_cast<int>(Relation::kTellers)].fetches(), 2u);
}

TEST(HostTest, ACheckpointResetsImagesAndHandsOverDirtyBuffers) {
  const HostConfig config = SmallHost();
  std::unique_ptr<Host> host = HotOnlyHost();
  ASSERT_NE(host, nullptr);
  RunTransaction(host.get(), {1, 1, 1, 5});
  RunTransaction(host.get(), {1, 1, 1, 5});
  EXPECT_EQ(host->counts().full_page_images, 3u);  // Same pages: no new images.
  const CheckpointWork work = host->StartCheckpoint(1000);
  EXPECT_EQ(work.pages.size(), 4u);  // accounts, tellers, branches, history.
  EXPECT_EQ(work.spread_ns, static_cast<int64_t>(0.9 * config.checkpoint_timeout_ns));
  RunTransaction(host.get(), {1, 1, 1, 5});
  EXPECT_EQ(host->counts().full_page_images, 7u);  // History's page too now.
  EXPECT_EQ(host->counts().checkpoint_writes, 4u);
}

TEST(HostTest, CheckpointsAreDueByTimeOrWalVolume) {
  HostConfig config = SmallHost();
  config.checkpoint_timeout_ns = 1000;
  config.checkpoint_wal_bytes = 64 * 1024;
  std::unique_ptr<Host> host = MakeHost(config);
  ASSERT_NE(host, nullptr);
  EXPECT_FALSE(host->CheckpointDue(999));
  EXPECT_TRUE(host->CheckpointDue(1000));
  host->StartCheckpoint(10);
  EXPECT_EQ(host->next_timed_checkpoint_ns(), 1010);
  int transactions = 0;
  while (!host->CheckpointDue(20) && transactions < 1000) {
    RunTransaction(host.get(), {1 + transactions, 1, 1, 5});
    ++transactions;
  }
  EXPECT_GE(host->insert_lsn(), config.checkpoint_wal_bytes);
  EXPECT_LT(transactions, 1000);
  // A cycle of 500 ns, shorter than the timeout, paces the next checkpoint.
  host->StartCheckpoint(510);
  EXPECT_EQ(host->StartCheckpoint(1010).spread_ns, static_cast<int64_t>(0.9 * 500));
}

TEST(HostTest, NonHotUpdatesGrowAccountsAndDirtyThePkeyLeaf) {
  std::unique_ptr<Host> host = MakeHost(SmallHost());
  ASSERT_NE(host, nullptr);
  RunTransaction(host.get(), {1, 1, 1, 5});  // A loaded page has no room: not HOT.
  const HostCounts& c = host->counts();
  EXPECT_EQ(c.non_hot_updates, 1u);
  EXPECT_EQ(c.relations[static_cast<int>(Relation::kAccounts)].extends, 1u);
  // Images: old accounts page, the pkey leaf, tellers, branches.
  EXPECT_EQ(c.full_page_images, 4u);
}

TEST(HostTest, RejectsABadCompletionTarget) {
  HostConfig config = SmallHost();
  config.checkpoint_completion_target = 1.5;
  EXPECT_FALSE(Host::Create(config).ok());
}

// Skipping transactions grows the relations as their touches would: a host that
// skipped n transactions then runs m more extends exactly the pages that the m
// transactions' touches reach beyond every block the n touched (computed here from
// StartTransaction's effects on a twin host).
void ExpectSkipGrowsLikeTouches(WorkloadKind kind) {
  HostConfig config = SmallHost();
  config.workload = kind;
  std::unique_ptr<Host> skipped = MakeHost(config);
  std::unique_ptr<Host> twin = MakeHost(config);
  ASSERT_NE(skipped, nullptr);
  ASSERT_NE(twin, nullptr);
  std::array<int64_t, kRelationCount> pages{};
  for (int r = 0; r < kRelationCount; ++r)
    pages[r] = twin->layout().pages(static_cast<Relation>(r));
  std::vector<StatementEffects> effects;
  // Counts the pages the touches reach beyond pages[] and raises it.
  auto grow = [&](const std::vector<StatementEffects>& e) {
    uint64_t beyond = 0;
    for (const StatementEffects& s : e) {
      for (const PageTouch& t : s.touches) {
        int64_t& p = pages[static_cast<int>(t.relation)];
        if (t.block >= p) {
          beyond += static_cast<uint64_t>(t.block + 1 - p);
          p = t.block + 1;
        }
      }
    }
    return beyond;
  };
  KeyGenerator keys(kind, 1, Random(11));
  KeyGenerator twin_keys(kind, 1, Random(11));
  skipped->SkipTransactions(&keys, 6000);
  for (int i = 0; i < 6000; ++i) {
    twin->StartTransaction(twin_keys.Next(), &effects);
    grow(effects);
  }
  skipped->ResetCounts();
  uint64_t expected_extends = 0;
  for (int i = 0; i < 3000; ++i) {
    const TxnKeys k = keys.Next();
    ASSERT_EQ(k.aid, twin_keys.Next().aid);  // Exactly 6000 keys were drawn.
    twin->StartTransaction(k, &effects);
    expected_extends += grow(effects);
    RunTransaction(skipped.get(), k);
  }
  if (kind != WorkloadKind::kSelectOnly) {
    EXPECT_GT(expected_extends, 10u);
  }
  EXPECT_EQ(skipped->counts().extend_writes, expected_extends);
}

TEST(HostTest, SkippedTransactionsGrowRelationsLikeTheirTouches) {
  ExpectSkipGrowsLikeTouches(WorkloadKind::kTpcbLike);
  ExpectSkipGrowsLikeTouches(WorkloadKind::kSimpleUpdate);
  ExpectSkipGrowsLikeTouches(WorkloadKind::kSelectOnly);
}

// SkipTransactions(n) is n SkipTransaction calls on the next n keys.
TEST(HostTest, SkipTransactionsIsSkipTransactionOnTheNextKeys) {
  std::unique_ptr<Host> batched = MakeHost(SmallHost());
  std::unique_ptr<Host> single = MakeHost(SmallHost());
  ASSERT_NE(batched, nullptr);
  ASSERT_NE(single, nullptr);
  KeyGenerator a(1, 3);
  KeyGenerator b(1, 3);
  batched->SkipTransactions(&a, 4001);
  batched->SkipTransactions(&a, 2);
  batched->SkipTransactions(&a, 0);
  for (int i = 0; i < 4003; ++i) single->SkipTransaction(b.Next());
  EXPECT_EQ(batched->counts().non_hot_updates, single->counts().non_hot_updates);
  EXPECT_GT(batched->counts().non_hot_updates, 1000u);
  EXPECT_EQ(batched->counts().prunes, single->counts().prunes);
  batched->ResetCounts();
  single->ResetCounts();
  for (int i = 0; i < 500; ++i) {
    const TxnKeys k = a.Next();
    ASSERT_EQ(k.aid, b.Next().aid);
    RunTransaction(batched.get(), k);
    RunTransaction(single.get(), k);
  }
  EXPECT_EQ(batched->counts().ToJson(), single->counts().ToJson());
}

// RunTransactions(n) is n RunTransaction calls on the next n keys, and a checkpoint
// without the page list is StartCheckpoint's state change and counts.
TEST(HostTest, BatchedTransactionsAndUnwrittenCheckpointsAreTheSingleOnes) {
  HostConfig config = SmallHost();
  config.start = CacheStart::kCold;
  config.cache.shared_buffers_pages = 512;  // Evictions too.
  std::unique_ptr<Host> batched = MakeHost(config);
  std::unique_ptr<Host> single = MakeHost(config);
  ASSERT_NE(batched, nullptr);
  ASSERT_NE(single, nullptr);
  KeyGenerator a(1, 5);
  KeyGenerator b(1, 5);
  int64_t previous = 0;
  for (int64_t n : {3001, 2, 0, 1000}) {
    batched->StartUnwrittenCheckpoint(7);
    const CheckpointWork work = single->StartCheckpoint(7);
    EXPECT_EQ(batched->counts().checkpoint_writes, single->counts().checkpoint_writes);
    EXPECT_EQ(!work.pages.empty(), previous > 0);  // Dirty pages since the last one.
    previous = n;
    batched->RunTransactions(&a, n);
    for (int64_t i = 0; i < n; ++i) RunTransaction(single.get(), b.Next());
    EXPECT_EQ(batched->counts().ToJson(), single->counts().ToJson());
  }
  EXPECT_GT(batched->counts().eviction_writes, 0u);
  EXPECT_EQ(a.Next().aid, b.Next().aid);  // Exactly as many keys drawn.
}

}  // namespace
}  // namespace pgstorsim::pgmodel
