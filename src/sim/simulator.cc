#include "sim/simulator.h"

#include <algorithm>

namespace pgstorsim {
namespace sim {

Simulator::Simulator(uint64_t seed) : seed_(seed), root_(seed) { heap_.reserve(1024); }

void Simulator::Schedule(int64_t delay_ns, EventHandler* target, int32_t kind, uint64_t payload) {
  ScheduleAt(now_ns_ + std::max<int64_t>(delay_ns, 0), target, kind, payload);
}

namespace {

// The event queue is a 4-ary min-heap on (time, sequence): half the depth of a binary
// heap, and a node's four children share a cache line or two. Sequences are unique,
// so any correct heap pops events in the same order.
constexpr size_t kArity = 4;

inline bool Before(const Event& a, const Event& b) {
  return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.sequence < b.sequence;
}

void SiftUp(std::vector<Event>* heap, size_t i) {
  Event* h = heap->data();
  const Event e = h[i];
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!Before(e, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

// Moves the last element into the root's hole and sifts it down.
void PopRoot(std::vector<Event>* heap) {
  const Event e = heap->back();
  heap->pop_back();
  const size_t n = heap->size();
  if (n == 0) return;
  Event* h = heap->data();
  size_t i = 0;
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    const size_t last = std::min(first + kArity, n);
    size_t best = first;
    for (size_t c = first + 1; c < last; ++c) {
      if (Before(h[c], h[best])) best = c;
    }
    if (!Before(h[best], e)) break;
    h[i] = h[best];
    i = best;
  }
  h[i] = e;
}

}  // namespace

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
  heap_.push_back(e);
  SiftUp(&heap_, heap_.size() - 1);
}

// An event scheduled for time T while the clock is before T goes to the heap; one
// scheduled while the clock is at T goes to now_queue_ and so has a larger sequence.
// Hence (time, sequence) order is: the heap's events at now_ns_, then now_queue_ in
// order, then the heap. The clock cannot move while now_queue_ holds events.
bool Simulator::PopNext(int64_t end_ns, Event* e) {
  const bool heap_now = !heap_.empty() && heap_.front().time_ns == now_ns_;
  if (!heap_now && now_head_ < now_queue_.size()) {
    if (now_ns_ > end_ns) return false;
    *e = now_queue_[now_head_++];
    if (now_head_ == now_queue_.size()) {
      now_queue_.clear();
      now_head_ = 0;
    }
    return true;
  }
  if (heap_.empty()) return false;
  if (heap_.front().time_ns > end_ns) {
    now_ns_ = std::max(now_ns_, end_ns);
    return false;
  }
  *e = heap_.front();
  PopRoot(&heap_);
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
