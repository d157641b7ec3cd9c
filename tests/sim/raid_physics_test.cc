// Physics before fitting: each storage mechanism of the simulator alone against an
// independent reference.
//   - One 15K rpm disk (Hitachi Ultrastar 15K600 datasheet: 3.4 ms average read seek,
//     2.0 ms average rotational latency): random 8 KiB reads over the whole disk at
//     queue depth 1 cost seek + half a rotation + transfer (the datasheet's own IOPS
//     formula, ~180/s); at queue depth 32 shortest-access-time-first reordering gains
//     what published 15K drive measurements show (about 2-2.5x QD1).
//   - RAID 0 / 10 / 5 / 6 random 8 KiB read and write IOPS of N disks of D IOPS each
//     (exponential servers, no cache): the textbook N x D for reads and N x D / p for
//     writes with the small-write penalty p = 1, 2, 4, 6.
//   - RAID 5 behind a write-back cache: sequential writes gather whole stripes and
//     are written without read-modify-write; a write over two units of one stripe
//     updates the parity once.
//   - An SSD of c channels serves min(queue depth, c) reads at once.
#include <gtest/gtest.h>

#include "controller_driver.h"
#include "sim/disk.h"

namespace pgstorsim::sim {
namespace {

constexpr int64_t kDiskBytes = 300LL * 1000 * 1000 * 1000;

SimDiskConfig Ultrastar15k() {
  SimDiskConfig d;
  d.kind = DiskKind::kHdd;
  d.rpm = 15000;
  d.avg_seek_ns = 3'400'000;
  d.avg_write_seek_ns = 3'900'000;
  d.track_to_track_ns = 200'000;
  d.capacity_bytes = kDiskBytes;
  return d;
}

VolumeOp RandomOver(Random& r, IoOp op, int64_t span_bytes) {
  return {op, r.UniformInt(0, span_bytes / 8192 - 1) * 8192, 8192};
}

double DiskIops(SimDiskConfig d, int queue_depth) {
  d.queue_depth = queue_depth;
  d.scheduler = queue_depth > 1 ? DiskScheduler::kSatf : DiskScheduler::kFifo;
  DriveRun run = Drive(NoCache(), Geometry(RaidLevel::kRaid0, 1, 65536), queue_depth, 20000,
                       [](Random& r) { return RandomOver(r, IoOp::kRead, kDiskBytes); }, d);
  return run.rate;
}

TEST(RaidPhysics, DiskIopsAtQd1AndQd32MatchTheDatasheet) {
  const SimDiskConfig d = Ultrastar15k();
  // Datasheet: 1 / (3.4 ms seek + 2.0 ms rotation + 8 KiB at ~150 MB/s + command).
  const double datasheet_qd1 = 1000.0 / (3.4 + 2.0 + 0.05 + 0.05);
  const double qd1 = DiskIops(d, 1);
  EXPECT_NEAR(qd1, datasheet_qd1, 0.05 * datasheet_qd1);
  const double qd32 = DiskIops(d, 32);
  RecordProperty("qd1_iops", std::to_string(qd1));
  RecordProperty("qd32_iops", std::to_string(qd32));
  EXPECT_GT(qd32, 2.0 * qd1);
  EXPECT_LT(qd32, 2.6 * qd1);
}

struct Penalty {
  RaidLevel level;
  double write_ios;
};

TEST(RaidPhysics, ArrayIopsFollowTheTextbookPenalties) {
  SimDiskConfig d;
  d.kind = DiskKind::kExponential;
  d.mean_service_ns = 5'000'000;  // D = 200 I/Os per second per disk.
  const int n = 8;
  const double disk_iops = 200;
  for (const Penalty& p : {Penalty{RaidLevel::kRaid0, 1}, Penalty{RaidLevel::kRaid10, 2},
                           Penalty{RaidLevel::kRaid5, 4}, Penalty{RaidLevel::kRaid6, 6}}) {
    SCOPED_TRACE(RaidLevelName(p.level));
    const ArrayGeometry g = Geometry(p.level, n, 65536);
    // 64 requests per disk keep every disk busy (closed system near saturation).
    DriveRun reads = Drive(NoCache(), g, 64 * n, 40000,
                           [](Random& r) { return RandomOver(r, IoOp::kRead, 64LL << 30); }, d);
    EXPECT_NEAR(reads.rate, n * disk_iops, 0.04 * n * disk_iops);
    DriveRun writes = Drive(NoCache(), g, 64 * n, 20000,
                            [](Random& r) { return RandomOver(r, IoOp::kWrite, 64LL << 30); }, d);
    const double textbook = n * disk_iops / p.write_ios;
    EXPECT_NEAR(writes.rate, textbook, 0.04 * textbook);
  }
}

TEST(RaidPhysics, WriteBackCacheGathersFullRaid5Stripes) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid5, 5, 65536);
  SimControllerConfig wb;  // Write-back, 256 MiB write cache.
  wb.write_cache_bytes = 64LL << 20;
  DriveRun seq = Drive(wb, g, 4, 20000, Sequential(IoOp::kWrite, 65536));
  EXPECT_GT(seq.stats.full_stripe_destages, 0u);
  uint64_t reads = 0;
  for (int i = 0; i < g.members; ++i) reads += seq.controller->member(i).stats().reads;
  EXPECT_EQ(reads, 0u);  // No read-modify-write.
  // Random 8 KiB writes never fill a stripe: every destage reads old data and parity.
  DriveRun random = Drive(wb, g, 4, 20000, [](Random& r) {
    return RandomOver(r, IoOp::kWrite, 64LL << 30);
  });
  EXPECT_EQ(random.stats.full_stripe_destages, 0u);
}

// A 64 KiB write across two stripe units of one RAID 5 stripe is two cache lines; the
// controller destages them together, so the parity is read once: 3 pre-reads (two
// data pieces and the parity) per destage, not 2 x 2.
TEST(RaidPhysics, WriteBackCacheDestagesPerStripe) {
  const ArrayGeometry g = Geometry(RaidLevel::kRaid5, 5, 65536);
  SimControllerConfig wb;
  wb.write_cache_bytes = 16LL << 20;
  DriveRun run = Drive(wb, g, 4, 20000, [](Random& r) {
    const int64_t row = r.UniformInt(0, 100000);
    return VolumeOp{IoOp::kWrite, row * 4 * 65536 + 32768, 65536};  // Units 0 and 1.
  });
  uint64_t reads = 0;
  for (int i = 0; i < g.members; ++i) reads += run.controller->member(i).stats().reads;
  ASSERT_GT(run.stats.destages, 1000u);
  EXPECT_NEAR(static_cast<double>(reads) / run.stats.destages, 3.0, 0.1);
}

TEST(RaidPhysics, SsdChannelsServeMinOfQueueAndChannels) {
  SimDiskConfig d;
  d.kind = DiskKind::kSsd;
  d.ssd_channels = 8;
  d.ssd_read_ns = 90'000;
  d.sustained_bytes_per_s = 400e6;
  // A channel's read: latency + transfer; the controller's command overhead (30 us) is
  // a delay on each request's path, not a channel's time: QD requests cycle through
  // it and a channel, so the rate is min(QD / (S + overhead), c / S).
  const double service_s = 90e-6 + 8192 / 400e6;
  const double overhead_s = 30e-6;
  for (int qd : {1, 4, 8, 32}) {
    SCOPED_TRACE(qd);
    d.queue_depth = qd;
    DriveRun run = Drive(NoCache(), Geometry(RaidLevel::kRaid0, 1, 65536), qd, 20000,
                         [](Random& r) { return RandomOver(r, IoOp::kRead, 64LL << 30); }, d);
    const double expected = std::min(qd / (service_s + overhead_s), 8 / service_s);
    EXPECT_NEAR(run.rate, expected, 0.03 * expected);
  }
}

}  // namespace
}  // namespace pgstorsim::sim
