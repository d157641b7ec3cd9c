// QueuedDisk's queueing: submission, the drive write cache's early acknowledgement,
// dispatch to free servers in the kind's order, and completions.
#include "sim/queued_disk.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgstorsim {
namespace sim {
namespace {

enum DiskEvent : int32_t { kServiceDone = 1, kCacheAck = 2 };

}  // namespace

void QueuedDisk::Submit(const DiskOp& op, IoListener* listener, uint64_t token) {
  const uint32_t slot = slots_.Acquire();
  Request& r = slots_[slot];
  r = Request{op, listener, token, sim_.now_ns(), 0};
  ++outstanding_;
  if (op.op == IoOp::kWrite && config_.write_cache &&
      cache_used_bytes_ + op.length_bytes <= config_.write_cache_bytes) {
    r.cached_bytes = op.length_bytes;
    cache_used_bytes_ += op.length_bytes;
    ++stats_.write_cache_absorbed;
    const int64_t ack_ns =
        config_.command_overhead_ns +
        static_cast<int64_t>(op.length_bytes * 1e9 / config_.interface_bytes_per_s);
    sim_.Schedule(ack_ns, this, kCacheAck, slot);
  }
  queue_.push_back(slot);
  Dispatch();
}

void QueuedDisk::HandleEvent(const Event& e) {
  const uint32_t slot = static_cast<uint32_t>(e.payload);
  if (e.kind == kCacheAck) {
    // The drive has the data; the submitter is done, the mechanism is not.
    Request& r = slots_[slot];
    IoListener* listener = r.listener;
    r.listener = nullptr;  // Before Complete(): the callback may grow slots_.
    Complete(listener, r.token, r.submit_ns);
    return;
  }
  Request& r = slots_[slot];
  ++free_servers_;
  cache_used_bytes_ -= r.cached_bytes;
  IoListener* listener = r.listener;
  const uint64_t token = r.token;
  const int64_t submit_ns = r.submit_ns;
  slots_.Release(slot);
  --outstanding_;
  Dispatch();
  Complete(listener, token, submit_ns);  // No-op when the drive cache acked it.
}

void QueuedDisk::Dispatch() {
  while (free_servers_ > 0 && !queue_.empty()) {
    const size_t index = PickNext();
    const uint32_t slot = queue_[index];
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
    const DiskOp& op = slots_[slot].op;
    const int64_t service_ns = ServiceNs(op);
    const int64_t busy_ns = BusyNs(service_ns);
    stats_.busy_ns += busy_ns;
    if (op.op == IoOp::kRead) {
      stats_.read_busy_ns += busy_ns;
      ++stats_.reads;
      stats_.read_bytes += op.length_bytes;
    } else {
      stats_.write_busy_ns += busy_ns;
      ++stats_.writes;
      stats_.written_bytes += op.length_bytes;
    }
    --free_servers_;
    sim_.Schedule(service_ns, this, kServiceDone, slot);
  }
}

void QueuedDisk::Complete(IoListener* listener, uint64_t token, int64_t submit_ns) {
  if (listener == nullptr) return;
  stats_.response.Record(sim_.now_ns() - submit_ns);
  listener->OnIoDone(token);
}

}  // namespace sim
}  // namespace pgstorsim
