#include "sim/disk.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "common/units.h"
#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

// Open Poisson arrivals of fixed-size random requests onto one disk; records the
// mean response time seen by the submitter.
class OpenSource : public EventHandler, public IoListener {
 public:
  OpenSource(Simulator* sim, Disk* disk, double rate_per_s, int64_t requests, IoOp op,
             int64_t span_bytes = 1LL << 30)
      : span_bytes_(span_bytes),
        sim_(sim),
        disk_(disk),
        rng_(sim->ForkRandom(100)),
        mean_gap_ns_(1e9 / rate_per_s),
        remaining_(requests),
        op_(op) {}
  void Start() { sim_->Schedule(0, this, 0); }
  void HandleEvent(const Event& e) override {
    if (remaining_-- <= 0) return;
    const int64_t offset = rng_.UniformInt(0, span_bytes_ / 8192 - 1) * 8192;
    submit_ns_[next_] = sim_->now_ns();
    disk_->Submit({op_, offset, 8192}, this, next_);
    next_ = (next_ + 1) % kSlots;
    sim_->Schedule(static_cast<int64_t>(rng_.Exponential(mean_gap_ns_)), this, 0);
  }
  void OnIoDone(uint64_t token) override {
    total_ns_ += sim_->now_ns() - submit_ns_[token];
    ++done_;
  }
  double mean_response_ms() const { return total_ns_ / done_ / 1e6; }
  int64_t done() const { return done_; }

 private:
  static constexpr int kSlots = 1 << 16;
  int64_t span_bytes_;
  Simulator* sim_;
  Disk* disk_;
  Random rng_;
  double mean_gap_ns_;
  int64_t remaining_;
  IoOp op_;
  uint64_t next_ = 0;
  int64_t submit_ns_[kSlots] = {};
  double total_ns_ = 0;
  int64_t done_ = 0;
};

TEST(DiskTest, ExponentialServerMatchesMM1) {
  for (double rho : {0.5, 0.8}) {
    Simulator sim(11);
    SimDiskConfig c;
    c.kind = DiskKind::kExponential;
    c.mean_service_ns = 5'000'000;  // mu = 200/s
    ASSERT_TRUE(ValidateDiskConfig(c, "disk").ok());
    auto disk = CreateDisk(c, sim, 1, "d0");
    auto source = std::make_unique<OpenSource>(&sim, disk.get(), rho * 200, 400000, IoOp::kRead);
    source->Start();
    sim.RunUntil(INT64_MAX);
    ASSERT_EQ(source->done(), 400000);
    const double expected_ms = 1000.0 / (200 - rho * 200);  // 1/(mu - lambda)
    EXPECT_NEAR(source->mean_response_ms(), expected_ms, 0.04 * expected_ms) << "rho " << rho;
    const double util = static_cast<double>(disk->stats().busy_ns) / sim.now_ns();
    EXPECT_NEAR(util, rho, 0.02);
  }
}

// One request at a time (closed loop): response = service time.
class ClosedSource : public IoListener {
 public:
  ClosedSource(Simulator* sim, Disk* disk, int64_t requests, IoOp op, bool same_block)
      : sim_(sim),
        disk_(disk),
        rng_(sim->ForkRandom(5)),
        remaining_(requests),
        op_(op),
        same_block_(same_block) {}
  void Issue() {
    if (remaining_-- <= 0) return;
    const int64_t offset =
        same_block_ ? 8192 * 1000 : rng_.UniformInt(0, (100LL << 30) / 8192 - 1) * 8192;
    disk_->Submit({op_, offset, 8192}, this, 0);
  }
  void OnIoDone(uint64_t) override {
    ++done_;
    last_done_ns_ = sim_->now_ns();
    Issue();
  }
  int64_t done_ = 0;
  int64_t last_done_ns_ = 0;

 private:
  Simulator* sim_;
  Disk* disk_;
  Random rng_;
  int64_t remaining_;
  IoOp op_;
  bool same_block_;
};

double ClosedRate(const SimDiskConfig& c, IoOp op, bool same_block, int64_t n) {
  Simulator sim(3);
  auto disk = CreateDisk(c, sim, 1, "d0");
  ClosedSource s(&sim, disk.get(), n, op, same_block);
  s.Issue();
  sim.RunUntil(INT64_MAX);
  return s.done_ / NsToSec(s.last_done_ns_);
}

TEST(DiskTest, HddRandomReadsCostSeekPlusHalfRotation) {
  SimDiskConfig c;  // 15K rpm: 4 ms rotation.
  c.capacity_bytes = 300LL << 30;
  const double iops = ClosedRate(c, IoOp::kRead, false, 20000);
  // Seek over 1/3 of a 300 GB disk's first 100 GiB: ~ t2t + (avg-t2t)*sqrt(1/9*... ),
  // about 1.3-2 ms; + 2 ms rotation + 0.05 ms transfer + 0.05 ms overhead.
  EXPECT_GT(iops, 1000.0 / 5.5);
  EXPECT_LT(iops, 1000.0 / 3.0);
}

TEST(DiskTest, RewritingOneBlockIsRotationBound) {
  SimDiskConfig c;  // 15K rpm: 250 rotations per second.
  const double iops = ClosedRate(c, IoOp::kWrite, true, 2000);
  EXPECT_NEAR(iops, 250.0, 10.0);
  c.rpm = 7200;  // 120 per second
  EXPECT_NEAR(ClosedRate(c, IoOp::kWrite, true, 2000), 120.0, 6.0);
}

TEST(DiskTest, DriveWriteCacheAcknowledgesFast) {
  SimDiskConfig c;
  c.write_cache = true;
  const double iops = ClosedRate(c, IoOp::kWrite, true, 2000);
  EXPECT_GT(iops, 5000.0);  // ~ overhead + 8 KiB over the interface.
}

TEST(DiskTest, SatfBeatsFifoUnderLoad) {
  SimDiskConfig fifo;
  SimDiskConfig satf = fifo;
  satf.scheduler = DiskScheduler::kSatf;
  satf.queue_depth = 32;
  auto run = [](const SimDiskConfig& c) {
    Simulator sim(9);
    auto disk = CreateDisk(c, sim, 1, "d0");
    OpenSource s(&sim, disk.get(), 170, 20000, IoOp::kRead, 250LL << 30);
    s.Start();
    sim.RunUntil(INT64_MAX);
    return s.mean_response_ms();
  };
  EXPECT_LT(run(satf), 0.8 * run(fifo));
}

TEST(DiskTest, SsdChannelsServeInParallel) {
  SimDiskConfig c;
  c.kind = DiskKind::kSsd;
  c.ssd_channels = 1;
  c.sustained_bytes_per_s = 200e6;  // disks.transfer_rate: each channel's rate.
  const double one = ClosedRate(c, IoOp::kRead, false, 1000);
  EXPECT_NEAR(one, 1e9 / (90'000 + 8192 * 1e9 / 200e6), 50);
}

TEST(DiskTest, SsdWriteSmallerThanFlashPageReadsFirst) {
  SimDiskConfig c;
  c.kind = DiskKind::kSsd;
  c.ssd_channels = 1;
  c.ssd_page_bytes = 16384;  // 8 KiB writes cover half a page.
  const double partial = ClosedRate(c, IoOp::kWrite, false, 1000);
  c.ssd_page_bytes = 8192;
  const double whole = ClosedRate(c, IoOp::kWrite, false, 1000);
  EXPECT_NEAR(whole, 1e9 / (30'000 + 8192 * 1e9 / c.sustained_bytes_per_s), 50);
  EXPECT_NEAR(partial, 1e9 / (30'000 + 90'000 + 16384 * 1e9 / c.sustained_bytes_per_s), 50);
}

TEST(DiskTest, ValidationNamesTheField) {
  SimDiskConfig c;
  c.rpm = 10;
  Status s = ValidateDiskConfig(c, "disks");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("disks.rpm"), std::string::npos);
  EXPECT_FALSE(ParseDiskKind("floppy").ok());
  EXPECT_TRUE(ParseDiskScheduler("satf").ok());
}

}  // namespace
}  // namespace pgstorsim::sim
