// EventQueue: pops in (time, sequence) order in its sorted-array mode, its heap mode
// and across the switches between them, checked against a std::set reference.
#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "common/random.h"

namespace pgstorsim::sim {
namespace {

using Key = std::pair<int64_t, uint64_t>;  // (time, sequence)

class Checker {
 public:
  explicit Checker(uint64_t seed) : rng_(seed) {}
  void Push(int64_t time_ns) {
    Event e;
    e.time_ns = time_ns;
    e.sequence = next_++;
    e.payload = e.sequence * 7;  // Travels with the event.
    queue_.Push(e);
    want_.insert({e.time_ns, e.sequence});
  }
  // Pops one event and checks it is the reference's first.
  void Pop() {
    ASSERT_FALSE(queue_.empty());
    const Event& e = queue_.top();
    ASSERT_EQ(Key(e.time_ns, e.sequence), *want_.begin());
    ASSERT_EQ(e.payload, e.sequence * 7);
    queue_.Pop();
    want_.erase(want_.begin());
    ASSERT_EQ(queue_.size(), want_.size());
  }
  // Times close together (many ties) or spread out.
  int64_t RandomTime() { return now_ + rng_.UniformInt(0, rng_.UniformInt(0, 1) ? 5 : 100000); }
  void Advance() {
    if (!want_.empty()) now_ = want_.begin()->first;
  }
  Random& rng() { return rng_; }
  size_t size() const { return want_.size(); }

 private:
  Random rng_;
  EventQueue queue_;
  std::set<Key> want_;
  uint64_t next_ = 0;
  int64_t now_ = 0;
};

TEST(EventQueueTest, PopsInTimeThenSequenceOrderAcrossModes) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Checker c(seed);
    // Grow well past the sorted limit, shrink below the heap limit, several times,
    // with pushes and pops interleaved as in a simulation.
    for (int wave = 0; wave < 4; ++wave) {
      const size_t peak = EventQueue::kMaxSorted * (2 + wave);
      while (c.size() < peak) {
        c.Push(c.RandomTime());
        if (c.rng().UniformInt(0, 2) == 0) {
          c.Advance();
          ASSERT_NO_FATAL_FAILURE(c.Pop());
        }
      }
      while (c.size() > EventQueue::kMinHeap / 2) {
        c.Advance();
        ASSERT_NO_FATAL_FAILURE(c.Pop());
        if (c.rng().UniformInt(0, 2) == 0) c.Push(c.RandomTime());
      }
    }
    while (c.size() > 0) ASSERT_NO_FATAL_FAILURE(c.Pop());
  }
}

TEST(EventQueueTest, SteadyStateAroundTheSwitchSizes) {
  for (size_t level : {size_t{1}, EventQueue::kMinHeap, EventQueue::kMaxSorted}) {
    Checker c(level);
    for (size_t i = 0; i < level; ++i) c.Push(c.RandomTime());
    for (int i = 0; i < 20000; ++i) {  // One out, one in, and a random walk around level.
      c.Advance();
      ASSERT_NO_FATAL_FAILURE(c.Pop());
      c.Push(c.RandomTime());
      if (c.rng().UniformInt(0, 3) == 0) c.Push(c.RandomTime());
      if (c.size() > 1 && c.rng().UniformInt(0, 3) == 0) {
        ASSERT_NO_FATAL_FAILURE(c.Pop());
      }
    }
  }
}

}  // namespace
}  // namespace pgstorsim::sim
