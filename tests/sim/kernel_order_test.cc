// The kernel's two queues (heap for later times, FIFO for the current time) must
// run events exactly in (time, scheduling order), whatever mix of zero and
// positive delays, Stop() and end times the handlers use. Checked against a
// reference order computed with std::sort over (time, sequence).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/simulator.h"

namespace pgstorsim::sim {
namespace {

struct Scheduled {
  int64_t time_ns;
  uint64_t sequence;
  uint64_t id;
};

// Each event schedules 0-3 more, half of them with delay 0 (some negative), and
// records (now, id). Every scheduling is also logged with its due time.
class Fanout : public EventHandler {
 public:
  Fanout(Simulator* sim, uint64_t stream) : sim_(sim), rng_(sim->ForkRandom(stream)) {}
  void Add(int64_t delay_ns) {
    const uint64_t id = log.size();
    log.push_back({sim_->now_ns() + std::max<int64_t>(delay_ns, 0), id, id});
    sim_->Schedule(delay_ns, this, 0, id);
  }
  void HandleEvent(const Event& e) override {
    ran.push_back({sim_->now_ns(), e.payload});
    if (log.size() > 20000) return;
    const int64_t n = rng_.UniformInt(0, 3);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t kind = rng_.UniformInt(0, 3);
      Add(kind == 0 ? 0 : kind == 1 ? -rng_.UniformInt(1, 5) : rng_.UniformInt(1, 50));
    }
    if (rng_.UniformInt(0, 500) == 0) sim_->Stop();
  }
  std::vector<Scheduled> log;
  std::vector<std::pair<int64_t, uint64_t>> ran;

 private:
  Simulator* sim_;
  Random rng_;
};

TEST(SimulatorOrderTest, ZeroDelayEventsKeepTimeThenSequenceOrder) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Simulator sim(seed);
    Fanout f(&sim, 3);
    for (int i = 0; i < 8; ++i) f.Add(i % 3 == 0 ? 0 : 7 * i);
    int64_t end_ns = 0;
    while (sim.pending_events() > 0) {
      end_ns += 37;  // Several RunUntil windows, some ending between events.
      sim.RunUntil(end_ns);
      ASSERT_LE(sim.now_ns(), end_ns);
    }
    std::vector<Scheduled> want = f.log;
    std::sort(want.begin(), want.end(), [](const Scheduled& a, const Scheduled& b) {
      return std::tie(a.time_ns, a.sequence) < std::tie(b.time_ns, b.sequence);
    });
    ASSERT_EQ(f.ran.size(), want.size()) << "seed " << seed;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(f.ran[i], std::make_pair(want[i].time_ns, want[i].id))
          << "seed " << seed << " event " << i;
    }
    EXPECT_GT(f.ran.size(), 1000u);
  }
}

TEST(SimulatorOrderTest, PendingCountsBothQueues) {
  Simulator sim(1);
  Fanout f(&sim, 1);
  f.Add(0);
  f.Add(0);
  f.Add(10);
  EXPECT_EQ(sim.pending_events(), 3u);
}

}  // namespace
}  // namespace pgstorsim::sim
