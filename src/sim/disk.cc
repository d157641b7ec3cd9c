// The Disk kinds' service times (HDD, SSD, throttled, exponential) on QueuedDisk's
// queueing, the config parsers and checks, the report and CreateDisk.
#include "sim/disk.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "common/units.h"
#include "device/throttle_slice.h"
#include "scenario/scenario.h"
#include "sim/hdd_mechanics.h"
#include "sim/queued_disk.h"

namespace pgstorsim {
namespace sim {
namespace {

class HddDisk : public QueuedDisk {
 public:
  HddDisk(const SimDiskConfig& c, Simulator& sim, uint64_t stream, std::string name)
      : QueuedDisk(c, sim, stream, std::move(name), 1), mech_(c) {}

 protected:
  int64_t ServiceNs(const DiskOp& op) override {
    const int64_t transfer_ns =
        static_cast<int64_t>(op.length_bytes * 1e9 / config_.sustained_bytes_per_s);
    const int64_t distance = std::llabs(op.offset_bytes - head_bytes_);
    int64_t position_ns = 0;
    if (op.offset_bytes == head_bytes_ &&
        (op.op == IoOp::kRead || (op.position_ns >= 0 && op.continues_command))) {
      position_ns = 0;  // Sequential: the drive's look-ahead buffer, or one destage run.
    } else if (op.position_ns >= 0) {
      // A calibrated destage command pays its fitted cost even when it is contiguous
      // with the previous one in another stripe unit: destage_position_ms is fitted per
      // stripe-unit command (docs/simulator.md).
      position_ns = op.position_ns;
    } else if (picked_position_ns_ >= 0) {
      position_ns = picked_position_ns_;  // PickNext just computed it (SATF).
    } else if (config_.scheduler == DiskScheduler::kSatf || distance <= mech_.track_bytes()) {
      // The platter's angle known: on the same track (rewrites wait for a full turn)
      // and under SATF. FIFO far seeks draw the rotational latency from the disk's
      // seeded stream instead.
      position_ns = mech_.PositionNs(head_bytes_, op.offset_bytes, op.op, sim_.now_ns());
    } else {
      position_ns = mech_.SeekNs(distance, op.op) + rng_.UniformInt(0, mech_.rotation_ns() - 1);
    }
    head_bytes_ = op.offset_bytes + op.length_bytes;
    picked_position_ns_ = -1;
    return config_.command_overhead_ns + position_ns + transfer_ns;
  }

  // SATF: among the first queue_depth requests, the one the head reaches first
  // (seek + rotational wait, with the drive's knowledge of sector angles).
  size_t PickNext() override {
    if (config_.scheduler == DiskScheduler::kFifo) return 0;
    const size_t window = std::min<size_t>(queue_.size(), config_.queue_depth);
    auto at = [this](size_t i) {
      Request& r = slots_[queue_[i]];
      if (r.op.position_ns < 0 && r.angle_ns < 0) r.angle_ns = mech_.AngleNs(r.op.offset_bytes);
      return HddMechanics::Candidate{r.op.offset_bytes, r.angle_ns, r.op.position_ns, r.op.op};
    };
    const size_t picked =
        mech_.PickSatf(window, at, head_bytes_, sim_.now_ns(), &picked_position_ns_);
    // ServiceNs (called next, same time and head) reuses it for a mechanical pick.
    if (slots_[queue_[picked]].op.position_ns >= 0) picked_position_ns_ = -1;
    return picked;
  }

 private:
  const HddMechanics mech_;
  int64_t head_bytes_ = 0;
  int64_t picked_position_ns_ = -1;  // PositionNs of the request PickNext chose, or -1.
};

class SsdDisk : public QueuedDisk {
 public:
  SsdDisk(const SimDiskConfig& c, Simulator& sim, uint64_t stream, std::string name)
      : QueuedDisk(c, sim, stream, std::move(name), c.ssd_channels) {}

 protected:
  int64_t ServiceNs(const DiskOp& op) override {
    const int64_t page = config_.ssd_page_bytes;
    const int64_t first = op.offset_bytes / page;
    const int64_t end = (op.offset_bytes + op.length_bytes + page - 1) / page;
    const int64_t bytes = (end - first) * page;
    int64_t ns = op.op == IoOp::kRead ? config_.ssd_read_ns : config_.ssd_write_ns;
    // A read with a fixed positioning (whole_block_reads' transfer-only piece) pays it
    // instead of the read latency.
    if (op.op == IoOp::kRead && op.position_ns >= 0) ns = op.position_ns;
    const bool partial = op.offset_bytes % page != 0 || op.length_bytes % page != 0;
    if (op.op == IoOp::kWrite && partial) ns += config_.ssd_read_ns;  // Read-modify-write.
    // A channel moves its pages at the flash channel's rate (disks.transfer_rate, per
    // channel), the same device as the model's (docs/model.md, "SSD").
    return ns + static_cast<int64_t>(bytes * 1e9 / config_.sustained_bytes_per_s);
  }
};

// Every request is dispatched at once (no server limit); its service time is the wait
// for its direction's limiter plus the device latency. The IOPS limiter works like the
// kernel's cgroup v1 blk-throttle (block/blk-throttle.c, tg_within_iops_limit): time
// is cut into slices (100 ms for a rotational device such as a loop device) from the
// moment an idle direction gets an I/O; each slice allows iops x slice I/Os, at once
// if they come together; an I/O over the allowance waits, in order, for the next slice
// boundary; budget not used in a past slice is lost; after a slice without I/O the
// next I/O starts a new slice. So a small burst passes at once and a backlog moves in
// steps of a slice. The byte cap paces requests (bytes / bandwidth each). Busy time is
// the rate budget spent, per direction; utilisation is the busier cap's.
class ThrottledDisk : public QueuedDisk {
 public:
  ThrottledDisk(const SimDiskConfig& c, Simulator& sim, uint64_t stream, std::string name)
      : QueuedDisk(c, sim, stream, std::move(name), kUnlimitedServers) {
    SeparateDirections();
  }

 protected:
  int64_t ServiceNs(const DiskOp& op) override {
    const bool read = op.op == IoOp::kRead;
    const double iops = read ? config_.read_iops : config_.write_iops;
    const double bytes_per_s = read ? config_.read_bytes_per_s : config_.write_bytes_per_s;
    last_slot_ns_ = static_cast<int64_t>(1e9 / iops);
    Limiter& limiter = read ? reads_ : writes_;
    int64_t start_ns = limiter.Admit(sim_.now_ns(), iops);
    if (bytes_per_s > 0) {
      const int64_t bytes_ns = static_cast<int64_t>(op.length_bytes * 1e9 / bytes_per_s);
      start_ns = std::max(start_ns, limiter.next_byte_free_ns);
      limiter.next_byte_free_ns = start_ns + bytes_ns;
      last_slot_ns_ = std::max(last_slot_ns_, bytes_ns);
    }
    return start_ns - sim_.now_ns() + (read ? config_.ssd_read_ns : config_.ssd_write_ns);
  }
  int64_t BusyNs(int64_t) const override { return last_slot_ns_; }

 private:
  static constexpr int kUnlimitedServers = 1 << 30;

  struct Limiter {
    int64_t slice_start_ns = 0;
    int64_t dispatched = 0;         // I/Os charged since slice_start_ns.
    int64_t last_dispatch_ns = -1;  // Dispatch time of the latest admitted I/O (FIFO).
    int64_t next_byte_free_ns = 0;

    // Dispatch time of an I/O arriving at `now_ns` under `iops`.
    int64_t Admit(int64_t now_ns, double iops) {
      const double per_slice = ThrottleSliceBudget(iops);
      const bool backlog = last_dispatch_ns > now_ns;
      if (last_dispatch_ns < 0 || (!backlog && now_ns - last_dispatch_ns >= kThrottleSliceNs)) {
        slice_start_ns = now_ns;  // Idle for a slice: a new slice starts here.
        dispatched = 0;
      }
      // Drop whole slices that have passed (their unused budget is lost).
      const int64_t earliest_ns = std::max(now_ns, last_dispatch_ns);
      const int64_t passed = (earliest_ns - slice_start_ns) / kThrottleSliceNs;
      if (passed > 0) {
        slice_start_ns += passed * kThrottleSliceNs;
        dispatched = std::max<int64_t>(0, dispatched - static_cast<int64_t>(passed * per_slice));
      }
      // The (k+1)-th slice from slice_start allows (k+1) x per_slice in total.
      const int64_t k = static_cast<int64_t>(dispatched / per_slice);
      const int64_t dispatch_ns = std::max(earliest_ns, slice_start_ns + k * kThrottleSliceNs);
      ++dispatched;
      last_dispatch_ns = dispatch_ns;
      return dispatch_ns;
    }
  };
  Limiter reads_, writes_;
  int64_t last_slot_ns_ = 0;
};

class ExponentialDisk : public QueuedDisk {
 public:
  ExponentialDisk(const SimDiskConfig& c, Simulator& sim, uint64_t stream, std::string name)
      : QueuedDisk(c, sim, stream, std::move(name), 1) {}

 protected:
  int64_t ServiceNs(const DiskOp& op) override {
    return static_cast<int64_t>(rng_.Exponential(static_cast<double>(config_.mean_service_ns)));
  }
};

}  // namespace

StatusOr<DiskKind> ParseDiskKind(const std::string& text) {
  if (text == "hdd") return DiskKind::kHdd;
  if (text == "ssd") return DiskKind::kSsd;
  if (text == "exponential") return DiskKind::kExponential;
  if (text == "throttled") return DiskKind::kThrottled;
  return Status::Error("unknown disk kind '" + text +
                       "' (expected hdd, ssd, exponential or throttled)");
}

StatusOr<DiskScheduler> ParseDiskScheduler(const std::string& text) {
  if (text == "fifo" || text == "noop" || text == "none") return DiskScheduler::kFifo;
  if (text == "satf" || text == "sstf" || text == "elevator") return DiskScheduler::kSatf;
  return Status::Error("unknown disk scheduler '" + text + "' (expected fifo or satf)");
}

Status ValidateDiskConfig(const SimDiskConfig& c, const std::string& prefix) {
  auto bad = [&](const char* field, const char* why) {
    return Status::Error(prefix + "." + field + ": " + why);
  };
  if (c.capacity_bytes <= 0) return bad("capacity", "must be positive");
  if (c.kind == DiskKind::kHdd) {
    if (c.rpm < 1000 || c.rpm > 30000) return bad("rpm", "must lie in [1000, 30000]");
    if (c.avg_seek_ns < c.track_to_track_ns) return bad("avg_seek", "below track_to_track");
    if (c.avg_write_seek_ns < c.track_to_track_ns)
      return bad("avg_write_seek", "below track_to_track");
    if (!(c.seek_scale > 0)) return bad("seek_scale", "must be positive");
    if (c.track_to_track_ns < 0) return bad("track_to_track", "must be >= 0");
    if (c.sustained_bytes_per_s <= 0) return bad("sustained_rate", "must be positive");
    if (c.interface_bytes_per_s < c.sustained_bytes_per_s)
      return bad("interface_rate", "must be >= sustained_rate");
  }
  if (c.queue_depth < 1) return bad("queue_depth", "must be >= 1");
  if (c.interface_bytes_per_s <= 0) return bad("interface_rate", "must be positive");
  if (c.kind == DiskKind::kSsd && c.ssd_channels < 1) return bad("channels", "must be >= 1");
  if (c.kind == DiskKind::kSsd && (c.ssd_page_bytes < 512 || c.ssd_page_bytes % 512 != 0))
    return bad("page_size", "must be a positive multiple of 512");
  if (c.kind == DiskKind::kExponential && c.mean_service_ns <= 0)
    return bad("mean_service", "must be positive");
  if (c.command_overhead_ns < 0) return bad("command_overhead", "must be >= 0");
  if (c.kind == DiskKind::kThrottled) {
    if (!(c.read_iops > 0)) return bad("read_iops", "must be positive");
    if (!(c.write_iops > 0)) return bad("write_iops", "must be positive");
    if (c.read_bytes_per_s < 0) return bad("read_bandwidth", "must be >= 0");
    if (c.write_bytes_per_s < 0) return bad("write_bandwidth", "must be >= 0");
    if (c.ssd_read_ns < 0 || c.ssd_write_ns < 0) return bad("latency", "must be >= 0");
  }
  return Status::Ok();
}

nlohmann::json Disk::ToJson(int64_t elapsed_ns) const {
  const DiskStats& s = stats();
  const auto share = [elapsed_ns](int64_t ns) {
    return elapsed_ns > 0 ? static_cast<double>(ns) / static_cast<double>(elapsed_ns) : 0.0;
  };
  const double util =
      s.separate_directions ? share(std::max(s.read_busy_ns, s.write_busy_ns)) : share(s.busy_ns);
  return {{"name", name()},
          {"reads", s.reads},
          {"writes", s.writes},
          {"read_bytes", s.read_bytes},
          {"written_bytes", s.written_bytes},
          {"utilization", util},
          {"read_utilization", share(s.read_busy_ns)},
          {"write_utilization", share(s.write_busy_ns)},
          {"drive_cache_writes", s.write_cache_absorbed},
          {"mean_response_ms", s.response.mean_ns() / kNsPerMs},
          {"p99_response_ms", NsToMs(s.response.PercentileNs(0.99))}};
}

std::unique_ptr<Disk> CreateDisk(const SimDiskConfig& config, Simulator& sim, uint64_t stream_id,
                                 std::string name) {
  switch (config.kind) {
    case DiskKind::kSsd:
      return std::make_unique<SsdDisk>(config, sim, stream_id, std::move(name));
    case DiskKind::kExponential:
      return std::make_unique<ExponentialDisk>(config, sim, stream_id, std::move(name));
    case DiskKind::kThrottled:
      return std::make_unique<ThrottledDisk>(config, sim, stream_id, std::move(name));
    case DiskKind::kHdd:
    default:
      return std::make_unique<HddDisk>(config, sim, stream_id, std::move(name));
  }
}

}  // namespace sim
}  // namespace pgstorsim
