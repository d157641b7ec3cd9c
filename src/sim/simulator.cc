#include "sim/simulator.h"

#include <algorithm>

namespace pgstorsim {
namespace sim {

Simulator::Simulator(uint64_t seed) : seed_(seed), root_(seed) {}

void Simulator::Schedule(int64_t delay_ns, EventHandler* target, int32_t kind, uint64_t payload) {
  ScheduleAt(now_ns_ + std::max<int64_t>(delay_ns, 0), target, kind, payload);
}

void Simulator::ScheduleAt(int64_t time_ns, EventHandler* target, int32_t kind, uint64_t payload) {
  Event e;
  e.time_ns = std::max(time_ns, now_ns_);
  e.sequence = next_sequence_++;
  e.target = target;
  e.kind = kind;
  e.payload = payload;
  if (e.time_ns == now_ns_) {
    now_queue_.push_back(e);
    return;
  }
  queue_.Push(e);
}

// An event scheduled for time T while the clock is before T goes to queue_; one
// scheduled while the clock is at T goes to now_queue_ and so has a larger sequence.
// Hence (time, sequence) order is: queue_'s events at now_ns_, then now_queue_ in
// order, then the rest of queue_. The clock cannot move while now_queue_ holds events.
bool Simulator::PopNext(int64_t end_ns, Event* e) {
  const bool queued_now = !queue_.empty() && queue_.top().time_ns == now_ns_;
  if (!queued_now && now_head_ < now_queue_.size()) {
    if (now_ns_ > end_ns) return false;
    *e = now_queue_[now_head_++];
    if (now_head_ == now_queue_.size()) {
      now_queue_.clear();
      now_head_ = 0;
    }
    return true;
  }
  if (queue_.empty()) return false;
  if (queue_.top().time_ns > end_ns) {
    now_ns_ = std::max(now_ns_, end_ns);
    return false;
  }
  *e = queue_.top();
  queue_.Pop();
  return true;
}

uint64_t Simulator::RunUntil(int64_t end_ns) {
  uint64_t ran = 0;
  stopped_ = false;
  Event e;
  while (!stopped_ && PopNext(end_ns, &e)) {
    now_ns_ = e.time_ns;
    ++ran;
    ++events_processed_;
    e.target->HandleEvent(e);
  }
  return ran;
}

}  // namespace sim
}  // namespace pgstorsim
