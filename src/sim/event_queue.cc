#include "sim/event_queue.h"

#include <algorithm>

namespace pgstorsim {
namespace sim {
namespace {

// The heap is 4-ary: half the depth of a binary heap, and a node's four children
// share a cache line or two.
constexpr size_t kArity = 4;

}  // namespace

void EventQueue::PushHeap(const Event& e) {
  events_.push_back(e);
  Event* h = events_.data();
  size_t i = events_.size() - 1;
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!EventBefore(e, h[parent])) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

// Moves the last event into the root's hole and sifts it down.
void EventQueue::PopHeap() {
  const Event e = events_.back();
  events_.pop_back();
  const size_t n = events_.size();
  if (n == 0) {  // e was the root.
    heap_ = false;
    return;
  }
  if (n < kMinHeap) {
    events_.front() = e;
    return ToSorted();
  }
  Event* h = events_.data();
  size_t i = 0;
  for (;;) {
    const size_t first = i * kArity + 1;
    if (first >= n) break;
    const size_t last = std::min(first + kArity, n);
    size_t best = first;
    for (size_t c = first + 1; c < last; ++c) {
      if (EventBefore(h[c], h[best])) best = c;
    }
    if (!EventBefore(h[best], e)) break;
    h[i] = h[best];
    i = best;
  }
  h[i] = e;
}

// A sorted array read from the back is ascending from the front: already a heap.
void EventQueue::ToHeap() {
  std::reverse(events_.begin(), events_.end());
  heap_ = true;
}

void EventQueue::ToSorted() {
  std::sort(events_.begin(), events_.end(),
            [](const Event& a, const Event& b) { return EventBefore(b, a); });
  heap_ = false;
}

}  // namespace sim
}  // namespace pgstorsim
