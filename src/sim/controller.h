// Controller: the RAID controller (or plain HBA) between the host and the member
// disks. It owns the member Disks and splits every volume request with the shared
// RaidLayout (fork-join: a request completes when its slowest member operation does;
// mirror reads go to the copy with fewer outstanding requests; RAID 5/6 writes do
// their read-modify-write pre-reads first).
//
// Cache: a read cache (LRU of 4 KiB blocks, `read_cache_bytes`) and, in write-back
// mode, a FINITE write cache of dirty `line_bytes` lines (`write_cache_bytes`). A write
// that fits is acknowledged after `write_ack_ns`; rewrites of a dirty line are
// absorbed. Dirty lines are destaged in the background while the dirty bytes exceed
// `destage_start_fraction` of the cache (elevator or FIFO order, at most
// `destage_outstanding` x members line destages in flight), competing with reads at the
// disks; a write that does not fit waits until destaging frees room. Write-through
// (or a bad battery) sends writes straight to the members. RAID 5/6: a destage takes
// the dirty lines of its stripe that continue it, so parity is updated once per stripe
// (a whole dirty stripe is written without read-modify-write).
// Read-ahead: none, always
// (extend a miss to the end of its stripe unit) or adaptive (only after a sequential
// read), which adds transfer time. Units: bytes, ns. Thread safety: none.
#ifndef PGSTORSIM_SIM_CONTROLLER_H_
#define PGSTORSIM_SIM_CONTROLLER_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "layout/raid_layout.h"
#include "scenario/scenario.h"
#include "sim/disk.h"
#include "sim/simulator.h"

namespace pgstorsim {
namespace sim {

enum class ReadAhead { kNone, kAdaptive, kAlways };
enum class DestageOrder { kElevator, kFifo };

struct SimControllerConfig {
  bool has_cache = true;  // false: HBA, every request goes to the disks.
  // A throttled device counts the I/O the host issues: without a cache, a write's pieces
  // contiguous on a member go as one I/O (MergeContiguousOnMembers), as the replayer
  // and the model's throttled path count them.
  bool host_counted_writes = false;
  bool write_back = true;  // Effective write-back (policy + healthy battery).
  int64_t write_cache_bytes = 256LL << 20;
  int64_t read_cache_bytes = 256LL << 20;
  int64_t line_bytes = 64 << 10;  // Cache line; capped at the stripe unit.
  int64_t write_ack_ns = 200'000;
  int64_t read_hit_ns = ControllerConfig::kReadHitNs;
  // Added to every request that reaches disks.
  int64_t command_overhead_ns = ControllerConfig::kCommandOverheadNs;
  ReadAhead read_ahead = ReadAhead::kAdaptive;
  DestageOrder destage_order = DestageOrder::kElevator;
  // Line destages in flight = this x member count.
  int destage_outstanding = ControllerConfig::kDestageLinesPerMember;
  // Destaging runs while dirty bytes exceed this fraction of the write cache, so hot
  // lines (the WAL tail) absorb rewrites and the elevator has a large set to sweep.
  double destage_start_fraction = ControllerConfig::kDestageStartFraction;
  // >= 0: every destage member write costs this positioning (calibration key
  // destage_position_ms: the model's effective cost of a sorted destage command)
  // instead of the disk mechanics; < 0: mechanics.
  int64_t destage_position_ns = -1;
  // true (calibration key whole_block_reads = 1): a read split over several members
  // costs one positioning in total; its first command positions, the other members'
  // commands are transfer-only (docs/simulator.md, "The analytic model's calibration
  // keys"). false: every member command positions.
  bool whole_block_reads = false;
};

// One request on the logical volume (offset from the start of the array).
struct VolumeOp {
  IoOp op = IoOp::kRead;  // kFsync = cache flush / barrier.
  int64_t offset_bytes = 0;
  int64_t length_bytes = 0;
};

struct ControllerStats {
  uint64_t reads = 0;
  uint64_t read_hits = 0;
  uint64_t writes = 0;
  uint64_t write_absorbed = 0;  // Rewrote an already dirty line.
  uint64_t write_blocked = 0;   // Waited for room in the write cache.
  uint64_t flushes = 0;
  uint64_t destages = 0;
  uint64_t full_stripe_destages = 0;  // RAID 5/6 stripes destaged whole (no pre-reads).
  uint64_t split_requests = 0;        // Requests that spanned more than one member op.
  int64_t read_ahead_bytes = 0;
  int64_t max_dirty_bytes = 0;
};

class Controller : public Component, public IoListener {
 public:
  // Validates `config` and the geometry; creates members.size() == geometry.members
  // disks from `disk`. Errors name the field.
  static StatusOr<std::unique_ptr<Controller>> Create(const SimControllerConfig& config,
                                                      const ArrayGeometry& geometry,
                                                      const SimDiskConfig& disk, Simulator& sim);

  // Queues `op`; listener->OnIoDone(token) runs when the host may consider it done.
  // REQUIRES: the range lies within capacity_bytes().
  virtual void Submit(const VolumeOp& op, IoListener* listener, uint64_t token) = 0;
  virtual int64_t capacity_bytes() const = 0;
  virtual int64_t dirty_bytes() const = 0;
  virtual const ControllerStats& stats() const = 0;
  virtual const Disk& member(int index) const = 0;
  virtual int members() const = 0;
  // Writes the sections "controller" {..} and "devices" [per member disk].
  void Report(ResultsWriter& out) const override = 0;
};

StatusOr<ReadAhead> ParseReadAhead(const std::string& text);        // none|adaptive|always
StatusOr<DestageOrder> ParseDestageOrder(const std::string& text);  // elevator|fifo

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_CONTROLLER_H_
