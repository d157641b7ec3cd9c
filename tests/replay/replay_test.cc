#include <gtest/gtest.h>

#include <atomic>
#include <climits>
#include <cstring>

#include "replay/pattern.h"
#include "replay/session.h"
#include "replay_test_util.h"

namespace pgstorsim {
namespace {

StatusOr<ReplayOutcome> Replay(const Trace& t, const ReplayTargets& targets,
                               const std::string& engine, int workers = 0) {
  ReplayOptions o;
  o.engine = engine;
  o.workers = workers;
  PreparedReplay prepared;
  return ReplayTrace(t.header, t.records, targets, o, &prepared);
}

// An array of `members` files m0, m1, ... in `dir`.
ReplayTargets ArrayTargets(const TempDir& dir, RaidLevel level, int members,
                           int64_t stripe_unit_bytes) {
  ReplayTargets targets;
  targets.use_array = true;
  targets.array.level = level;
  targets.array.stripe_unit_bytes = stripe_unit_bytes;
  for (int i = 0; i < members; ++i) targets.members.push_back(dir.File("m" + std::to_string(i)));
  return targets;
}

void ExpectCountsMatch(const Trace& t, const ReplayOutcome& out) {
  uint64_t reads = 0, writes = 0, fsyncs = 0;
  for (const TraceRecord& r : t.records) {
    reads += r.op == IoOp::kRead;
    writes += r.op == IoOp::kWrite;
    fsyncs += r.op == IoOp::kFsync;
  }
  EXPECT_EQ(out.records, t.records.size());
  EXPECT_EQ(out.data_read.count(), reads);
  EXPECT_EQ(out.data_write.count(), writes);
  EXPECT_EQ(out.fsync.count(), fsyncs);
  EXPECT_EQ(out.failed_records, 0u);
  EXPECT_EQ(out.devices[0].reads, reads);
  EXPECT_EQ(out.devices[0].writes, writes);
  EXPECT_EQ(out.devices[0].bytes_written, writes * 8192);
  EXPECT_LE(out.devices[0].busy_ns, out.elapsed_ns);
}

class ReplayEngineTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ReplayEngineTest, ReplaysOnTempFile) {
  TempDir dir;
  const Trace t = Pattern("randrw", 4 << 20, 4, 200);
  ReplayTargets targets;
  targets.target = dir.File("data");
  auto out = Replay(t, targets, GetParam());
  if (!out.ok() && GetParam() == "io_uring") {
    GTEST_SKIP() << "io_uring unavailable here: " << out.status().message();
  }
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectCountsMatch(t, *out);
  EXPECT_EQ(out->transactions, 800u);
  EXPECT_EQ(out->workers, 4);
  // The data landed (or, for null, did not): written blocks are no longer zero.
  const std::vector<uint8_t> bytes = ReadAll(dir.File("data"));
  ASSERT_EQ(bytes.size(), 4u << 20);
  size_t nonzero_blocks = 0;
  for (size_t b = 0; b < bytes.size(); b += 8192) nonzero_blocks += bytes[b] != 0;
  if (GetParam() == "null") {
    EXPECT_EQ(nonzero_blocks, 0u);
  } else {
    EXPECT_GT(nonzero_blocks, 0u);
    EXPECT_LE(nonzero_blocks, out->data_write.count());
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ReplayEngineTest, ::testing::Values("null", "psync", "io_uring"));

void ReplayOnParityArray(RaidLevel level, const std::string& engine) {
  TempDir dir;
  const Trace t = Pattern("randwrite", 2 << 20, 4, 150);
  const ReplayTargets targets = ArrayTargets(dir, level, level == RaidLevel::kRaid6 ? 5 : 4, 16384);
  auto out = Replay(t, targets, engine);
  if (!out.ok() && engine == "io_uring") GTEST_SKIP() << out.status().message();
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->failed_records, 0u);
  EXPECT_EQ(out->data_write.count(), 600u);
  std::vector<std::vector<uint8_t>> members;
  for (const std::string& p : targets.members) members.push_back(ReadAll(p));
  CheckParity(members, 16384, level == RaidLevel::kRaid6);
  // Small writes: every logical write is a read-modify-write.
  uint64_t reads = 0;
  for (const DeviceCounters& d : out->devices) reads += d.reads;
  EXPECT_EQ(reads, 600u * (level == RaidLevel::kRaid6 ? 3 : 2));
}

TEST(ReplayArrayTest, Raid5ParityIsConsistentAfterConcurrentWrites) {
  ReplayOnParityArray(RaidLevel::kRaid5, "psync");
}

TEST(ReplayArrayTest, Raid5ParityWithUring) { ReplayOnParityArray(RaidLevel::kRaid5, "io_uring"); }

TEST(ReplayArrayTest, Raid6PAndQAreConsistent) { ReplayOnParityArray(RaidLevel::kRaid6, "psync"); }

TEST(ReplayArrayTest, FullStripeWritesNeedNoPreReads) {
  TempDir dir;
  Trace t;
  PatternOptions o;
  o.name = "randwrite";
  o.file_bytes = 3 << 20;
  o.block_bytes = 3 * 16384;  // One full stripe of a 4-member RAID 5.
  o.clients = 2;
  o.ops_per_client = 40;
  ASSERT_TRUE(MakePatternTrace(o, &t.header, &t.records).ok());
  const ReplayTargets targets = ArrayTargets(dir, RaidLevel::kRaid5, 4, 16384);
  auto out = Replay(t, targets, "psync");
  ASSERT_TRUE(out.ok()) << out.status().message();
  std::vector<std::vector<uint8_t>> members;
  for (const std::string& p : targets.members) members.push_back(ReadAll(p));
  CheckParity(members, 16384, false);
  for (const DeviceCounters& d : out->devices) EXPECT_EQ(d.reads, 0u);
}

TEST(ReplayArrayTest, Raid10MirrorsAreIdenticalAndReadsBalance) {
  TempDir dir;
  const Trace t = Pattern("randrw", 2 << 20, 4, 200);
  const ReplayTargets targets = ArrayTargets(dir, RaidLevel::kRaid10, 4, 32768);
  auto out = Replay(t, targets, "psync");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(ReadAll(targets.members[0]), ReadAll(targets.members[1]));
  EXPECT_EQ(ReadAll(targets.members[2]), ReadAll(targets.members[3]));
  for (const DeviceCounters& d : out->devices) EXPECT_GT(d.reads, 0u);
  EXPECT_EQ(out->devices[0].writes, out->devices[1].writes);
}

TEST(ReplayArrayTest, FilesystemBlockTurnsPageReadIntoBlockRead) {
  TempDir dir;
  const Trace t = Pattern("randread", 4 << 20, 1, 50);
  ReplayTargets targets;
  targets.target = dir.File("data");
  targets.fs = {63 * 512, 65536, 0};
  targets.direct = true;
  auto out = Replay(t, targets, "psync");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(out->devices[0].bytes_read, 50u * 65536);
}

TEST(ReplayTest, SeqWriteFsyncRunsWriteThenFsync) {
  TempDir dir;
  const Trace t = Pattern("seqwrite-fsync", 1 << 20, 1, 64);
  ReplayTargets targets;
  targets.target = dir.File("wal");
  auto out = Replay(t, targets, "psync");
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectCountsMatch(t, *out);
  EXPECT_EQ(out->transactions, 64u);
  EXPECT_EQ(out->devices[0].fsyncs, 64u);
}

TEST(ReplayTest, SeqReadReadsEachClientsRegionInOrderAndWraps) {
  TempDir dir;
  const Trace t = Pattern("seqread", 1 << 20, 2, 70);  // Regions of 64 blocks of 8 KiB.
  ASSERT_EQ(t.records.size(), 140u);
  for (const TraceRecord& r : t.records) {
    const int64_t i = static_cast<int64_t>(r.transaction / 2);
    EXPECT_EQ(r.op, IoOp::kRead);
    EXPECT_EQ(r.offset_bytes, (r.client * 64 + i % 64) * 8192) << "transaction " << r.transaction;
  }
  ReplayTargets targets;
  targets.target = dir.File("data");
  auto out = Replay(t, targets, "psync");
  ASSERT_TRUE(out.ok()) << out.status().message();
  ExpectCountsMatch(t, *out);
  EXPECT_EQ(out->devices[0].bytes_read, 140u * 8192);
}

TEST(ReplayTest, StopFlagEndsTheReplayAndMarksItInterrupted) {
  TempDir dir;
  const Trace t = Pattern("randrw", 1 << 20, 2, 200);
  ReplayTargets targets;
  targets.target = dir.File("data");
  targets.direct = false;
  std::atomic<bool> stop{true};
  ReplayOptions o;
  o.engine = "psync";
  o.duration_ns = 3600LL * 1000000000;  // Would run for an hour.
  o.stop = &stop;
  PreparedReplay prepared;
  auto out = ReplayTrace(t.header, t.records, targets, o, &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE(out->interrupted);
  EXPECT_EQ(out->transactions, 0u);
  stop = false;
  o.duration_ns = 0;
  out = ReplayTrace(t.header, t.records, targets, o, &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_FALSE(out->interrupted);
  EXPECT_EQ(out->transactions, 400u);
}

TEST(ReplayTest, SeparateWalTargetGetsWalRecords) {
  TempDir dir;
  Trace t;
  t.header.files = {{0, "accounts", IoStream::kData, 1 << 20}, {7, "wal", IoStream::kWal, 1 << 20}};
  for (uint64_t i = 0; i < 10; ++i) {
    t.records.push_back({0, 0, i, 0, IoStream::kData, IoOp::kRead, 0, int64_t(i) * 8192, 8192});
    t.records.push_back({0, 0, i, 0, IoStream::kWal, IoOp::kFsync, 7, 0, 0});
    t.records.push_back({0, 0, i, 0, IoStream::kWal, IoOp::kWrite, 7, int64_t(i) * 8192, 8192});
  }
  ReplayTargets targets;
  targets.target = dir.File("data");
  targets.wal_target = dir.File("wal");
  auto out = Replay(t, targets, "psync");
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->devices.size(), 2u);
  EXPECT_EQ(out->devices[0].reads, 10u);
  EXPECT_EQ(out->devices[0].writes, 0u);
  EXPECT_EQ(out->devices[1].writes, 10u);
  EXPECT_EQ(out->devices[1].fsyncs, 10u);
  EXPECT_EQ(out->wal_write.count(), 10u);
  // Closed loop reorders inside a transaction: the fsync runs after the WAL write, so
  // the WAL content is on the WAL file, starting at offset 0.
  EXPECT_NE(ReadAll(dir.File("wal"))[0], 0);
}

// Replays `t` onto a new file and expects the refusal of its last record (9) before
// the target is created.
void ExpectLastRecordRefusedBeforeAnyIo(const Trace& t) {
  TempDir dir;
  ReplayTargets targets;
  targets.target = dir.File("data");
  auto out = Replay(t, targets, "psync");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("trace record 9"), std::string::npos)
      << out.status().message();
  EXPECT_EQ(access(dir.File("data").c_str(), F_OK), -1) << "target touched before refusal";
}

TEST(ReplayTest, BadRecordRefusedBeforeAnyIo) {
  Trace t = Pattern("randwrite", 1 << 20, 1, 10);
  t.records.back().offset_bytes = 2 << 20;
  ExpectLastRecordRefusedBeforeAnyIo(t);
}

// A record whose offset + length overflows is refused by the check before any I/O.
TEST(ReplayTest, OverflowingExtentRefusedBeforeAnyIo) {
  Trace t = Pattern("randwrite", 1 << 20, 1, 10);
  t.records.back().offset_bytes = INT64_MAX - 4095;
  t.records.back().length_bytes = 8192;
  ExpectLastRecordRefusedBeforeAnyIo(t);
}

}  // namespace
}  // namespace pgstorsim
