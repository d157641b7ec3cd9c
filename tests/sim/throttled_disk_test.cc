// The throttled disk: reads and writes pass independent rate limiters.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/disk.h"
#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

constexpr int64_t kRunNs = 10'000'000'000;  // 10 simulated seconds.

// One closed client: issues `pattern` in turn (e.g. read, write), one I/O at a time,
// until kRunNs; counts completed I/Os per direction and completed rounds.
class Client : public IoListener {
 public:
  Client(Simulator* sim, Disk* disk, std::vector<IoOp> pattern, int64_t length_bytes = 8192)
      : sim_(sim), disk_(disk), pattern_(std::move(pattern)), length_bytes_(length_bytes) {}
  void Issue() {
    if (sim_->now_ns() >= kRunNs) return;
    disk_->Submit({pattern_[next_], static_cast<int64_t>(8192 * next_), length_bytes_}, this, 0);
  }
  void OnIoDone(uint64_t) override {
    (pattern_[next_] == IoOp::kRead ? reads : writes) += 1;
    next_ = (next_ + 1) % pattern_.size();
    if (next_ == 0) ++rounds;
    Issue();
  }
  int64_t reads = 0, writes = 0, rounds = 0;

 private:
  Simulator* sim_;
  Disk* disk_;
  std::vector<IoOp> pattern_;
  int64_t length_bytes_;
  size_t next_ = 0;
};

SimDiskConfig Throttle(double read_iops, double write_iops) {
  SimDiskConfig c;
  c.kind = DiskKind::kThrottled;
  c.read_iops = read_iops;
  c.write_iops = write_iops;
  c.ssd_read_ns = c.ssd_write_ns = 30'000;
  EXPECT_TRUE(ValidateDiskConfig(c, "disk").ok());
  return c;
}

TEST(ThrottledDisk, OneClosedReaderGetsTheReadCap) {
  Simulator sim(3);
  auto disk = CreateDisk(Throttle(150, 40), sim, 1, "d0");
  Client reader(&sim, disk.get(), {IoOp::kRead});
  reader.Issue();
  sim.RunUntil(INT64_MAX);
  EXPECT_NEAR(reader.reads, 1500, 2);  // 150/s for 10 s; the write cap plays no part.
  EXPECT_EQ(reader.writes, 0);
}

TEST(ThrottledDisk, ReadsAndWritesEachGetTheirOwnCap) {
  Simulator sim(3);
  auto disk = CreateDisk(Throttle(150, 100), sim, 1, "d0");
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 4; ++i) {
    clients.push_back(std::make_unique<Client>(&sim, disk.get(), std::vector<IoOp>{IoOp::kRead}));
    clients.push_back(std::make_unique<Client>(&sim, disk.get(), std::vector<IoOp>{IoOp::kWrite}));
  }
  for (auto& c : clients) c->Issue();
  sim.RunUntil(INT64_MAX);
  int64_t reads = 0, writes = 0;
  for (auto& c : clients) reads += c->reads, writes += c->writes;
  // One shared queue at 1/IOPS per I/O would give 1500 x 100 / 250 = 600 reads.
  EXPECT_NEAR(reads, 1500, 8);
  EXPECT_NEAR(writes, 1000, 8);
}

TEST(ThrottledDisk, ReadThenWriteRunsAtTheSlowerCapNotTheHarmonicSum) {
  Simulator sim(3);
  auto disk = CreateDisk(Throttle(150, 100), sim, 1, "d0");
  Client client(&sim, disk.get(), {IoOp::kRead, IoOp::kWrite});
  client.Issue();
  sim.RunUntil(INT64_MAX);
  EXPECT_NEAR(client.rounds, 1000, 2);  // min(150, 100)/s, not 1 / (1/150 + 1/100) = 60/s.
}

TEST(ThrottledDisk, ByteCapBindsLargeRequests) {
  Simulator sim(3);
  SimDiskConfig c = Throttle(1000, 1000);
  c.read_bytes_per_s = 10 << 20;  // 10 MiB/s: 1 MiB reads at 10/s, not 1000/s.
  auto disk = CreateDisk(c, sim, 1, "d0");
  Client reader(&sim, disk.get(), {IoOp::kRead}, 1 << 20);
  reader.Issue();
  sim.RunUntil(INT64_MAX);
  EXPECT_NEAR(reader.reads, 100, 2);
}

// Records when each I/O completes.
class Recorder : public IoListener {
 public:
  explicit Recorder(Simulator* sim) : sim_(sim) {}
  void OnIoDone(uint64_t) override { done_ns.push_back(sim_->now_ns()); }
  std::vector<int64_t> done_ns;

 private:
  Simulator* sim_;
};

TEST(ThrottledDisk, ABurstPassesWithinTheSliceBudgetAndTheRestWaitsForTheNextSlice) {
  // Like blk-throttle: 150 IOPS allows 15 I/Os per 100 ms slice, at once.
  Simulator sim(3);
  auto disk = CreateDisk(Throttle(150, 150), sim, 1, "d0");
  Recorder rec(&sim);
  for (int i = 0; i < 20; ++i) disk->Submit({IoOp::kWrite, 8192 * i, 8192}, &rec, i);
  sim.RunUntil(INT64_MAX);
  ASSERT_EQ(rec.done_ns.size(), 20u);
  int64_t first_slice = 0;
  for (int64_t t : rec.done_ns) first_slice += t < 1'000'000 ? 1 : 0;
  EXPECT_EQ(first_slice, 15);  // Dispatched at once, done after the 30 us latency.
  EXPECT_NEAR(static_cast<double>(rec.done_ns.back()), 100'030'000.0, 1.0);
}

TEST(ThrottledDisk, ValidationNamesTheCap) {
  SimDiskConfig c = Throttle(150, 150);
  c.write_iops = 0;
  Status st = ValidateDiskConfig(c, "disk");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("disk.write_iops"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace pgstorsim::sim
