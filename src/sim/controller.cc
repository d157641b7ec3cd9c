// Controller::Create and the config parsers, and RaidController's construction, request
// dispatch, completions, report and requests in flight.
#include "sim/controller.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/units.h"
#include "sim/raid_controller.h"
#include "sim/results_writer.h"

namespace pgstorsim {
namespace sim {
namespace {

enum ControllerEvent : int32_t { kAck = 1 };

}  // namespace

RaidController::RaidController(const SimControllerConfig& c, std::unique_ptr<RaidLayout> layout,
                               std::vector<std::unique_ptr<Disk>> disks, Simulator& sim)
    : config_(c),
      layout_(std::move(layout)),
      disks_(std::move(disks)),
      sim_(sim),
      line_bytes_(std::min(c.line_bytes, layout_->geometry().stripe_unit_bytes)),
      parity_(HasParity(layout_->geometry().level)),
      single_copy_(DataCopies(layout_->geometry()) == 1),
      write_cache_(c.write_cache_bytes, line_bytes_, c.destage_order),
      read_cache_(c.has_cache ? c.read_cache_bytes : 0),
      mirror_turn_(disks_.size(), 0),
      positionings_(disks_.size(), 0),
      read_end_bytes_(disks_.size(), -1) {}

void RaidController::Submit(const VolumeOp& op, IoListener* listener, uint64_t token) {
  switch (op.op) {
    case IoOp::kRead:
      return Read(op, listener, token);
    case IoOp::kWrite:
      return Write(op, listener, token);
    case IoOp::kFsync:
      ++stats_.flushes;
      // Battery-backed write-back: nothing to flush; write-through: already on disk.
      return Ack(NewPending(kHost, op, listener, token), config_.command_overhead_ns);
  }
}

void RaidController::HandleEvent(const Event& e) {
  const uint32_t slot = static_cast<uint32_t>(e.payload);
  IoListener* listener = pending_[slot].listener;
  const uint64_t token = pending_[slot].token;
  Free(slot);
  listener->OnIoDone(token);
}

void RaidController::OnIoDone(uint64_t token) {
  const uint32_t slot = static_cast<uint32_t>(token);
  if (--pending_[slot].remaining > 0) return;
  Pending& p = pending_[slot];
  if (p.stage == 0 && !p.writes.empty()) {
    p.stage = 1;  // RMW: pre-reads done, now the writes.
    std::vector<MemberExtent> writes = std::move(p.writes);
    p.writes.clear();
    SubmitExtents(slot, IoOp::kWrite, writes, WritePositionNs(p.kind));
    return;
  }
  if (p.kind == kDestage) return DestageDone(slot);
  Ack(slot, config_.command_overhead_ns);
}

void RaidController::Report(ResultsWriter& out) const {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : disks_) devices.push_back(d->ToJson(out.elapsed_ns()));
  const ControllerStats& s = stats_;
  const double hit_ratio = s.reads ? static_cast<double>(s.read_hits) / s.reads : 0.0;
  nlohmann::json controller = {{"write_back", WriteBack()},
                               {"reads", s.reads},
                               {"read_hits", s.read_hits},
                               {"read_hit_ratio", hit_ratio},
                               {"writes", s.writes},
                               {"writes_absorbed", s.write_absorbed},
                               {"writes_blocked", s.write_blocked},
                               {"flushes", s.flushes},
                               {"destages", s.destages},
                               {"full_stripe_destages", s.full_stripe_destages},
                               {"split_requests", s.split_requests},
                               {"read_ahead_bytes", s.read_ahead_bytes},
                               {"max_dirty_bytes", s.max_dirty_bytes},
                               {"dirty_bytes_at_end", write_cache_.dirty_bytes()},
                               {"write_cache_bytes", write_cache_.capacity_bytes()},
                               {"line_bytes", line_bytes_}};
  out.Section("controller") = controller;
  out.Section("devices") = devices;
}

uint32_t RaidController::NewPending(Kind kind, const VolumeOp& op, IoListener* listener,
                                    uint64_t token) {
  const uint32_t slot = pending_.Acquire();
  Pending& p = pending_[slot];
  p.kind = kind;
  p.stage = 0;
  p.remaining = 0;
  p.listener = listener;
  p.token = token;
  p.op = op;
  p.writes.clear();
  return slot;
}

void RaidController::Ack(uint32_t slot, int64_t delay_ns) {
  sim_.Schedule(delay_ns, this, kAck, slot);
}

// `position_ns` >= 0 fixes the members' positioning cost (calibrated destage).
void RaidController::SubmitExtents(uint32_t slot, IoOp op, const std::vector<MemberExtent>& extents,
                                   int64_t position_ns) {
  pending_[slot].remaining = static_cast<int>(extents.size());
  const int64_t unit = layout_->geometry().stripe_unit_bytes;
  for (const MemberExtent& e : extents) {
    // A line that does not start its stripe unit continues the unit's destage run.
    const bool continues = position_ns >= 0 && e.offset_bytes % unit != 0;
    disks_[e.member]->Submit({op, e.offset_bytes, e.length_bytes, position_ns, continues}, this,
                             slot);
  }
}

StatusOr<ReadAhead> ParseReadAhead(const std::string& text) {
  if (text == "none" || text == "no") return ReadAhead::kNone;
  if (text == "adaptive") return ReadAhead::kAdaptive;
  if (text == "always" || text == "yes") return ReadAhead::kAlways;
  return Status::Error("unknown read-ahead '" + text + "' (expected none, adaptive, always)");
}

StatusOr<DestageOrder> ParseDestageOrder(const std::string& text) {
  if (text == "elevator" || text == "lba") return DestageOrder::kElevator;
  if (text == "fifo") return DestageOrder::kFifo;
  return Status::Error("unknown destage order '" + text + "' (expected elevator or fifo)");
}

StatusOr<std::unique_ptr<Controller>> Controller::Create(const SimControllerConfig& config,
                                                         const ArrayGeometry& geometry,
                                                         const SimDiskConfig& disk,
                                                         Simulator& sim) {
  if (config.line_bytes < kSectorBytes || config.line_bytes % kSectorBytes != 0)
    return Status::Error("controller.line_bytes: must be a positive multiple of 512");
  if (config.write_cache_bytes < 0 || config.read_cache_bytes < 0)
    return Status::Error("controller.cache_size: must be >= 0");
  if (config.destage_outstanding < 1)
    return Status::Error("controller.destage_outstanding: must be >= 1");
  if (config.destage_start_fraction < 0 || config.destage_start_fraction >= 1)
    return Status::Error("controller.destage_start: must lie in [0, 1)");
  Status disk_ok = ValidateDiskConfig(disk, "disks");
  if (!disk_ok.ok()) return disk_ok;
  ArrayGeometry g = geometry;
  if (g.member_size_bytes <= 0) g.member_size_bytes = disk.capacity_bytes;
  StatusOr<std::unique_ptr<RaidLayout>> layout = RaidLayout::Create(g);
  if (!layout.ok()) return layout.status().WithContext("array");
  std::vector<std::unique_ptr<Disk>> disks;
  for (int i = 0; i < g.members; ++i) {
    disks.push_back(CreateDisk(disk, sim, 1000 + i, "disk" + std::to_string(i)));
  }
  return std::unique_ptr<Controller>(
      new RaidController(config, std::move(layout).value(), std::move(disks), sim));
}

}  // namespace sim
}  // namespace pgstorsim
