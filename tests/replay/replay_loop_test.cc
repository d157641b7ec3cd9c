// Open loop, duration and report/results of the replay core (null engine: no I/O).
#include <gtest/gtest.h>

#include <sstream>

#include "common/results.h"
#include "common/units.h"
#include "replay/pattern.h"
#include "replay/report.h"
#include "replay/session.h"
#include "replay_test_util.h"

namespace pgstorsim {
namespace {

TraceHeader OneFile() {
  TraceHeader h;
  h.files = {{0, "accounts", IoStream::kData, 1 << 20}, {7, "wal", IoStream::kWal, 1 << 20}};
  return h;
}

// Files are placed by the filesystem's block (layout/fs_mapping.h NextFileStart), as
// the simulator places relations: the WAL after a 100000-byte data file starts on the
// next 64 KiB block, or the next 8 KiB page on a raw device.
TEST(ReplayLoopTest, FilesStartOnFilesystemBlocks) {
  TraceHeader h;
  h.files = {{0, "accounts", IoStream::kData, 100000}, {1, "wal", IoStream::kWal, 1 << 20}};
  EXPECT_EQ(PlaceFiles(h, false, {32256, 65536, 8192}).files[1].base_bytes, 131072);
  EXPECT_EQ(PlaceFiles(h, false, FsGeometry()).files[1].base_bytes, 106496);
  const Placement separate = PlaceFiles(h, true, {32256, 65536, 8192});
  EXPECT_EQ(separate.files[1].base_bytes, 0);
  EXPECT_EQ(separate.data_volume_bytes, 131072);
}

// With UFS cylinder groups a relation's 1 GiB segments are spread as the simulator
// spreads them (FileSpread), a pattern trace's file as one file; the WAL follows the
// data's span.
TEST(ReplayLoopTest, FilesSpreadOverCylinderGroups) {
  const int64_t group = 40195LL * 65536, section = 8192LL * 65536, gib = 1LL << 30;
  const FsGeometry ufs{0, 65536, 8192, group, section};
  TraceHeader h;
  h.files = {{0, "accounts", IoStream::kData, 2 * gib}, {1, "wal", IoStream::kWal, 1 << 20}};
  const Placement p = PlaceFiles(h, false, ufs);
  EXPECT_EQ(p.files[0].VolumeOffset(gib), group + section);
  EXPECT_EQ(p.files[1].base_bytes, 2 * (group + section));
  h.meta["pattern"] = "random";
  const Placement one = PlaceFiles(h, false, ufs);
  EXPECT_EQ(one.files[0].VolumeOffset(gib), 2 * group);
  EXPECT_EQ(one.files[1].base_bytes, 3 * group + section);
}

TEST(ReplayLoopTest, OpenLoopIssuesAtTraceTimes) {
  TempDir dir;
  std::vector<TraceRecord> records;
  // Two clients, one read every 20 ms each; the last is scheduled at 180 ms.
  for (uint64_t i = 0; i < 10; ++i) {
    records.push_back({static_cast<int64_t>(i) * 20 * kNsPerMs, static_cast<uint32_t>(i % 2), i, 0,
                       IoStream::kData, IoOp::kRead, 0, static_cast<int64_t>(i) * 8192, 8192});
  }
  ReplayTargets targets;
  targets.target = dir.File("data");
  ReplayOptions options;
  options.engine = "null";
  options.open_loop = true;
  PreparedReplay prepared;
  auto out = ReplayTrace(OneFile(), records, targets, options, &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_GE(out->elapsed_ns, 180 * kNsPerMs);
  EXPECT_EQ(out->workers, 2);
  EXPECT_EQ(out->data_read.count(), 10u);
}

TEST(ReplayLoopTest, DurationRepeatsTheTraceUntilItEnds) {
  TempDir dir;
  std::vector<TraceRecord> records = {{0, 0, 0, 0, IoStream::kData, IoOp::kWrite, 0, 0, 8192},
                                      {0, 0, 0, 0, IoStream::kWal, IoOp::kWrite, 7, 0, 8192},
                                      {0, 0, 0, 0, IoStream::kWal, IoOp::kFsync, 7, 0, 0}};
  ReplayTargets targets;
  targets.target = dir.File("data");
  ReplayOptions options;
  options.engine = "null";
  options.duration_ns = 50 * kNsPerMs;
  PreparedReplay prepared;
  auto out = ReplayTrace(OneFile(), records, targets, options, &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_GE(out->elapsed_ns, options.duration_ns);
  EXPECT_GE(out->transactions, 1u);
  // One worker: every commit flushes its own WAL (write and fsync), none waits for
  // another's; the fsync row counts data files only.
  EXPECT_EQ(out->wal_write.count(), out->transactions);
  EXPECT_EQ(out->wal_commits, out->transactions);
  EXPECT_EQ(out->wal_flushes, out->transactions);
  EXPECT_EQ(out->fsync.count(), 0u);
  // WAL after the data on the same target: data file at 0, WAL at 1 MiB.
  EXPECT_EQ(prepared.placement.files[7].base_bytes, 1 << 20);
  EXPECT_EQ(prepared.targets[0].size_bytes, 2 << 20);
}

TEST(ReplayLoopTest, ReportAndResultsDescribeTheRun) {
  TempDir dir;
  const Trace t = Pattern("randrw", 1 << 20, 2, 100, /*seed=*/1);
  ReplayTargets targets;
  targets.use_array = true;
  targets.array.level = RaidLevel::kRaid1;
  targets.members = {dir.File("a"), dir.File("b")};
  ReplayOptions options;
  options.engine = "psync";
  PreparedReplay prepared;
  auto out = ReplayTrace(t.header, t.records, targets, options, &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  std::ostringstream text;
  PrintIntervalTable(*out, options.interval_ns, text);
  PrintSummary(*out, prepared, text);
  EXPECT_NE(text.str().find("read:"), std::string::npos);
  EXPECT_NE(text.str().find("data member 1"), std::string::npos);
  EXPECT_NE(text.str().find("tps ="), std::string::npos);

  Results r = MakeReplayResults(*out, prepared, options.interval_ns, {{"k", 1}}, t.header.meta);
  const std::string path = dir.File("r.json");
  ASSERT_TRUE(SaveResults(path, r).ok());
  auto loaded = LoadResults(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->kind, "replay");
  EXPECT_EQ(loaded->transactions, 200u);
  const auto& devices = loaded->sections["devices"];
  ASSERT_EQ(devices.size(), 2u);
  uint64_t reads = 0;
  for (const auto& d : devices) {
    EXPECT_EQ(d["writes"].get<uint64_t>(), out->data_write.count());  // Both mirrors.
    reads += d["reads"].get<uint64_t>();
    EXPECT_GE(d["busy_ns"].get<int64_t>(), 0);
  }
  EXPECT_EQ(reads, out->data_read.count());  // Each read from one copy.
  EXPECT_EQ(loaded->statements.size(), 4u);
  EXPECT_FALSE(loaded->series.empty());
}

}  // namespace
}  // namespace pgstorsim

namespace pgstorsim {
namespace {

// Member I/O that fails (here: writes through a read-only descriptor, EBADF) is
// counted per access, transaction and device; the replay carries on.
TEST(ReplayLoopTest, IoErrorsAreCountedNotFatal) {
  TempDir dir;
  WriteFile(dir.File("data"), std::vector<uint8_t>(2 << 20, 0));
  const Trace t = Pattern("randrw", 1 << 20, 1, 40, /*seed=*/1);
  auto volume = Volume::Create({0}, nullptr, FsGeometry());
  ASSERT_TRUE(volume.ok());
  ReplaySetup setup;
  setup.targets = {{dir.File("data"), /*writable=*/false, /*direct=*/true}};
  setup.data_volume = volume->get();
  setup.placement = PlaceFiles(t.header, false, FsGeometry());
  ReplayOptions options;
  options.engine = "psync";
  auto out = RunReplay(t.records, setup, options);
  ASSERT_TRUE(out.ok()) << out.status().message();
  const uint64_t writes = out->data_write.count();
  ASSERT_GT(writes, 0u);
  EXPECT_EQ(out->records, 40u);
  EXPECT_EQ(out->failed_records, writes);
  EXPECT_EQ(out->failed_transactions, writes);
  EXPECT_EQ(out->member_errors, writes);
  EXPECT_EQ(out->devices[0].errors, writes);
  EXPECT_EQ(out->devices[0].reads, out->data_read.count());
  PreparedReplay prepared;
  prepared.targets.push_back({dir.File("data")});
  prepared.roles.push_back("data");
  Results r = MakeReplayResults(*out, prepared, kNsPerSec, {}, {});
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.failed, writes);
}

}  // namespace
}  // namespace pgstorsim

namespace pgstorsim {
namespace {

// Rows handed out live while the replay runs are, in order, exactly the final table.
TEST(ReplayLoopTest, LiveIntervalsEqualFinalTable) {
  TempDir dir;
  const Trace t = Pattern("randrw", 1 << 20, 3, 100000, /*seed=*/1);
  ReplayTargets targets;
  targets.target = dir.File("data");
  ReplayOptions options;
  options.engine = "null";
  options.duration_ns = 60 * kNsPerMs;
  options.interval_ns = 10 * kNsPerMs;
  std::vector<size_t> indexes;
  std::vector<IntervalStats> rows;
  options.on_interval = [&](size_t i, const IntervalStats& row, double seconds) {
    indexes.push_back(i);
    rows.push_back(row);
    EXPECT_GT(seconds, 0);
    EXPECT_LE(seconds, 0.010 + 1e-9);
  };
  PreparedReplay prepared;
  auto out = ReplayTrace(t.header, t.records, targets, options, &prepared);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(rows.size(), out->intervals.size());
  uint64_t total = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(indexes[i], i);
    EXPECT_EQ(rows[i].reads.count, out->intervals[i].reads.count);
    EXPECT_EQ(rows[i].writes.count, out->intervals[i].writes.count);
    EXPECT_EQ(rows[i].transactions, out->intervals[i].transactions);
    total += rows[i].transactions;
  }
  EXPECT_EQ(total, out->transactions);
}

}  // namespace
}  // namespace pgstorsim
