#include "sim/controller.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "common/units.h"
#include "controller_driver.h"
#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

VolumeOp RandomRead8k(Random& r, int64_t within_unit_offset, int64_t length) {
  const int64_t unit = r.UniformInt(0, 100000);
  return {IoOp::kRead, unit * 65536 + within_unit_offset, length};
}

TEST(ControllerTest, ForkJoinSpanningTwoStripeUnitsIsSlower) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid0, 2, 65536);
  DriveRun one = Drive(NoCache(), g, 1, 3000, [](Random& r) { return RandomRead8k(r, 0, 16384); });
  DriveRun two =
      Drive(NoCache(), g, 1, 3000, [](Random& r) { return RandomRead8k(r, 57344, 16384); });
  EXPECT_EQ(one.stats.split_requests, 0u);
  EXPECT_EQ(two.stats.split_requests, 3000u);
  // Max of two independent positionings exceeds one: about 1/3 of a rotation more.
  EXPECT_GT(two.mean_ms, one.mean_ms * 1.15);
}

TEST(ControllerTest, WriteBackCommitIsFastWriteThroughIsRotationBound) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid10, 4, 65536);
  auto wal = [](Random&) { return VolumeOp{IoOp::kWrite, 1 << 20, 8192}; };
  SimControllerConfig wb;
  DriveRun back = Drive(wb, g, 1, 2000, wal);
  EXPECT_NEAR(back.mean_ms, 0.2, 0.01);
  EXPECT_GT(back.stats.write_absorbed, 1800u);  // Not when its line is mid-destage.
  SimControllerConfig wt;
  wt.write_back = false;
  DriveRun through = Drive(wt, g, 1, 2000, wal);
  // 15K rpm: rewriting the same block waits for one rotation (4 ms), a bit less.
  EXPECT_GT(through.mean_ms, 3.5);
  EXPECT_LT(through.mean_ms, 4.2);
}

TEST(ControllerTest, FiniteWriteCacheFillsThenWritesWaitForDestage) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid10, 4, 65536);
  SimControllerConfig cc;
  cc.write_cache_bytes = 4 << 20;  // 512 pages.
  auto random_write = [](Random& r) {
    return VolumeOp{IoOp::kWrite, r.UniformInt(0, 30000000) * 8192, 8192};  // 245 GB.
  };
  DriveRun run = Drive(cc, g, 8, 20000, random_write);
  EXPECT_GT(run.stats.write_blocked, 10000u);
  // Elevator destage over 512 dirty lines shortens seeks (~0.5 ms over 245 GB):
  // each pair then writes in ~2.6 ms. FIFO destage pays a full random seek (~5.5 ms).
  EXPECT_LT(run.rate, 900.0);
  EXPECT_GT(run.rate, 600.0);
  SimControllerConfig fifo = cc;
  fifo.destage_order = DestageOrder::kFifo;
  DriveRun fifo_run = Drive(fifo, g, 8, 20000, random_write);
  EXPECT_GT(fifo_run.rate, 250.0);
  EXPECT_LT(fifo_run.rate, 450.0);
  EXPECT_LE(run.stats.max_dirty_bytes, 4 << 20);
  // The same load with a cache that never fills runs at the ack rate.
  cc.write_cache_bytes = 1LL << 30;
  DriveRun big = Drive(cc, g, 8, 20000, random_write);
  EXPECT_EQ(big.stats.write_blocked, 0u);
  EXPECT_GT(big.rate, 10 * run.rate);
}

TEST(ControllerTest, ReadsQueueBehindDestage) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid1, 2, 65536);
  SimControllerConfig cc;
  cc.read_ahead = ReadAhead::kNone;
  cc.read_cache_bytes = 0;
  cc.destage_start_fraction = 0;  // Destage at once.
  auto reads = [](Random& r) { return RandomRead8k(r, 0, 8192); };
  DriveRun alone = Drive(cc, g, 1, 2000, reads);
  // Mixed: every other request a random write that the cache absorbs and destages.
  auto mixed = [&](Random& r) {
    if (r.UniformInt(0, 1) == 0)
      return VolumeOp{IoOp::kWrite, r.UniformInt(0, 900000) * 8192, 8192};
    return RandomRead8k(r, 0, 8192);
  };
  DriveRun busy = Drive(cc, g, 4, 8000, mixed);
  EXPECT_GT(busy.stats.destages, 1000u);
  EXPECT_GT(busy.mean_ms, alone.mean_ms);
}

TEST(ControllerTest, MirrorReadsGoToBothCopies) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid1, 2, 65536);
  DriveRun run = Drive(NoCache(), g, 4, 4000, [](Random& r) { return RandomRead8k(r, 0, 8192); });
  const uint64_t r0 = run.controller->member(0).stats().reads;
  const uint64_t r1 = run.controller->member(1).stats().reads;
  EXPECT_EQ(r0 + r1, 4000u);
  EXPECT_NEAR(static_cast<double>(r0) / (r0 + r1), 0.5, 0.05);
}

TEST(ControllerTest, Raid5SmallWriteThroughReadsThenWritesParity) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid5, 4, 65536);
  SimControllerConfig wt = NoCache();
  DriveRun run = Drive(wt, g, 1, 500, [](Random& r) {
    return VolumeOp{IoOp::kWrite, r.UniformInt(0, 100000) * 8192, 8192};
  });
  uint64_t reads = 0, writes = 0;
  for (int i = 0; i < 4; ++i) {
    reads += run.controller->member(i).stats().reads;
    writes += run.controller->member(i).stats().writes;
  }
  EXPECT_EQ(reads, 1000u);   // Old data + old parity.
  EXPECT_EQ(writes, 1000u);  // New data + new parity.
  DriveRun r0 = Drive(wt, Geometry(RaidLevel::kRaid0, 4, 65536), 1, 500, [](Random& r) {
    return VolumeOp{IoOp::kWrite, r.UniformInt(0, 100000) * 8192, 8192};
  });
  EXPECT_GT(run.mean_ms, 1.5 * r0.mean_ms);
}

TEST(ControllerTest, ReadAheadAlwaysAddsTransferTimeToRandomReads) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid0, 2, 1 << 20);
  SimControllerConfig none;
  none.read_ahead = ReadAhead::kNone;
  SimControllerConfig always = none;
  always.read_ahead = ReadAhead::kAlways;
  auto reads = [](Random& r) {
    return VolumeOp{IoOp::kRead, r.UniformInt(0, 1000000) * 8192, 8192};
  };
  DriveRun a = Drive(none, g, 1, 2000, reads);
  DriveRun b = Drive(always, g, 1, 2000, reads);
  EXPECT_GT(b.stats.read_ahead_bytes, 0);
  EXPECT_GT(b.mean_ms, a.mean_ms + 1.0);  // ~ half a MiB at 150 MB/s.
}

TEST(ControllerTest, AdaptiveReadAheadHelpsSequentialReads) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid0, 2, 65536);
  SimControllerConfig adaptive;  // Default.
  DriveRun run = Drive(adaptive, g, 1, 2000, Sequential(IoOp::kRead, 8192));
  EXPECT_GT(run.stats.read_hits, 1500u);
}

TEST(ControllerTest, RejectsBadGeometryNamingArray) {
  Simulator sim(1);
  auto c = Controller::Create(SimControllerConfig(), Geometry(RaidLevel::kRaid10, 3, 65536),
                              SimDiskConfig(), sim);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().rfind("array", 0), 0u) << c.status().message();
}

// Calibrated destage (DiskOp::position_ns) costs one positioning per stripe-unit piece
// per copy: a misaligned 64 KiB block (63-sector offset) inside a 1 MiB stripe unit is
// two 64 KiB cache lines but one destage run (the second line streams), while on a
// 32 KiB stripe its three pieces are three commands per copy, although the first and
// third are contiguous on their pair's disks (units k and k+2).
double PositioningsPerBlockCopy(int64_t stripe) {
  auto busy_ms = [&](int64_t position_ns) {
    SimControllerConfig cc;
    cc.write_cache_bytes = 8 << 20;
    cc.destage_start_fraction = 0;
    cc.destage_position_ns = position_ns;
    cc.read_ahead = ReadAhead::kNone;
    SimDiskConfig disk;
    disk.scheduler = DiskScheduler::kFifo;
    DriveRun run = Drive(
        cc, Geometry(RaidLevel::kRaid10, 4, stripe), 4, 2000,
        [](Random& r) {
          return VolumeOp{IoOp::kWrite, r.UniformInt(0, 100000) * 65536 + 32256, 65536};
        },
        disk);
    double ms = 0;
    for (int m = 0; m < run.controller->members(); ++m)
      ms += run.controller->member(m).stats().busy_ns / 1e6;
    return ms;
  };
  const double position_ms = 2;
  return (busy_ms(MsToNs(position_ms)) - busy_ms(0)) / position_ms / (2000 * 2);
}

TEST(ControllerTest, CalibratedDestagePaysOnePositioningPerStripeUnitPiece) {
  EXPECT_NEAR(PositioningsPerBlockCopy(1 << 20), 1 + 1.0 / 16, 0.05);  // 1/16 straddle.
  EXPECT_NEAR(PositioningsPerBlockCopy(32 << 10), 3, 0.1);
}

// A throttled device counts the host's I/O: a misaligned 64 KiB block write on a
// 32 KiB RAID 10 is one I/O per disk (4), not one per stripe-unit piece (6).
uint64_t MemberWritesPerBlockWrite(bool host_counted) {
  SimControllerConfig cc = NoCache();
  cc.host_counted_writes = host_counted;
  const int writes = 200;
  DriveRun run = Drive(cc, Geometry(RaidLevel::kRaid10, 4, 32 << 10), 1, writes, [](Random& r) {
    return VolumeOp{IoOp::kWrite, r.UniformInt(0, 100000) * 65536 + 32256, 65536};
  });
  uint64_t member_writes = 0;
  for (int m = 0; m < run.controller->members(); ++m)
    member_writes += run.controller->member(m).stats().writes;
  return member_writes / writes;
}

TEST(ControllerTest, HostCountedWritesMergePiecesContiguousOnAMember) {
  EXPECT_EQ(MemberWritesPerBlockWrite(false), 6u);
  EXPECT_EQ(MemberWritesPerBlockWrite(true), 4u);
}

// whole_block_reads (calibration key): a misaligned 64 KiB block read on a 32 KiB-stripe
// RAID 10 spans both pairs; with the key one of its two member commands positions and
// the other only transfers, so the disks' busy time per read is about halved (one
// positioning instead of two, the transfer unchanged), the read no longer waits for
// the slower of two positionings, and the positionings alternate between the pairs.
struct SplitReads {
  double busy_ms_per_read, mean_ms, pair_a_ms, pair_b_ms;
  uint64_t split;
};

SplitReads MisalignedBlockReads(bool whole_block_reads) {
  SimControllerConfig cc = NoCache();
  cc.whole_block_reads = whole_block_reads;
  SimDiskConfig disk;
  disk.scheduler = DiskScheduler::kFifo;
  const int reads = 3000;
  DriveRun run = Drive(
      cc, Geometry(RaidLevel::kRaid10, 4, 32 << 10), 1, reads,
      [](Random& r) {
        return VolumeOp{IoOp::kRead, r.UniformInt(0, 100000) * 65536 + 32256, 65536};
      },
      disk);
  std::vector<double> ms;
  for (int m = 0; m < run.controller->members(); ++m)
    ms.push_back(run.controller->member(m).stats().busy_ns / 1e6);
  return {(ms[0] + ms[1] + ms[2] + ms[3]) / reads, run.mean_ms, ms[0] + ms[1], ms[2] + ms[3],
          run.stats.split_requests};
}

TEST(ControllerTest, WholeBlockReadsPayOnePositioningPerSplitRead) {
  const SplitReads pieces = MisalignedBlockReads(false);
  const SplitReads whole = MisalignedBlockReads(true);
  EXPECT_EQ(pieces.split, 3000u);
  EXPECT_EQ(whole.split, 3000u);
  const double ratio = whole.busy_ms_per_read / pieces.busy_ms_per_read;
  EXPECT_GT(ratio, 0.4);
  EXPECT_LT(ratio, 0.6);
  EXPECT_LT(whole.mean_ms,
            0.9 * pieces.mean_ms);  // 2.8 vs 3.5 ms: one rotation, not the max of two.
  EXPECT_NEAR(whole.pair_a_ms / whole.pair_b_ms, 1, 0.15);
}

// Every disk of a RAID 10 takes its share of split reads and of their positionings:
// misaligned 64 KiB blocks on a 32 KiB stripe have two member commands per read, one
// per pair; each pair's copies alternate and the positioning goes to the member that
// positioned least. (A turn shared by all pieces, and a positioning turn over the
// pieces, fell in step: one disk of each pair took 97 % of the reads and all
// positionings.)
TEST(ControllerTest, SplitMirrorReadsSpreadOverEveryDisk) {
  for (const bool whole_block_reads : {false, true}) {
    SimControllerConfig cc = NoCache();
    cc.whole_block_reads = whole_block_reads;
    DriveRun run = Drive(cc, Geometry(RaidLevel::kRaid10, 4, 32 << 10), 1, 4000, [](Random& r) {
      return VolumeOp{IoOp::kRead, r.UniformInt(0, 100000) * 65536 + 32256, 65536};
    });
    double busy_ms[4];
    for (int m = 0; m < 4; ++m) {
      const auto& stats = run.controller->member(m).stats();
      EXPECT_NEAR(static_cast<double>(stats.reads), 2000, 100)
          << "member " << m << " whole_block_reads " << whole_block_reads;
      busy_ms[m] = stats.busy_ns / 1e6;
    }
    for (int m = 1; m < 4; ++m) {
      EXPECT_NEAR(busy_ms[m] / busy_ms[0], 1, 0.1)
          << "member " << m << " whole_block_reads " << whole_block_reads;
    }
  }
}

// One sequential stream of misaligned 64 KiB reads on a 32 KiB-stripe RAID 10: each
// member read continues where that copy's last read ended, so the stream stays on one
// disk of each pair and streams (the drives' look-ahead, no positioning); alternating
// the copies made every read position. With controller read-ahead the next read starts
// inside the range read ahead: only the rest comes from the disks, and it too streams.
TEST(ControllerTest, ASequentialStreamStaysOnTheCopyWhoseHeadIsThere) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid10, 4, 32 << 10);
  auto stream = [next = int64_t{32256}](Random&) mutable {
    const VolumeOp request{IoOp::kRead, next, 65536};
    next += 65536;
    return request;
  };
  SimDiskConfig disk;
  disk.sustained_bytes_per_s = 160.0 * 1048576;
  const double transfer_ms = 65536 / disk.sustained_bytes_per_s * 1e3;
  for (const ReadAhead read_ahead : {ReadAhead::kNone, ReadAhead::kAdaptive}) {
    SimControllerConfig cc;
    cc.read_ahead = read_ahead;
    DriveRun run = Drive(cc, g, 1, 4000, stream, disk);
    // Two pieces of half a read each in parallel: about half the read's transfer, far
    // below a positioning (a seek and half a turn, several ms).
    EXPECT_LT(run.mean_ms, 0.5 * transfer_ms + 0.2) << static_cast<int>(read_ahead);
    int serving = 0;
    for (int m = 0; m < 4; ++m) serving += run.controller->member(m).stats().reads > 100 ? 1 : 0;
    EXPECT_EQ(serving, 2) << static_cast<int>(read_ahead);
  }
}

}  // namespace
}  // namespace pgstorsim::sim
