#include "sim/simulator.h"

#include <algorithm>

namespace pgstorsim {
namespace sim {

Simulator::Simulator(uint64_t seed) : seed_(seed), root_(seed) { heap_.reserve(1024); }

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
  heap_.push_back(e);
  std::push_heap(heap_.begin(), heap_.end(), Later());
}

uint64_t Simulator::RunUntil(int64_t end_ns) {
  uint64_t ran = 0;
  stopped_ = false;
  while (!heap_.empty() && !stopped_) {
    if (heap_.front().time_ns > end_ns) {
      now_ns_ = std::max(now_ns_, end_ns);
      break;
    }
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    const Event e = heap_.back();
    heap_.pop_back();
    now_ns_ = e.time_ns;
    ++ran;
    ++events_processed_;
    e.target->HandleEvent(e);
  }
  return ran;
}

}  // namespace sim
}  // namespace pgstorsim
