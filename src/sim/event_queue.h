// Internal to the simulation kernel (sim/simulator.h): the pending events, ordered by
// (time_ns, sequence). Sequences are unique, so the order is total and every correct
// queue pops the same events in the same order.
//
// A simulation usually has a few dozen events pending (one per client, disk and
// outstanding request). For so few, a sorted array beats a heap: an insertion shifts
// a handful of events with one unpredictable branch at the end, where a heap's sift
// mispredicts at every level. So the queue is a sorted array (latest first, the next
// event at the back) while it holds at most kMaxSorted events, and a 4-ary min-heap
// (the next event at the front) once it grows past that, until it shrinks below
// kMinHeap. Thread safety: none.
#ifndef PGSTORSIM_SIM_EVENT_QUEUE_H_
#define PGSTORSIM_SIM_EVENT_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgstorsim {
namespace sim {

class EventHandler;

// An event addressed to one component. `kind` is the component's own event enum,
// `payload` an index or id the component interprets (never a raw pointer).
struct Event {
  int64_t time_ns = 0;
  uint64_t sequence = 0;
  EventHandler* target = nullptr;
  int32_t kind = 0;
  uint64_t payload = 0;
};

// True when `a` runs before `b`.
inline bool EventBefore(const Event& a, const Event& b) {
  return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.sequence < b.sequence;
}

class EventQueue {
 public:
  static constexpr size_t kMaxSorted = 48;  // Sorted array up to this size,
  static constexpr size_t kMinHeap = 16;    // heap from above it down to this one.

  bool empty() const { return events_.empty(); }
  size_t size() const { return events_.size(); }
  // The next event in (time, sequence) order. REQUIRES: !empty().
  const Event& top() const { return heap_ ? events_.front() : events_.back(); }
  void Push(const Event& e);
  // Removes top(). REQUIRES: !empty().
  void Pop();

 private:
  void PushHeap(const Event& e);  // event_queue.cc
  void PopHeap();
  void ToHeap();
  void ToSorted();

  std::vector<Event> events_;  // Sorted latest first, or a min-heap.
  bool heap_ = false;
};

inline void EventQueue::Push(const Event& e) {
  if (heap_) return PushHeap(e);
  if (events_.size() >= kMaxSorted) {
    ToHeap();
    return PushHeap(e);
  }
  // Shift the events due after `e` up by one (from the back: the next events).
  size_t i = events_.size();
  events_.push_back(e);
  Event* d = events_.data();
  while (i > 0 && EventBefore(d[i - 1], e)) {
    d[i] = d[i - 1];
    --i;
  }
  d[i] = e;
}

inline void EventQueue::Pop() {
  if (heap_) return PopHeap();
  events_.pop_back();
}

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_EVENT_QUEUE_H_
