// Simulator: the typed, deterministic discrete-event kernel.
//
// Events are plain values (target component, kind, payload) ordered by
// (time_ns, sequence): two events at the same time run in the order they were
// scheduled, so a run depends only on the scenario and the seed, never on pointer
// values or hash-map iteration order. There are no globals: components receive the
// Simulator& they belong to. Every random stream is derived from the one seed with
// Fork(stream_id). Times are nanoseconds of simulated time since the start.
// Thread safety: none; one Simulator per thread.
#ifndef PGSTORSIM_SIM_SIMULATOR_H_
#define PGSTORSIM_SIM_SIMULATOR_H_

#include <cstdint>
#include <vector>

#include "common/random.h"
#include "common/status.h"
#include "sim/event_queue.h"

namespace pgstorsim {
namespace sim {

// A component that receives events. Handlers are owned by the caller and must
// outlive every event scheduled for them.
class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void HandleEvent(const Event& event) = 0;
};

class ResultsWriter;  // sim/results_writer.h

// The lifecycle every simulated component follows: validate its config (in its
// factory), Start() once before the run (schedule its first events), HandleEvent()
// per event, Report() after the run: write its own sections of the results.
class Component : public EventHandler {
 public:
  virtual void Start() {}
  virtual void Report(ResultsWriter& out) const {}
};

class Simulator {
 public:
  explicit Simulator(uint64_t seed);

  int64_t now_ns() const { return now_ns_; }
  uint64_t seed() const { return seed_; }
  uint64_t events_processed() const { return events_processed_; }

  // Schedules `kind`/`payload` for `target` at now + delay_ns (delay clamped at 0).
  void Schedule(int64_t delay_ns, EventHandler* target, int32_t kind, uint64_t payload = 0);
  // REQUIRES: time_ns >= now_ns() (earlier times are clamped to now).
  void ScheduleAt(int64_t time_ns, EventHandler* target, int32_t kind, uint64_t payload = 0);

  // Processes events in (time, sequence) order until the queue is empty, the next
  // event lies after end_ns, or Stop() was called. The clock ends at the last event
  // processed (or end_ns if the queue ran past it). Returns the number of events run.
  uint64_t RunUntil(int64_t end_ns);
  void Stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  size_t pending_events() const { return queue_.size() + (now_queue_.size() - now_head_); }

  // An independent random stream for `stream_id`, derived from the seed.
  Random ForkRandom(uint64_t stream_id) const { return root_.Fork(stream_id); }

 private:
  // The next event in (time, sequence) order if it is due by end_ns (removed from
  // its queue); else false, with the clock advanced to end_ns if queue_ runs past it.
  bool PopNext(int64_t end_ns, Event* e);

  uint64_t seed_;
  Random root_;
  int64_t now_ns_ = 0;
  uint64_t next_sequence_ = 0;
  uint64_t events_processed_ = 0;
  bool stopped_ = false;
  EventQueue queue_;  // Events for later times (sim/event_queue.h).
  // Events scheduled for the current time, in sequence order from now_head_: every
  // one of them runs after queue_'s events at now_ns_ and before any later event,
  // so they skip queue_ (simulator.cc). All have time_ns == now_ns_.
  std::vector<Event> now_queue_;
  size_t now_head_ = 0;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_SIMULATOR_H_
