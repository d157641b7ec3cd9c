// The io workload's analytic model against independent references: a disk's
// positioning physics at QD1, the MVA bound at depth, the transfer rate of a sequential
// stream, and the file lock of a filesystem that serialises writes.
#include "model/io_workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/calibration.h"
#include "scenario/scenario.h"
#include "support/m5110e.h"

namespace pgstorsim {
namespace {

Scenario Io(std::vector<std::string> sets) {
  std::vector<std::string> base = {"workload.type=io", "workload.io_size=4KiB",
                                   "workload.read_fraction=1", "workload.duration=60s",
                                   "workload.clients=1"};
  base.insert(base.end(), sets.begin(), sets.end());
  auto s = DefaultScenario(base);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : Scenario();
}

Prediction PredictOk(const Scenario& s) {
  auto p = PredictWith(s, ParamsFromScenario(s));
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : Prediction();
}

// One 15K disk behind an HBA, O_DIRECT 4 KiB random reads over the whole disk.
std::vector<std::string> OneDisk() {
  return {"controller.kind=hba",
          "controller.cache_size=0",
          "array.level=jbod",
          "array.disks=1",
          "disks.capacity=300GB",
          "workload.file_size=299GB",
          "workload.io_direct=on",
          "disks.rpm=15000rpm",
          "disks.avg_read_seek=3.4ms",
          "disks.transfer_rate=160MiB",
          "filesystem.partition_offset=1MiB"};
}

TEST(IoModel, RandomReadAtQd1IsSeekPlusHalfRotationPlusTransfer) {
  const Prediction p = PredictOk(Io(OneDisk()));
  // Datasheet physics: average seek over the whole disk, half a revolution at
  // 15000 rpm, 4 KiB at 160 MiB/s.
  const double service_ms = 3.4 + 30000.0 / 15000 + 4096.0 / (160.0 * 1048.576);
  EXPECT_NEAR(p.tps, 1000 / service_ms, 0.02 * 1000 / service_ms);
  EXPECT_NEAR(p.statement_latency_ms.at("read"), service_ms, 0.02 * service_ms);
  EXPECT_EQ(p.statement_latency_ms.count("write"), 0u);
  EXPECT_NEAR(p.bytes_per_s, p.tps * 4096, 1e-6 * p.bytes_per_s);
}

// RAID 5 small writes without a write-back cache (md behind an HBA, O_DIRECT, one job):
// the data and parity pre-reads in parallel (the slower of two random positionings:
// F(2) = 1 + 0.5 x (H_2 - 1) = 1.25 times one), then both writes where they read, each
// waiting for its sector to come round: one revolution (4 ms at 15000 rpm) from the
// pre-reads' start, the textbook extra rotation of a read-modify-write.
TEST(IoModel, Raid5SmallWriteIsTwoPreReadsThenOneRevolution) {
  std::vector<std::string> raid5 = OneDisk();
  for (const char* set :
       {"array.level=raid5", "array.disks=4", "array.stripe=64KiB", "workload.file_size=800GB"}) {
    raid5.push_back(set);
  }
  const double read_ms = PredictOk(Io(raid5)).statement_latency_ms.at("read");
  raid5.push_back("workload.read_fraction=0");
  const double write_ms = PredictOk(Io(raid5)).statement_latency_ms.at("write");
  const double revolution_ms = 60000.0 / 15000;
  EXPECT_NEAR(write_ms, 1.25 * read_ms + revolution_ms, 0.02 * write_ms)
      << "read " << read_ms << " ms";
}

// bonnie++'s seeks on the M5110e (3 jobs, 8 KiB chunks of a 48 GiB file, one in ten
// written back): the rewrite finds its UFS2 block cached, so only the reads reach the
// disks and the vnode lock is held for no I/O (read-bound, as the read-only jobs, less
// the write-back's destage load); the same writes to random blocks read them under the
// lock and serialise the jobs.
TEST(IoModel, ARewriteFindsItsBlockCachedAndHoldsTheLockForNoIo) {
  auto seeks = [](double read_fraction, bool rewrite) {
    std::vector<std::string> sets = {"workload.type=io", "workload.io_size=8KiB",
                                     "workload.file_size=48GiB", "workload.clients=3",
                                     "workload.read_fraction=" + std::to_string(read_fraction)};
    if (rewrite) sets.push_back("workload.io_rewrite=on");
    return PredictOk(testing_util::M5110eScenario(sets));
  };
  const Prediction rewrites = seeks(1 / 1.1, true), random = seeks(1 / 1.1, false);
  const Prediction reads = seeks(1, false);
  EXPECT_LT(rewrites.file_lock_utilization, 0.05);
  EXPECT_GT(random.file_lock_utilization, 0.9);
  EXPECT_GT(rewrites.tps, 2 * random.tps);
  EXPECT_LE(rewrites.tps, reads.tps);
  EXPECT_GT(rewrites.tps, 0.9 * reads.tps);
}

// UFS's cylinder groups spread a file over the disk: a 30 GB file with sections of an
// eighth of each group spans 240 GB, so its random reads seek over 80 % of the stroke
// (the square-root band of the seek curve), as a 240 GB file laid out contiguously.
TEST(IoModel, CylinderGroupsSpreadTheSeeks) {
  std::vector<std::string> small = OneDisk();
  small.push_back("filesystem.type=ufs2");
  small.push_back("workload.file_size=30GB");
  small.push_back("workload.io_direct=off");
  small.push_back("filesystem.block_size=64KiB");
  small.push_back("filesystem.fragment_size=8KiB");
  std::vector<std::string> spread = small;
  spread.push_back("filesystem.blocks_per_group=8000");
  spread.push_back("filesystem.max_blocks_per_group=1000");
  std::vector<std::string> large = small;
  large.push_back("workload.file_size=240GB");
  large.push_back("host.ram=4GiB");  // Both caches hold nothing worth counting.
  spread.push_back("host.ram=4GiB");
  small.push_back("host.ram=4GiB");
  const Prediction p_small = PredictOk(Io(small));
  const Prediction p_spread = PredictOk(Io(spread));
  const Prediction p_large = PredictOk(Io(large));
  EXPECT_LT(p_spread.read_service_ms, p_large.read_service_ms * 1.01);
  EXPECT_GT(p_spread.read_service_ms, p_large.read_service_ms * 0.99);
  EXPECT_GT(p_spread.read_service_ms, p_small.read_service_ms + 0.5);
}

TEST(IoModel, DepthSaturatesTheMembersOfARaid10) {
  std::vector<std::string> raid10 = OneDisk();
  raid10.insert(raid10.end(), {"array.level=raid10", "array.disks=4", "array.stripe=64KiB",
                               "controller.kind=raid", "controller.cache_size=512MiB",
                               "workload.file_size=500GB"});
  const double qd1 = PredictOk(Io(raid10)).tps;
  std::vector<std::string> deep = raid10;
  deep.push_back("workload.io_depth=32");
  std::vector<std::string> in_order = deep;
  in_order.push_back("io.queue_depth=1");
  const double qd32_in_order = PredictOk(Io(in_order)).tps;
  // QD1: one disk at a time; QD32 on drives that serve in order: all four mirrors'
  // members busy, close to four times QD1 and never above it.
  EXPECT_GT(qd32_in_order, 3.5 * qd1);
  EXPECT_LE(qd32_in_order, 4.0 * qd1 * 1.001);
  // Drives that reorder their queue (io.queue_depth 32) reach the reads queued at each
  // member sooner: above four times QD1.
  const double qd32 = PredictOk(Io(deep)).tps;
  EXPECT_GT(qd32, 1.3 * qd32_in_order);
}

TEST(IoModel, AMirrorPairServesReadsFromWhicheverCopyIsFree) {
  // Random 4 KiB O_DIRECT reads on two disks: RAID 0 sends each read to the disk that
  // holds it, RAID 1 to either copy (the less busy). Alone both cost one read; at
  // depth the pair queues less (one two-server queue, not two queues at random); both
  // saturate at two disks' rate.
  std::vector<std::string> raid0 = OneDisk(), raid1 = OneDisk();
  raid0.insert(raid0.end(), {"array.level=raid0", "array.disks=2", "array.stripe=1MiB",
                             "workload.file_size=200GB"});
  raid1.insert(raid1.end(), {"array.level=raid1", "array.disks=2", "workload.file_size=200GB"});
  auto at = [](std::vector<std::string> sets, int depth) {
    sets.push_back("workload.io_depth=" + std::to_string(depth));
    return PredictOk(Io(sets)).tps;
  };
  // A RAID 1 member spans the whole file, a RAID 0 member half of it (longer seeks):
  // compare each depth's ratio with depth 1's.
  const double alone = at(raid1, 1) / at(raid0, 1);
  EXPECT_GT(at(raid1, 3) / at(raid0, 3), 1.08 * alone);
  EXPECT_NEAR(at(raid1, 256) / at(raid0, 256), alone, 0.03 * alone);
}

TEST(IoModel, OneSequentialStreamRunsAtTheTransferRate) {
  std::vector<std::string> seq = OneDisk();
  seq.insert(seq.end(), {"workload.io_access=sequential", "workload.io_size=1MiB"});
  const Prediction p = PredictOk(Io(seq));
  EXPECT_NEAR(p.bytes_per_s, 160.0 * 1048576, 0.02 * 160.0 * 1048576);
}

TEST(IoModel, SequentialStreamsReadEachByteOnceAndPositionOncePerWindow) {
  // Buffered 8 KiB sequential reads in 64 KiB UFS2 blocks on one disk: the OS reads a
  // read-ahead window at a time, so a request costs its own 8 KiB of transfer (not its
  // whole block) and 8 KiB / window of a window's command (one stream: the drive's and
  // the HBA's time per command, no positioning; several streams interleaving: a
  // positioning): larger windows, fewer positionings.
  std::vector<std::string> base = OneDisk();
  base.insert(base.end(), {"workload.io_direct=off", "workload.io_access=sequential",
                           "workload.io_size=8KiB", "filesystem.type=ufs2",
                           "filesystem.block_size=64KiB", "filesystem.fragment_size=8KiB"});
  auto run = [&](const char* window, const char* clients) {
    std::vector<std::string> sets = base;
    sets.push_back(std::string("filesystem.os_readahead=") + window);
    sets.push_back(std::string("workload.clients=") + clients);
    return PredictOk(Io(sets));
  };
  const double transfer_ms = 8192.0 / (160.0 * 1048.576);
  const double command_ms =
      (DiskConfig::kHddCommandOverheadNs + ControllerConfig::kCommandOverheadNs) / 1e6;
  for (const auto& [window, window_bytes] : {std::pair("64KiB", 65536.0), {"1MiB", 1048576.0}}) {
    const double request_ms = transfer_ms + 8192.0 / window_bytes * command_ms;
    EXPECT_NEAR(run(window, "1").tps, 1000 / request_ms, 0.03 * 1000 / request_ms) << window;
  }
  const Prediction small = run("128KiB", "4"), large = run("1MiB", "4");
  EXPECT_GT(large.tps, 2 * small.tps);
  EXPECT_LT(large.tps, 1000 / transfer_ms);
}

TEST(IoModel, AStreamReadsTheRestOfEachStripeUnitTheControllerReadsAhead) {
  // One buffered 8 KiB stream, 64 KiB windows, one disk behind a RAID controller with a
  // cache and 1 MiB units: reading ahead, the controller reads each unit once (the
  // drive's and its own time per command, the unit's transfer) and serves the unit's
  // other 15 windows from its cache; without read-ahead, 16 commands a unit.
  std::vector<std::string> sets = OneDisk();
  sets.insert(sets.end(),
              {"controller.kind=raid", "controller.cache_size=512MiB", "array.stripe=1MiB",
               "workload.io_direct=off", "workload.io_access=sequential", "workload.io_size=8KiB",
               "filesystem.os_readahead=64KiB", "workload.clients=1"});
  std::vector<std::string> none = sets;
  none.push_back("controller.read_ahead=none");
  sets.push_back("controller.read_ahead=adaptive");
  const double command_ms =
      (DiskConfig::kHddCommandOverheadNs + ControllerConfig::kCommandOverheadNs) / 1e6;
  const double unit_transfer_ms = 1048576.0 / (160.0 * 1048.576);
  const double hit_ms = ControllerConfig::kReadHitNs / 1e6;
  const double requests = 128;  // 8 KiB requests a unit.
  const double ahead_ms = (command_ms + unit_transfer_ms + 15 * hit_ms) / requests;
  const double windows_ms = (16 * command_ms + unit_transfer_ms) / requests;
  EXPECT_NEAR(PredictOk(Io(sets)).tps, 1000 / ahead_ms, 0.02 * 1000 / ahead_ms);
  EXPECT_NEAR(PredictOk(Io(none)).tps, 1000 / windows_ms, 0.02 * 1000 / windows_ms);
  // A slower cache hit (calibration.controller_read_hit_ms, the simulator's key too).
  sets.push_back("calibration.controller_read_hit_ms=0.3");
  const double slow_hits_ms = (command_ms + unit_transfer_ms + 15 * 0.3) / requests;
  EXPECT_NEAR(PredictOk(Io(sets)).tps, 1000 / slow_hits_ms, 0.02 * 1000 / slow_hits_ms);
}

TEST(IoModel, ASplitReadWaitsForItsSlowerPieceAndKeepsBothBusy) {
  // O_DIRECT 8 KiB reads, one job, on a RAID 0 pair: at a 4 KiB stripe every read is
  // two 4 KiB pieces on the two disks, in parallel; at 1 MiB it is one command.
  std::vector<std::string> pair = OneDisk();
  pair.insert(pair.end(), {"array.level=raid0", "array.disks=2", "workload.io_size=8KiB"});
  std::vector<std::string> split = pair, whole = pair;
  split.push_back("array.stripe=4KiB");
  whole.push_back("array.stripe=1MiB");
  const Prediction one = PredictOk(Io(whole));
  const Prediction two = PredictOk(Io(split));
  const double transfer_4k_ms = 4096.0 / (160.0 * 1048.576);
  const double piece_ms = one.statement_latency_ms.at("read") - transfer_4k_ms;
  // The slower of two parallel pieces: 1 + w (H_2 - 1) = 1.25 of one (w = 0.5), not
  // the two in series (2.5 with the fork-join share, before 2026-12-07).
  EXPECT_NEAR(two.statement_latency_ms.at("read"), 1.25 * piece_ms, 0.02 * piece_ms);
  // Both pieces keep their disk busy: two commands a request between the disks.
  double busy = 0;
  for (const auto& d : two.devices) busy += d.utilization;
  EXPECT_NEAR(busy, two.tps * 2 * piece_ms / 1000, 0.02 * busy);
}

TEST(IoModel, MirroredSyncWriteWaitsForItsSlowerCopyAlone) {
  // O_DIRECT 4 KiB writes, one job, no controller cache: a single disk takes one write
  // command (datasheet write seek + half a revolution + transfer); a RAID 1 pair waits
  // for the slower of its two copies, which run in parallel: more than one command,
  // less than two in series, and its own second copy does not queue ahead of it.
  std::vector<std::string> one = OneDisk();
  one.insert(one.end(), {"workload.read_fraction=0", "disks.avg_write_seek=3.9ms",
                         "controller.write_policy=write-through"});
  const Prediction single = PredictOk(Io(one));
  const double command_ms = 3.9 + 30000.0 / 15000 + 4096.0 / (160.0 * 1048.576);
  EXPECT_NEAR(single.statement_latency_ms.at("write"), command_ms, 0.03 * command_ms);
  std::vector<std::string> mirror = one;
  mirror.insert(mirror.end(), {"array.level=raid1", "array.disks=2"});
  const Prediction pair = PredictOk(Io(mirror));
  const double pair_ms = pair.statement_latency_ms.at("write");
  // The model's fork-join charge for two parallel commands: 1 + w (H_2 - 1), w = 0.5.
  EXPECT_NEAR(pair_ms, 1.25 * command_ms, 0.03 * command_ms);
}

TEST(IoModel, TheRegimeNamesWhatTheJobsWaitFor) {
  // UFS2 holds the file's lock through a write's block read and its fsync: eight jobs
  // contend for it; one job alone is paced by its synchronous writes, or its reads.
  const std::vector<std::string> ufs = {
      "workload.io_size=8KiB",         "workload.io_fsync_writes=on",
      "workload.file_size=200GiB",     "host.ram=8GiB",
      "filesystem.type=ufs2",          "filesystem.block_size=64KiB",
      "filesystem.fragment_size=8KiB", "controller.write_policy=write-through"};
  struct Case {
    std::vector<std::string> sets;
    std::string regime;
  };
  for (const Case& c : std::vector<Case>{
           {{"workload.read_fraction=0", "workload.clients=8"}, "file-lock-bound"},
           {{"workload.read_fraction=0", "workload.clients=1"}, "write-bound"},
           {{"workload.read_fraction=1", "workload.clients=1"}, "read-bound"},
       }) {
    std::vector<std::string> sets = ufs;
    sets.insert(sets.end(), c.sets.begin(), c.sets.end());
    EXPECT_EQ(PredictOk(Io(sets)).regime, c.regime) << testing::PrintToString(c.sets);
  }
}

TEST(IoModel, UfsSerialisesFsyncedWritesOnTheFileLock) {
  // 8 KiB writes into 64 KiB UFS2 blocks, an fsync each, 8 jobs: every write holds the
  // vnode lock through its block's read and its fsync, so the jobs take turns; on ext4
  // with 4 KiB blocks nothing is read and the fsync runs outside the lock.
  const std::vector<std::string> randomio = {
      "workload.io_size=8KiB", "workload.read_fraction=0",  "workload.io_fsync_writes=on",
      "workload.clients=8",    "workload.file_size=200GiB", "host.ram=8GiB"};
  std::vector<std::string> ufs = randomio;
  ufs.insert(ufs.end(), {"filesystem.type=ufs2", "filesystem.block_size=64KiB",
                         "filesystem.fragment_size=8KiB"});
  const Scenario s = Io(ufs);
  EXPECT_TRUE(FileLockRulesFor(s).writes && FileLockRulesFor(s).fsync);
  const Prediction locked = PredictOk(s);
  EXPECT_EQ(locked.regime, "file-lock-bound");
  EXPECT_GT(locked.file_lock_utilization, 0.9);
  // Each write: a block read nearly always (8 GiB of a 200 GiB file cached) and the
  // acknowledgement; so the lock passes about 1 / (read + ack) writes per ms.
  const double per_write_ms = 1000 / locked.tps;
  EXPECT_GT(per_write_ms, 0.9 * locked.read_service_ms);
  EXPECT_LT(per_write_ms, 1.5 * locked.read_service_ms + 1);
  std::vector<std::string> ext4 = randomio;
  ext4.push_back("filesystem.type=ext4");
  const Prediction free = PredictOk(Io(ext4));
  EXPECT_GT(free.tps, 2 * locked.tps);
  EXPECT_FALSE(FileLockRulesFor(Io(ext4)).fsync);
}

TEST(IoModel, ALoneLockedWriteWaitsForNoOneElse) {
  // One job of 8 KiB writes with an fsync each on UFS2, write-through: the job holds
  // the vnode lock all the time, but only ever waits for its own block read and its
  // write's commands, so its latency has no queueing tail (its p95 is its block read
  // plus its write, not an exponential wait behind a lock held by itself).
  const Scenario s = Io({"workload.io_size=8KiB", "workload.read_fraction=0",
                         "workload.io_fsync_writes=on", "workload.file_size=200GiB",
                         "host.ram=8GiB", "filesystem.type=ufs2", "filesystem.block_size=64KiB",
                         "filesystem.fragment_size=8KiB", "controller.write_policy=write-through"});
  const Prediction p = PredictOk(s);
  EXPECT_GT(p.file_lock_utilization, 0.9);
  const double mean_ms = p.statement_latency_ms.at("write");
  const LatencyPercentiles& q = p.statement_percentiles.at("write");
  EXPECT_LE(q.p95_ms, 1.5 * mean_ms);
  EXPECT_GE(q.p95_ms, mean_ms);
}

TEST(IoModel, ColdCacheWarmsAndWarmCacheHits) {
  std::vector<std::string> cached = {"workload.io_size=8KiB", "workload.file_size=4GiB",
                                     "host.ram=16GiB", "workload.clients=4"};
  // The whole file is cached: nothing waits for the storage, and the model says so.
  const Scenario warm = Io(cached);
  auto refused = PredictWith(warm, ParamsFromScenario(warm));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("OS cache"), std::string::npos);
  // Cold, it reads the file in as it goes: fewer reads per request than one, more than
  // none, and the run's rate between the all-miss rate and unbounded.
  cached.push_back("workload.cache=cold");
  const Prediction cold = PredictOk(Io(cached));
  EXPECT_GT(cold.reads_per_transaction, 0.05);
  EXPECT_LT(cold.reads_per_transaction, 1);
  cached.push_back("workload.io_direct=on");
  cached.erase(std::find(cached.begin(), cached.end(), "workload.cache=cold"));
  EXPECT_GT(cold.tps, PredictOk(Io(cached)).tps);
}

TEST(IoModel, CalibratesTheDisksOnADeviceBenchmarkThenPredictsPgbench) {
  // A randomio run on the M5110e's storage, measured (here: predicted) with the disks'
  // seeks 1.3 x the datasheet's: calibrate recovers the scale from the device
  // benchmark alone and the scenario stays a pgbench one.
  auto base = LoadScenario(std::string(PGSTORSIM_SOURCE_DIR) + "/scenarios/m5110e.toml");
  ASSERT_TRUE(base.ok()) << base.status().message();
  const std::vector<std::string> randomio = {
      "workload.type=io",           "workload.io_size=8KiB",       "workload.file_size=48000MiB",
      "workload.read_fraction=0.5", "workload.io_fsync_writes=on", "workload.clients=8",
      "workload.duration=100s",     "workload.cache=cold"};
  Scenario io = *base;
  for (const std::string& o : randomio) ASSERT_TRUE(ApplyOverride(&io, o).ok()) << o;
  ModelParams truth = ParamsFromScenario(*base);
  truth.read_seek_scale = 1.3;
  const Prediction measured = PredictOk(io);  // At the scenario's values.
  auto p = PredictWith(io, truth);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_GT(measured.tps, p->tps);  // Longer seeks, fewer requests.
  Measured m;
  m.source = "randomio.txt";
  m.tool = "randomio";
  m.read_iops = m.write_iops = p->tps / 2;
  auto report = Calibrate(*base, {{m, randomio}}, {"read_seek_scale"});
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->parameters.size(), 1u);
  EXPECT_NEAR(report->values[0], 1.3, 0.01);
  EXPECT_EQ(report->calibrated.workload.type, WorkloadKind::kTpcbLike);
  EXPECT_TRUE(Predict(report->calibrated).ok());
}

TEST(IoModel, CalibratesAnSsdsLatenciesOnADeviceBenchmark) {
  // An SSD behind an HBA whose reads take 1.5x and writes 0.6x the scenario's
  // latencies, measured (here: predicted) by probe's QD1 patterns: the default fit for
  // an SSD recovers both scales from the two patterns; the HDD parameters are not
  // candidates.
  const std::vector<std::string> ssd = {
      "controller.kind=hba",   "controller.cache_size=0", "array.level=jbod",
      "array.disks=1",         "disks.type=ssd",          "disks.capacity=400GB",
      "workload.io_direct=on", "workload.io_size=8KiB",   "workload.file_size=1GiB"};
  const Scenario base = Io(ssd);
  ModelParams truth = ParamsFromScenario(base);
  truth.ssd_read_latency_scale = 1.5;
  truth.ssd_write_latency_scale = 0.6;
  std::vector<CalibrationInput> inputs;
  for (const char* fraction : {"workload.read_fraction=1", "workload.read_fraction=0"}) {
    Scenario s = base;
    ASSERT_TRUE(ApplyOverride(&s, fraction).ok());
    auto p = PredictWith(s, truth);
    ASSERT_TRUE(p.ok()) << p.status().message();
    Measured m;
    m.source = fraction;
    m.tool = "pgstorsim";
    (s.workload.read_fraction > 0 ? m.read_iops : m.write_iops) = p->tps;
    inputs.push_back({m, {fraction}});
  }
  const std::vector<std::string> fit = DefaultFitFor(base, inputs);
  EXPECT_EQ(std::count(fit.begin(), fit.end(), "read_seek_scale"), 0);
  auto report = Calibrate(base, inputs, fit);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const auto& values = report->calibrated.calibration.values;
  ASSERT_EQ(values.count("ssd_read_latency_scale"), 1u);
  ASSERT_EQ(values.count("ssd_write_latency_scale"), 1u);
  EXPECT_NEAR(values.at("ssd_read_latency_scale"), 1.5, 0.02);
  EXPECT_NEAR(values.at("ssd_write_latency_scale"), 0.6, 0.02);
}

TEST(IoModel, SsdPartialBlockWriteWaitsForItsBlockReadInFull) {
  // 8 KiB buffered writes with an fsync each into 64 KiB UFS2 blocks of a file far
  // larger than the cache, one job, an SSD behind an HBA: a write first reads its block
  // (as a read request does, the channels' delay included), then writes it; so it
  // takes longer than a read request by at least the SSD's write latency.
  std::vector<std::string> sets = {"controller.kind=hba",
                                   "controller.cache_size=0",
                                   "array.level=jbod",
                                   "array.disks=1",
                                   "disks.type=ssd",
                                   "disks.capacity=400GB",
                                   "disks.write_latency=30us",
                                   "workload.io_size=8KiB",
                                   "workload.file_size=300GiB",
                                   "host.ram=4GiB",
                                   "workload.io_fsync_writes=on",
                                   "filesystem.type=ufs2",
                                   "filesystem.block_size=64KiB",
                                   "filesystem.fragment_size=8KiB"};
  const double read_ms = PredictOk(Io(sets)).statement_latency_ms.at("read");
  sets.push_back("workload.read_fraction=0");
  const double write_ms = PredictOk(Io(sets)).statement_latency_ms.at("write");
  EXPECT_GT(write_ms, read_ms + 0.03);
  EXPECT_LT(write_ms, 2.5 * read_ms);
}

// An SSD of c channels behind an HBA, O_DIRECT 8 KiB requests: a lone request takes the
// device's latency plus its transfer (a channel per request), whether random or
// sequential, and enough outstanding requests reach c / that time.
TEST(IoModel, SsdRequestTakesItsLatencyAloneAndItsChannelsServeDepth) {
  const std::vector<std::string> ssd = {"controller.kind=hba",
                                        "controller.cache_size=0",
                                        "array.level=jbod",
                                        "array.disks=1",
                                        "disks.type=ssd",
                                        "disks.read_latency=110us",
                                        "disks.write_latency=1170us",
                                        "disks.channels=6",
                                        "disks.transfer_rate=500MiB",
                                        "io.queue_depth=32",
                                        "disks.page_size=4KiB",
                                        "workload.file_size=256MiB",
                                        "workload.io_direct=on",
                                        "workload.io_size=8KiB",
                                        "filesystem.partition_offset=1MiB"};
  const double transfer_ms = 8192.0 / (500.0 * 1048.576);
  std::vector<std::string> qd1 = ssd;
  qd1.push_back("workload.io_access=random");
  const Prediction one = PredictOk(Io(qd1));
  EXPECT_NEAR(one.statement_latency_ms.at("read"), 0.110 + transfer_ms, 0.02 * 0.110);
  std::vector<std::string> deep = qd1;
  deep.push_back("workload.clients=32");
  const double saturated_per_s = 6 * 1000 / (0.110 + transfer_ms);
  EXPECT_GT(PredictOk(Io(deep)).tps, 0.8 * saturated_per_s);
  EXPECT_LE(PredictOk(Io(deep)).tps, 1.0001 * saturated_per_s);
  std::vector<std::string> fsynced = ssd;
  fsynced.insert(fsynced.end(), {"workload.read_fraction=0", "workload.io_access=sequential",
                                 "workload.io_fsync_writes=on"});
  const Prediction writes = PredictOk(Io(fsynced));
  EXPECT_NEAR(writes.statement_latency_ms.at("write"), 1.170 + transfer_ms, 0.02 * 1.170);
}

TEST(IoModel, AWholeBlockReadOnSsdsWaitsForOnePiecesTransfer) {
  // 64 KiB O_DIRECT reads on two SSDs striped at 32 KiB: each read's pieces go to both
  // drives at once, one of them charged the read latency (whole_block_reads), and the
  // read waits for one piece's transfer, not for the block's bytes in series.
  const std::vector<std::string> ssds = {"controller.kind=hba",
                                         "controller.cache_size=0",
                                         "array.level=raid0",
                                         "array.disks=2",
                                         "array.stripe=32KiB",
                                         "disks.type=ssd",
                                         "disks.capacity=400GB",
                                         "disks.read_latency=90us",
                                         "disks.transfer_rate=100MiB",
                                         "workload.io_size=64KiB",
                                         "workload.file_size=200GB",
                                         "workload.io_direct=on",
                                         "calibration.whole_block_reads=1",
                                         "disks.page_size=4KiB"};
  const double piece_ms = 32768.0 / (100.0 * 1048.576);
  auto aligned = ssds;
  aligned.push_back("filesystem.partition_offset=1MiB");
  const Prediction a = PredictOk(Io(aligned));
  EXPECT_NEAR(a.statement_latency_ms.at("read"), 0.090 + piece_ms, 0.02 * (0.090 + piece_ms));
  // At 63 sectors every piece moves the flash pages it touches: one 4 KiB page more.
  auto misaligned = ssds;
  misaligned.push_back("filesystem.partition_offset=32256");
  const Prediction m = PredictOk(Io(misaligned));
  const double page_ms = 4096.0 / (100.0 * 1048.576);
  EXPECT_GT(m.statement_latency_ms.at("read"), a.statement_latency_ms.at("read") + 0.5 * page_ms);
  EXPECT_LT(m.statement_latency_ms.at("read"), a.statement_latency_ms.at("read") + 1.5 * page_ms);
}

TEST(IoModel, NoMemberIsBusierThanAllTheTime) {
  // The other requests' parallel pieces (split reads, whole-block reads, mirrored and
  // RAID 5/6 writes) load each member beside its path: at any depth a member's
  // utilisation stays within 1.
  const std::vector<std::vector<std::string>> arrays = {
      {"array.level=raid0", "array.disks=2", "array.stripe=32KiB"},
      {"array.level=raid10", "array.disks=4", "array.stripe=32KiB"},
      {"array.level=raid5", "array.disks=4", "array.stripe=32KiB"}};
  for (const auto& array : arrays) {
    for (const char* disk : {"hdd", "ssd"}) {
      for (const char* cache : {"controller.kind=hba", "controller.write_policy=write-back"}) {
        for (const char* whole : {"0", "1"}) {
          for (const char* size : {"8KiB", "64KiB"}) {
            for (const char* reads : {"1", "0.5"}) {
              for (int depth : {1, 8, 64}) {
                std::vector<std::string> sets = array;
                sets.insert(sets.end(),
                            {std::string("disks.type=") + disk, cache,
                             std::string("calibration.whole_block_reads=") + whole,
                             std::string("workload.io_size=") + size,
                             std::string("workload.read_fraction=") + reads,
                             "workload.clients=" + std::to_string(depth), "disks.capacity=300GB",
                             "workload.file_size=100GB", "workload.io_direct=on",
                             "filesystem.partition_offset=32256"});
                const Prediction p = PredictOk(Io(sets));
                EXPECT_GT(p.tps, 0);
                for (const DeviceLoad& d : p.devices) {
                  EXPECT_LE(d.utilization, 1 + 1e-6)
                      << d.name << ": " << array[0] << " " << disk << " " << cache << " whole "
                      << whole << " " << size << " reads " << reads << " depth " << depth;
                }
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace pgstorsim
