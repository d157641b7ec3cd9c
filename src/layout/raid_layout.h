// RaidLayout: the one RAID mapping (logical offset+length -> member operations) used
// by both the replayer's software array and the simulator. Tested once, trusted twice.
//
// Units: bytes everywhere. Stripe unit = bytes per member per stripe (the
// controller's "stripe size", e.g. 64 KiB). A logical request is cut at stripe-unit
// boundaries; each piece maps to one location per copy. Thread safety: immutable
// after Create(), safe to share.
#ifndef PGSTORSIM_LAYOUT_RAID_LAYOUT_H_
#define PGSTORSIM_LAYOUT_RAID_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

enum class RaidLevel { kJbod, kRaid0, kRaid1, kRaid10, kRaid5, kRaid6, kRaid50, kRaid60 };

StatusOr<RaidLevel> ParseRaidLevel(const std::string& text);  // "raid10", "RAID-10", "10"
const char* RaidLevelName(RaidLevel level);                    // "raid10"

struct ArrayGeometry {
  RaidLevel level = RaidLevel::kRaid0;
  int members = 1;                   // Total member disks.
  int64_t stripe_unit_bytes = 65536; // Multiple of 512.
  int64_t member_size_bytes = 0;     // Usable bytes per member.
  int span_members = 0;              // RAID 50/60: members per RAID 5/6 span (0 = n/a).
};

// One place on one member.
struct MemberExtent {
  int member = 0;
  int64_t offset_bytes = 0;
  int64_t length_bytes = 0;
};

// A piece of a logical read that lies within one stripe unit, with every member
// location holding a copy (2 for RAID 1/10 mirrors, 1 otherwise). The caller picks one
// (e.g. the less busy), which is how mirror read balancing is modelled and replayed.
struct ReadPiece {
  int64_t logical_offset_bytes = 0;
  int64_t length_bytes = 0;
  std::vector<MemberExtent> copies;
};

// A logical write: reads that must complete first (RAID 5/6 read-modify-write of old
// data and parity), then the writes (every mirror copy; data and parity).
struct WritePlan {
  std::vector<MemberExtent> pre_reads;
  std::vector<MemberExtent> writes;
};

class RaidLayout {
 public:
  virtual ~RaidLayout() = default;
  // Validates the geometry (odd member count for RAID 10, stripe not a multiple of
  // 512, too few members for the level, ...) with a message naming the problem.
  static StatusOr<std::unique_ptr<RaidLayout>> Create(const ArrayGeometry& geometry);

  virtual const ArrayGeometry& geometry() const = 0;
  virtual int64_t capacity_bytes() const = 0;  // Logical bytes the array exposes.
  // REQUIRES: 0 <= offset, length > 0, offset + length <= capacity_bytes().
  virtual std::vector<ReadPiece> MapRead(int64_t offset_bytes, int64_t length_bytes) const = 0;
  virtual WritePlan MapWrite(int64_t offset_bytes, int64_t length_bytes) const = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_LAYOUT_RAID_LAYOUT_H_
