#include "sim/controller.h"

#include <algorithm>
#include <deque>

#include "common/units.h"
#include "sim/line_caches.h"
#include "sim/results_writer.h"

namespace pgstorsim {
namespace sim {
namespace {

enum ControllerEvent : int32_t { kAck = 1 };

class RaidController : public Controller {
 public:
  RaidController(const SimControllerConfig& c, std::unique_ptr<RaidLayout> layout,
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
        positionings_(disks_.size(), 0) {}

  void Submit(const VolumeOp& op, IoListener* listener, uint64_t token) override {
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

  void HandleEvent(const Event& e) override {
    const uint32_t slot = static_cast<uint32_t>(e.payload);
    IoListener* listener = pending_[slot].listener;
    const uint64_t token = pending_[slot].token;
    Free(slot);
    listener->OnIoDone(token);
  }

  void OnIoDone(uint64_t token) override {
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

  int64_t capacity_bytes() const override { return layout_->capacity_bytes(); }
  int64_t dirty_bytes() const override { return write_cache_.dirty_bytes(); }
  const ControllerStats& stats() const override { return stats_; }
  const Disk& member(int index) const override { return *disks_[index]; }
  int members() const override { return static_cast<int>(disks_.size()); }

  void Report(ResultsWriter& out) const override {
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

 private:
  enum Kind { kHost, kDestage };
  struct Pending {
    Kind kind = kHost;
    int stage = 0;
    int remaining = 0;
    IoListener* listener = nullptr;
    uint64_t token = 0;
    VolumeOp op;
    int64_t line = 0, line_end = 0;    // Destage: write-cache lines [line, line_end).
    std::vector<MemberExtent> writes;  // Deferred until pre-reads finish.
  };
  struct Blocked {
    VolumeOp op;
    IoListener* listener;
    uint64_t token;
  };

  bool WriteBack() const { return config_.has_cache && config_.write_back; }

  uint32_t NewPending(Kind kind, const VolumeOp& op, IoListener* listener, uint64_t token) {
    uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<uint32_t>(pending_.size());
      pending_.emplace_back();
    }
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
  void Free(uint32_t slot) { free_.push_back(slot); }
  void Ack(uint32_t slot, int64_t delay_ns) { sim_.Schedule(delay_ns, this, kAck, slot); }

  // `position_ns` >= 0 fixes the members' positioning cost (calibrated destage).
  void SubmitExtents(uint32_t slot, IoOp op, const std::vector<MemberExtent>& extents,
                     int64_t position_ns = -1) {
    pending_[slot].remaining = static_cast<int>(extents.size());
    const int64_t unit = layout_->geometry().stripe_unit_bytes;
    for (const MemberExtent& e : extents) {
      // A line that does not start its stripe unit continues the unit's destage run.
      const bool continues = position_ns >= 0 && e.offset_bytes % unit != 0;
      disks_[e.member]->Submit({op, e.offset_bytes, e.length_bytes, position_ns, continues}, this,
                               slot);
    }
  }
  int64_t WritePositionNs(Kind kind) const {
    return kind == kDestage ? config_.destage_position_ns : -1;
  }

  bool CachedRead(const VolumeOp& op) {
    if (!config_.has_cache) return false;
    if (read_cache_.Lookup(op.offset_bytes, op.length_bytes)) return true;
    const int64_t line_end = (op.offset_bytes / line_bytes_ + 1) * line_bytes_;
    return op.offset_bytes + op.length_bytes <= line_end &&
           write_cache_.Covers(op.offset_bytes, op.length_bytes);
  }

  // The read range after controller read-ahead.
  int64_t ReadLength(const VolumeOp& op, bool sequential) {
    if (!config_.has_cache || config_.read_ahead == ReadAhead::kNone) return op.length_bytes;
    if (config_.read_ahead == ReadAhead::kAdaptive && !sequential) return op.length_bytes;
    const int64_t unit = layout_->geometry().stripe_unit_bytes;
    const int64_t end = op.offset_bytes + op.length_bytes;
    int64_t extended_end = ((end + unit - 1) / unit) * unit;
    if (extended_end == end) extended_end += sequential ? unit : 0;
    extended_end = std::min(extended_end, capacity_bytes());
    stats_.read_ahead_bytes += extended_end - end;
    return extended_end - op.offset_bytes;
  }

  void Read(const VolumeOp& op, IoListener* listener, uint64_t token) {
    ++stats_.reads;
    const uint32_t slot = NewPending(kHost, op, listener, token);
    const bool sequential = op.offset_bytes == last_read_end_bytes_;
    last_read_end_bytes_ = op.offset_bytes + op.length_bytes;
    if (CachedRead(op)) {
      ++stats_.read_hits;
      return Ack(slot, config_.read_hit_ns);
    }
    const int64_t length = ReadLength(op, sequential);
    if (config_.has_cache) read_cache_.Insert(op.offset_bytes, length);
    std::vector<ReadPiece>& pieces = read_pieces_;  // Scratch: no allocation per read.
    layout_->MapReadInto(op.offset_bytes, length, &pieces);
    std::vector<MemberExtent>& extents = read_extents_;
    extents.clear();
    for (const ReadPiece& piece : pieces) {
      if (!MergeContiguous(piece, &extents)) extents.push_back(PickCopy(piece));
    }
    if (extents.size() > 1) ++stats_.split_requests;
    if (!config_.whole_block_reads || extents.size() == 1) {
      return SubmitExtents(slot, IoOp::kRead, extents);
    }
    // One positioning for the whole read: one command positions (mechanics), the other
    // members' pieces only transfer (a fixed positioning of 0). The piece whose member
    // has positioned least so far positions, so the positionings spread evenly over
    // the members, as the model charges them (a fixed choice would load one mirrored
    // pair with all; a turn over the pieces fell in step with the mirror turns and
    // gave every positioning to one disk of each pair).
    pending_[slot].remaining = static_cast<int>(extents.size());
    size_t positioned = 0;
    for (size_t i = 1; i < extents.size(); ++i) {
      if (positionings_[extents[i].member] < positionings_[extents[positioned].member]) {
        positioned = i;
      }
    }
    ++positionings_[extents[positioned].member];
    for (size_t i = 0; i < extents.size(); ++i) {
      const MemberExtent& e = extents[i];
      const int64_t position_ns = i == positioned ? -1 : 0;
      disks_[e.member]->Submit({IoOp::kRead, e.offset_bytes, e.length_bytes, position_ns}, this,
                               slot);
    }
  }

  // A piece that continues an extent already picked (on one of its copies) joins that
  // command, as the controller issues one command per contiguous member range.
  static bool MergeContiguous(const ReadPiece& piece, std::vector<MemberExtent>* extents) {
    for (MemberExtent& e : *extents) {
      for (const MemberExtent& copy : piece.copies) {
        if (ContinuesOnMember(e, copy)) {
          e.length_bytes += copy.length_bytes;
          return true;
        }
      }
    }
    return false;
  }

  // Mirror read balancing: the copy with fewer outstanding requests; ties alternate
  // within each mirror set (a turn per set: one shared turn, taken by every piece of a
  // split read, sent each piece's reads to the same copy when the read had an even
  // number of pieces, e.g. a misaligned 64 KiB block on a 32 KiB-stripe RAID 10 put
  // 97 % of its reads on one disk of each pair).
  MemberExtent PickCopy(const ReadPiece& piece) {
    size_t best = 0;
    if (piece.copies.size() > 1) {
      best = mirror_turn_[piece.copies.front().member]++ % piece.copies.size();
      for (size_t i = 0; i < piece.copies.size(); ++i) {
        if (disks_[piece.copies[i].member]->outstanding() <
            disks_[piece.copies[best].member]->outstanding())
          best = i;
      }
    }
    return piece.copies[best];
  }

  void Write(const VolumeOp& op, IoListener* listener, uint64_t token) {
    ++stats_.writes;
    if (config_.has_cache) read_cache_.Insert(op.offset_bytes, op.length_bytes);
    if (!WriteBack() || op.length_bytes > write_cache_.capacity_bytes()) {
      return StartPlannedWrite(NewPending(kHost, op, listener, token), op);
    }
    if (!blocked_.empty() || !write_cache_.Fits(op.offset_bytes, op.length_bytes)) {
      ++stats_.write_blocked;
      blocked_.push_back({op, listener, token});
      return;
    }
    AcceptWrite(op, listener, token);
  }

  void AcceptWrite(const VolumeOp& op, IoListener* listener, uint64_t token) {
    if (write_cache_.Add(op.offset_bytes, op.length_bytes)) ++stats_.write_absorbed;
    stats_.max_dirty_bytes = std::max(stats_.max_dirty_bytes, write_cache_.dirty_bytes());
    Ack(NewPending(kHost, op, listener, token), config_.write_ack_ns);
    KickDestage();
  }

  // Write-through and destage: RAID 5/6 pre-reads first, then the writes.
  void StartPlannedWrite(uint32_t slot, const VolumeOp& op) {
    WritePlan& plan = write_plan_;  // Scratch: no allocation per write.
    layout_->MapWriteInto(op.offset_bytes, op.length_bytes, &plan);
    if (config_.host_counted_writes) MergeContiguousOnMembers(&plan.writes);
    if (plan.writes.size() > 1 && single_copy_) ++stats_.split_requests;
    if (plan.pre_reads.empty()) {
      return SubmitExtents(slot, IoOp::kWrite, plan.writes, WritePositionNs(pending_[slot].kind));
    }
    pending_[slot].writes = plan.writes;
    SubmitExtents(slot, IoOp::kRead, plan.pre_reads);
  }

  void KickDestage() {
    const int limit = config_.destage_outstanding * members();
    int64_t line, offset, length;
    const double start_bytes = config_.destage_start_fraction * write_cache_.capacity_bytes();
    while (destages_in_flight_ < limit && write_cache_.dirty_bytes() > start_bytes &&
           write_cache_.NextDestage(&line, &offset, &length)) {
      ++destages_in_flight_;
      VolumeOp op{IoOp::kWrite, offset, length};
      int64_t first = line, end = line + 1;
      GatherStripe(&op, &first, &end);
      const uint32_t slot = NewPending(kDestage, op, nullptr, 0);
      pending_[slot].line = first;
      pending_[slot].line_end = end;
      StartPlannedWrite(slot, op);
    }
  }

  // RAID 5/6: the lines of the destaged line's stripe whose dirty bytes continue it
  // (idle lines dirty up to the shared line boundary) go with it as one write, so the
  // stripe's parity is updated once for all of them, as a controller destages per
  // stripe: one read-modify-write of the run, or, when the run is the stripe's whole
  // data, a full-stripe write without pre-reads. *op grows to the run and [*first,
  // *end) to its lines, taken from the cache.
  void GatherStripe(VolumeOp* op, int64_t* first, int64_t* end) {
    int64_t start = 0, length = 0;
    if (!parity_ || !layout_->StripeDataRange(op->offset_bytes, &start, &length)) return;
    const int64_t stripe_end = start + length;
    int64_t begin = op->offset_bytes, finish = op->offset_bytes + op->length_bytes;
    int64_t a = *first, b = *first, lo = 0, hi = 0;
    while (begin % line_bytes_ == 0 && begin > start &&
           write_cache_.IdleDirtyRange(a - 1, &lo, &hi) && hi == line_bytes_ &&
           (a - 1) * line_bytes_ + lo >= start) {
      begin = (a - 1) * line_bytes_ + lo;
      --a;
      if (lo != 0) break;
    }
    while (finish % line_bytes_ == 0 && finish < stripe_end &&
           write_cache_.IdleDirtyRange(b + 1, &lo, &hi) && lo == 0 &&
           (b + 1) * line_bytes_ + hi <= stripe_end) {
      finish = (b + 1) * line_bytes_ + hi;
      ++b;
      if (hi != line_bytes_) break;
    }
    if (a == b) return;
    for (int64_t l = a; l <= b; ++l) {
      if (l != *first) write_cache_.TakeLine(l);
    }
    *op = {IoOp::kWrite, begin, finish - begin};
    *first = a;
    *end = b + 1;
    if (begin == start && finish == stripe_end) ++stats_.full_stripe_destages;
  }

  void DestageDone(uint32_t slot) {
    for (int64_t l = pending_[slot].line; l < pending_[slot].line_end; ++l) {
      write_cache_.DestageDone(l);
    }
    Free(slot);
    --destages_in_flight_;
    ++stats_.destages;
    while (!blocked_.empty() &&
           write_cache_.Fits(blocked_.front().op.offset_bytes, blocked_.front().op.length_bytes)) {
      const Blocked b = blocked_.front();
      blocked_.pop_front();
      if (write_cache_.Add(b.op.offset_bytes, b.op.length_bytes)) ++stats_.write_absorbed;
      Ack(NewPending(kHost, b.op, b.listener, b.token), config_.write_ack_ns);
    }
    KickDestage();
  }

  const SimControllerConfig config_;
  std::unique_ptr<RaidLayout> layout_;
  std::vector<std::unique_ptr<Disk>> disks_;
  Simulator& sim_;
  const int64_t line_bytes_;
  const bool parity_;       // RAID 5/6/50/60: destages may gather whole stripes.
  const bool single_copy_;  // No mirrors: a write to several members is a split.
  WriteCache write_cache_;
  ReadCache read_cache_;
  std::vector<Pending> pending_;
  std::vector<uint32_t> free_;
  std::deque<Blocked> blocked_;
  int destages_in_flight_ = 0;
  int64_t last_read_end_bytes_ = -1;
  std::vector<uint64_t> mirror_turn_;   // Per mirror set, by its first copy's member.
  std::vector<uint64_t> positionings_;  // whole_block_reads: positioned reads per member.
  // Read()'s pieces and member commands and StartPlannedWrite()'s plan, reused (disks
  // never call back inside Submit, so neither is re-entered while it uses them).
  std::vector<MemberExtent> read_extents_;
  std::vector<ReadPiece> read_pieces_;
  WritePlan write_plan_;
  ControllerStats stats_;
};

}  // namespace

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
