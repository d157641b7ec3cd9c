#include <gtest/gtest.h>

#include <vector>

#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

// Records (time, payload) of every event it receives.
class Recorder : public EventHandler {
 public:
  explicit Recorder(Simulator* sim) : sim_(sim) {}
  void HandleEvent(const Event& e) override { seen.push_back({sim_->now_ns(), e.payload}); }
  std::vector<std::pair<int64_t, uint64_t>> seen;

 private:
  Simulator* sim_;
};

TEST(SimulatorTest, OrdersByTimeThenSchedulingOrder) {
  Simulator sim(1);
  Recorder r(&sim);
  sim.ScheduleAt(30, &r, 0, 1);
  sim.ScheduleAt(10, &r, 0, 2);
  sim.ScheduleAt(30, &r, 0, 3);
  sim.ScheduleAt(10, &r, 0, 4);
  sim.ScheduleAt(20, &r, 0, 5);
  EXPECT_EQ(sim.RunUntil(1000), 5u);
  const std::vector<std::pair<int64_t, uint64_t>> want = {
      {10, 2}, {10, 4}, {20, 5}, {30, 1}, {30, 3}};
  EXPECT_EQ(r.seen, want);
}

TEST(SimulatorTest, StopsAtEndTimeAndResumes) {
  Simulator sim(1);
  Recorder r(&sim);
  sim.ScheduleAt(10, &r, 0, 1);
  sim.ScheduleAt(50, &r, 0, 2);
  EXPECT_EQ(sim.RunUntil(20), 1u);
  EXPECT_EQ(sim.now_ns(), 20);
  EXPECT_EQ(sim.pending_events(), 1u);
  sim.Schedule(-5, &r, 0, 3);  // Negative delay is clamped to now.
  EXPECT_EQ(sim.RunUntil(100), 2u);
  ASSERT_EQ(r.seen.size(), 3u);
  EXPECT_EQ(r.seen[1], std::make_pair(int64_t{20}, uint64_t{3}));
  EXPECT_EQ(r.seen[2], std::make_pair(int64_t{50}, uint64_t{2}));
}

// An event handler that reschedules itself: a chain of events at seeded times.
class Chain : public EventHandler {
 public:
  Chain(Simulator* sim, uint64_t stream) : sim_(sim), rng_(sim->ForkRandom(stream)) {}
  void HandleEvent(const Event& e) override {
    times.push_back(sim_->now_ns());
    if (times.size() < 100) sim_->Schedule(rng_.UniformInt(1, 1000), this, 0);
  }
  std::vector<int64_t> times;

 private:
  Simulator* sim_;
  Random rng_;
};

std::vector<int64_t> RunChain(uint64_t seed) {
  Simulator sim(seed);
  Chain c(&sim, 7);
  sim.Schedule(0, &c, 0);
  sim.RunUntil(1'000'000);
  return c.times;
}

TEST(SimulatorTest, SameSeedSameRunDifferentSeedDifferentRun) {
  EXPECT_EQ(RunChain(42), RunChain(42));
  EXPECT_NE(RunChain(42), RunChain(43));
}

TEST(SimulatorTest, StopEndsTheRun) {
  Simulator sim(1);
  class Stopper : public EventHandler {
   public:
    explicit Stopper(Simulator* s) : s_(s) {}
    void HandleEvent(const Event& e) override { s_->Stop(); }
    Simulator* s_;
  } stopper(&sim);
  Recorder r(&sim);
  sim.ScheduleAt(5, &stopper, 0);
  sim.ScheduleAt(6, &r, 0);
  sim.RunUntil(100);
  EXPECT_TRUE(r.seen.empty());
  EXPECT_EQ(sim.now_ns(), 5);
}

}  // namespace
}  // namespace pgstorsim::sim
