#include "io/io_core.h"

namespace pgstorsim {

DeviceStats::DeviceStats(int targets) {
  for (int i = 0; i < targets; ++i) slots_.push_back(std::make_unique<Slot>());
}

void DeviceStats::Slot::AddBusySincePrevious(int64_t now_ns, bool was_busy) {
  // last_event_ns only moves forward, and busy time grows by at most its advance, so
  // stamps taken out of order by racing threads can never inflate busy time.
  int64_t previous = last_event_ns.load(std::memory_order_relaxed);
  while (now_ns > previous && !last_event_ns.compare_exchange_weak(previous, now_ns)) {
  }
  if (was_busy && now_ns > previous)
    busy_ns.fetch_add(now_ns - previous, std::memory_order_relaxed);
}

void DeviceStats::OnIssue(int target, int64_t now_ns) {
  if (target < 0 || target >= targets()) return;
  Slot& s = *slots_[target];
  const bool was_busy = s.in_flight.fetch_add(1, std::memory_order_relaxed) > 0;
  s.AddBusySincePrevious(now_ns, was_busy);
}

void DeviceStats::OnComplete(const IoRequest& r) {
  if (r.target < 0 || r.target >= targets()) return;
  constexpr auto kRelaxed = std::memory_order_relaxed;
  Slot& s = *slots_[r.target];
  s.AddBusySincePrevious(r.complete_ns, true);
  s.in_flight.fetch_sub(1, kRelaxed);
  if (r.result < 0) {
    s.errors.fetch_add(1, kRelaxed);
    return;
  }
  const uint64_t bytes = static_cast<uint64_t>(r.result);
  switch (r.direction) {
    case IoDirection::kRead:
      s.reads.fetch_add(1, kRelaxed);
      s.bytes_read.fetch_add(bytes, kRelaxed);
      break;
    case IoDirection::kWrite:
      s.writes.fetch_add(1, kRelaxed);
      s.bytes_written.fetch_add(bytes, kRelaxed);
      break;
    case IoDirection::kFsync:
      s.fsyncs.fetch_add(1, kRelaxed);
      return;
  }
  if (r.result < r.length_bytes) s.short_transfers.fetch_add(1, kRelaxed);
}

DeviceCounters DeviceStats::Get(int target) const {
  const Slot& s = *slots_.at(target);
  DeviceCounters c;
  c.reads = s.reads.load();
  c.writes = s.writes.load();
  c.fsyncs = s.fsyncs.load();
  c.bytes_read = s.bytes_read.load();
  c.bytes_written = s.bytes_written.load();
  c.errors = s.errors.load();
  c.short_transfers = s.short_transfers.load();
  c.busy_ns = s.busy_ns.load();
  c.in_flight = s.in_flight.load();
  return c;
}

int DeviceStats::InFlight(int target) const {
  return slots_.at(target)->in_flight.load(std::memory_order_relaxed);
}

void IoCore::Complete(IoRequest* r) {
  r->complete_ns = MonotonicNowNs();
  stats_->OnComplete(*r);
}

Status IoCore::ReapAtLeast(int n, int* outstanding) {
  reaped_.clear();
  StatusOr<int> got = engine_->Reap(n, &reaped_);
  if (!got.ok()) return got.status();
  for (IoRequest* r : reaped_) Complete(r);
  *outstanding -= static_cast<int>(reaped_.size());
  return Status::Ok();
}

Status IoCore::RunBatch(const std::vector<IoRequest*>& batch) {
  int outstanding = 0;
  for (IoRequest* r : batch) {
    r->issue_ns = MonotonicNowNs();
    stats_->OnIssue(r->target, r->issue_ns);
    QueueOutcome outcome = engine_->Queue(r);
    while (outcome == QueueOutcome::kBusy) {
      Status s = engine_->Submit();
      if (s.ok()) s = ReapAtLeast(1, &outstanding);
      if (!s.ok()) return s;
      outcome = engine_->Queue(r);
    }
    if (outcome == QueueOutcome::kCompleted) {
      Complete(r);
    } else {
      ++outstanding;
    }
  }
  if (outstanding == 0) return Status::Ok();
  Status s = engine_->Submit();
  while (s.ok() && outstanding > 0) s = ReapAtLeast(outstanding, &outstanding);
  return s;
}

Status IoCore::RunOne(IoRequest* request) {
  std::vector<IoRequest*> one{request};
  return RunBatch(one);
}

}  // namespace pgstorsim
