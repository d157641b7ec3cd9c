// RaidController, the Controller of controller.h (internal to src/sim).
//
// One class in three files: controller.cc creates it and holds the request dispatch,
// the completion path, the report and the bookkeeping of requests in flight;
// controller_read.cc the read path (read cache, read-ahead, mirror copy choice, one
// positioning per split read); controller_write.cc the write path (write-back cache,
// writes waiting for room, destaging with RAID 5/6 stripe gathering, write-through).
// Units: bytes, ns. Thread safety: none.
#ifndef PGSTORSIM_SIM_RAID_CONTROLLER_H_
#define PGSTORSIM_SIM_RAID_CONTROLLER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "common/slot_pool.h"
#include "layout/raid_layout.h"
#include "sim/controller.h"
#include "sim/disk.h"
#include "sim/line_caches.h"
#include "sim/simulator.h"

namespace pgstorsim {
namespace sim {

class RaidController : public Controller {
 public:
  RaidController(const SimControllerConfig& c, std::unique_ptr<RaidLayout> layout,
                 std::vector<std::unique_ptr<Disk>> disks, Simulator& sim);

  void Submit(const VolumeOp& op, IoListener* listener, uint64_t token) override;
  void HandleEvent(const Event& e) override;
  void OnIoDone(uint64_t token) override;

  int64_t capacity_bytes() const override { return layout_->capacity_bytes(); }
  int64_t dirty_bytes() const override { return write_cache_.dirty_bytes(); }
  const ControllerStats& stats() const override { return stats_; }
  const Disk& member(int index) const override { return *disks_[index]; }
  int members() const override { return static_cast<int>(disks_.size()); }

  void Report(ResultsWriter& out) const override;

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

  // Requests in flight (controller.cc).
  uint32_t NewPending(Kind kind, const VolumeOp& op, IoListener* listener, uint64_t token);
  void Free(uint32_t slot) { pending_.Release(slot); }
  void Ack(uint32_t slot, int64_t delay_ns);
  void SubmitExtents(uint32_t slot, IoOp op, const std::vector<MemberExtent>& extents,
                     int64_t position_ns = -1);
  int64_t WritePositionNs(Kind kind) const {
    return kind == kDestage ? config_.destage_position_ns : -1;
  }

  // The read path (controller_read.cc).
  bool CachedRead(const VolumeOp& op);
  int64_t ReadLength(const VolumeOp& op, bool sequential);
  void Read(const VolumeOp& op, IoListener* listener, uint64_t token);
  static bool MergeContiguous(const ReadPiece& piece, std::vector<MemberExtent>* extents);
  MemberExtent PickCopy(const ReadPiece& piece);

  // The write path and destaging (controller_write.cc).
  void Write(const VolumeOp& op, IoListener* listener, uint64_t token);
  void AcceptWrite(const VolumeOp& op, IoListener* listener, uint64_t token);
  void StartPlannedWrite(uint32_t slot, const VolumeOp& op);
  void KickDestage();
  void GatherStripe(VolumeOp* op, int64_t* first, int64_t* end);
  void DestageDone(uint32_t slot);

  const SimControllerConfig config_;
  std::unique_ptr<RaidLayout> layout_;
  std::vector<std::unique_ptr<Disk>> disks_;
  Simulator& sim_;
  const int64_t line_bytes_;
  const bool parity_;       // RAID 5/6/50/60: destages may gather whole stripes.
  const bool single_copy_;  // No mirrors: a write to several members is a split.
  WriteCache write_cache_;
  ReadCache read_cache_;
  SlotPool<Pending> pending_;  // Requests in flight, named by slot in tokens and events.
  std::deque<Blocked> blocked_;
  int destages_in_flight_ = 0;
  int64_t last_read_end_bytes_ = -1;
  VolumeOp disk_read_{IoOp::kRead, -1, 0};  // The last range read from the disks.
  std::vector<uint64_t> mirror_turn_;       // Per mirror set, by its first copy's member.
  std::vector<uint64_t> positionings_;      // whole_block_reads: positioned reads per member.
  std::vector<int64_t> read_end_bytes_;     // Per member: where its last read command ended.
  // Read()'s pieces and member commands and StartPlannedWrite()'s plan, reused (disks
  // never call back inside Submit, so neither is re-entered while it uses them).
  std::vector<MemberExtent> read_extents_;
  std::vector<ReadPiece> read_pieces_;
  WritePlan write_plan_;
  ControllerStats stats_;
};

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_RAID_CONTROLLER_H_
