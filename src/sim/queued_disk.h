// QueuedDisk, the queueing shared by the Disk kinds of disk.h (internal to src/sim).
//
// A request waits in arrival order until one of the disk's servers is free; the kind
// (disk.cc) supplies each request's service time, may choose which queued request to
// serve next and what busy time to count. queued_disk.cc holds the submission, the
// drive write cache's early acknowledgement, the dispatch and the completions.
// Units: bytes, ns. Thread safety: none (belongs to one Simulator).
#ifndef PGSTORSIM_SIM_QUEUED_DISK_H_
#define PGSTORSIM_SIM_QUEUED_DISK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/random.h"
#include "common/slot_pool.h"
#include "sim/disk.h"
#include "sim/simulator.h"

namespace pgstorsim {
namespace sim {

// Shared queueing machinery; subclasses supply the service time of one request.
class QueuedDisk : public Disk {
 public:
  QueuedDisk(const SimDiskConfig& config, Simulator& sim, uint64_t stream_id, std::string name,
             int servers)
      : config_(config),
        sim_(sim),
        rng_(sim.ForkRandom(stream_id)),
        name_(std::move(name)),
        free_servers_(servers) {}

  void Submit(const DiskOp& op, IoListener* listener, uint64_t token) override;
  void HandleEvent(const Event& e) override;

  int outstanding() const override { return outstanding_; }
  const DiskStats& stats() const override { return stats_; }
  const std::string& name() const override { return name_; }

 protected:
  struct Request {
    DiskOp op;
    IoListener* listener = nullptr;  // Null for background (drive-cache) writes.
    uint64_t token = 0;
    int64_t submit_ns = 0;
    int64_t cached_bytes = 0;  // Bytes held in the drive write cache until written.
    int64_t angle_ns = -1;     // HDD: the sector's angle (RotationalWaitNs), cached by SATF.
  };

  // Service time of `r` starting now; may update head position.
  virtual int64_t ServiceNs(const DiskOp& op) = 0;
  // Index into queue_ of the request to serve next (default FIFO).
  virtual size_t PickNext() { return 0; }
  // Busy time counted for the request just given `service_ns` (default: all of it).
  virtual int64_t BusyNs(int64_t service_ns) const { return service_ns; }
  // Reads and writes have their own capacity (DiskStats::separate_directions).
  void SeparateDirections() { stats_.separate_directions = true; }

  const SimDiskConfig config_;
  Simulator& sim_;
  Random rng_;
  std::vector<uint32_t> queue_;  // Arrival order; short (a drive's queue).
  SlotPool<Request> slots_;      // Requests submitted and not yet completed.

 private:
  void Dispatch();
  void Complete(IoListener* listener, uint64_t token, int64_t submit_ns);

  std::string name_;
  int free_servers_;
  int outstanding_ = 0;
  int64_t cache_used_bytes_ = 0;
  DiskStats stats_;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_QUEUED_DISK_H_
