// AccessGeometry: what one random filesystem-block read or write costs each member
// disk, averaged over block positions, from the shared FsMapping and RaidLayout
// (internal to src/model). Reads: pieces on the same member that are contiguous merge
// into one command; each piece's cost is shared over its mirror copies (balanced
// reads). Destage writes: one command per stripe-unit piece per copy (the controller
// destages cache lines), plus RAID 5/6 pre-reads. Units: bytes, counts, ms.
#ifndef PGSTORSIM_MODEL_ACCESS_GEOMETRY_H_
#define PGSTORSIM_MODEL_ACCESS_GEOMETRY_H_

#include <vector>

#include "common/status.h"
#include "model/mirror_sets.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct DiskCosts {
  double read_position_ms = 0;     // Per read command.
  double destage_position_ms = 0;  // Per destage write command.
  double bytes_per_ms = 0;         // Media transfer.
  // > 0: a write the host waits for right after reading the same extent (a RAID 5/6
  // pre-read) finds the head on its track and waits for the sector to come round: this
  // many ms (a revolution) from the read's start, so the read's transfer is taken off.
  // 0: such writes cost destage_position_ms like the others (write-back: the controller
  // destages them later).
  double rewrite_turn_ms = 0;
};

// Per member, per block access (averaged over positions); cost-independent.
struct MemberWork {
  double read_commands = 0, read_bytes = 0;    // Share of balanced reads.
  double write_commands = 0, write_bytes = 0;  // Destage writes.
  // Write commands when the host issues the block write itself (md, the replayer, the
  // block layer): pieces of one request contiguous on a member are one command. A
  // controller destages each stripe-unit piece as its own command (write_commands).
  double host_write_commands = 0;
  double pre_read_commands = 0, pre_read_bytes = 0;  // RAID 5/6 read-modify-write.
};

struct AccessGeometry {
  std::vector<MemberWork> members;
  double read_forks = 1;  // Mean distinct members a read waits for.
  // Mean over positions of a read's longest member path (the member with the most of
  // its bytes): its commands and bytes.
  double read_slowest_commands = 1, read_slowest_bytes = 0;
  // The same for a write issued whole (write-through: every piece and copy at once):
  // distinct members written, and the longest member path's work (its pre-reads and
  // writes; write_commands counts the pieces that do not continue an earlier one).
  double write_members = 1;
  MemberWork write_slowest;
  double read_commands = 0;   // Mean member commands per read.
  double write_commands = 0;  // Mean member commands per write (all copies + pre-reads).
  MirrorSets mirrors;         // Members holding copies of the same data.

  // Busy ms per block read / block write on member m under `costs` (a write's pre-read
  // and the write after it: DiskCosts::rewrite_turn_ms).
  double ReadMs(size_t m, const DiskCosts& costs) const;
  double WriteMs(size_t m, const DiskCosts& costs) const;
  // Busy ms per block write the host waits for, its pieces issued at once: a piece that
  // continues an earlier one on its member follows it without a positioning
  // (host_write_commands).
  double SyncWriteMs(size_t m, const DiskCosts& costs) const;
  // The share of a read's pieces' summed busy time the read waits for, its pieces in
  // parallel on read_forks = k members: the longer of its longest member path and the
  // slowest of k commands, F(k) = 1 + fork_join_weight (H_k - 1) positionings plus a
  // mean command's transfer (transfers do not vary). Equal pieces: F(k) / k.
  double ReadWaitedShare(const DiskCosts& costs, double fork_join_weight) const;
  // whole_block_reads: a read's busy ms in all (one positioning and every member's
  // bytes), and the share of it the read waits for: its positioned command's transfer
  // (a mean command's) after the positioning, the other members' transfer-only
  // commands running alongside (the simulator's RaidController::SubmitRead).
  double WholeReadMs(const DiskCosts& costs) const;
  double WholeReadWaitedShare(const DiskCosts& costs) const;
  // The same for a write whose pieces and copies go at once (SyncWriteMs), on
  // write_members members, after its RAID 5/6 pre-reads (the longest path then waits
  // for the slowest pre-read).
  double WriteWaitedShare(const DiskCosts& costs, double fork_join_weight) const;
};

// From the scenario's ArrayGeometryFor, FsGeometryFor and ControllerReadAheadFor
// (read-ahead "always" reads each miss on to the end of its stripe unit: more bytes,
// the same commands); memoised by those.
StatusOr<AccessGeometry> ComputeAccessGeometry(const Scenario& scenario);
// The same for requests of `request_bytes` (a multiple of 512) at multiples of their
// size in a large file: an io workload's reads and writes (8 KiB = the pages above);
// `direct` (O_DIRECT): the request itself reaches the device, not whole fs blocks.
StatusOr<AccessGeometry> ComputeAccessGeometry(const Scenario& scenario, int64_t request_bytes,
                                               bool direct);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_ACCESS_GEOMETRY_H_
