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

// kRaid100: RAID 10 sets (spans) striped by RAID 0, e.g. hardware RAID 10 volumes
// striped by software RAID 0 (md) with its own chunk.
enum class RaidLevel { kJbod, kRaid0, kRaid1, kRaid10, kRaid5, kRaid6, kRaid50, kRaid60, kRaid100 };

StatusOr<RaidLevel> ParseRaidLevel(const std::string& text);  // "raid10", "RAID-10", "10"
const char* RaidLevelName(RaidLevel level);                   // "raid10"
// Levels made of equal spans striped by RAID 0: raid50, raid60, raid100.
bool IsSpannedLevel(RaidLevel level);
// Levels with parity (read-modify-write on small writes): raid5, raid6, raid50, raid60.
bool HasParity(RaidLevel level);

struct ArrayGeometry {
  RaidLevel level = RaidLevel::kRaid0;
  int members = 1;                    // Total member disks.
  int64_t stripe_unit_bytes = 65536;  // Multiple of 512.
  int64_t member_size_bytes = 0;      // Usable bytes per member.
  int span_members = 0;               // Spanned levels: members per span (0 = n/a).
  // Spanned levels: the RAID 0 chunk over the spans (bytes given to one span before the
  // next); 0 = stripe_unit_bytes. A multiple of 512.
  int64_t span_stripe_bytes = 0;
};

// The geometry field a validity problem is about (so callers can name their own key).
enum class GeometryField { kLevel, kMembers, kStripeUnit, kMemberSize, kSpanMembers, kSpanStripe };
// The one RAID validity check (RaidLayout::Create and scenario validation use it): ok,
// or an error naming the problem with *field set to the field at fault.
Status CheckArrayGeometry(const ArrayGeometry& geometry, GeometryField* field);
// Members holding distinct data in each row (the rest hold mirror copies or parity),
// and copies of each data unit (mirrors). REQUIRES: a valid geometry.
int DataMembers(const ArrayGeometry& geometry);
int DataCopies(const ArrayGeometry& geometry);
// Member writes that writing one stripe unit's data makes: its copies (mirrors) and
// its parity units (RAID 5: 2, RAID 6: 3; RAID 10: 2; RAID 0: 1). REQUIRES: valid.
int MemberWritesPerUnitWrite(const ArrayGeometry& geometry);
// The smallest member size (a whole number of stripe units) whose array exposes at
// least `logical_bytes`. REQUIRES: a valid geometry (member_size_bytes ignored).
int64_t MemberBytesFor(const ArrayGeometry& geometry, int64_t logical_bytes);
// The logical bytes the array exposes (RaidLayout::capacity_bytes). REQUIRES: a valid
// geometry with member_size_bytes > 0.
int64_t ArrayCapacityBytes(const ArrayGeometry& geometry);
// Mapping conventions (all levels cut requests at stripe-unit boundaries; the unit
// size is also the member offset granularity; member_size_bytes is rounded down to a
// whole number of units; 0 means unbounded except for JBOD, which needs it):
//   JBOD    concatenation: member i holds logical [i*size, (i+1)*size).
//   RAID 0  unit c -> member c % n, row c / n.
//   RAID 1  n-way mirror, capacity = one member.
//   RAID 10 pairs (0,1), (2,3), ...; unit c -> pair c % (n/2), row c / (n/2).
//   RAID 5  left-symmetric: row r has parity on member n-1-(r % n), data unit k on
//           member (parity + 1 + k) % n.
//   RAID 6  row r: P on member n-1-(r % n), Q on (P + 1) % n, data unit k on
//           (P + 2 + k) % n; Q = sum g^k * D_k over GF(2^8), g = 2, poly 0x11d.
//   RAID 50/60/100  RAID 0 over spans of span_members members (span s holds members
//           s*span_members ...) with chunk K = span_stripe_bytes (default: the unit):
//           chunk k -> span k % spans at span offset (k / spans) * K; inside its span
//           the offset maps as RAID 5 / RAID 6 / RAID 10 of span_members members;
//           stripe ids are span row * spans + span (unique array-wide).

// What a member extent holds (for RAID 5/6 parity arithmetic in the replayer).
enum class ExtentRole : uint8_t { kData, kParityP, kParityQ };

// One place on one member. The fields after length_bytes are additions describing
// the extent's role in its stripe; a plain {member, offset, length} stays valid.
struct MemberExtent {
  int member = 0;
  int64_t offset_bytes = 0;
  int64_t length_bytes = 0;
  ExtentRole role = ExtentRole::kData;
  // Array-wide stripe (row) number; extents with equal `stripe` share parity.
  int64_t stripe = 0;
  // Data extents: position of the unit among its stripe's data units (the RAID 6 Q
  // coefficient is g^data_index) and the logical array offset of its first byte.
  int data_index = 0;
  int64_t logical_offset_bytes = 0;
};

// True when `next` starts on the same member where `prev` ends: the two are one
// contiguous member range (one command when issued together).
inline bool ContinuesOnMember(const MemberExtent& prev, const MemberExtent& next) {
  return prev.member == next.member && prev.offset_bytes + prev.length_bytes == next.offset_bytes;
}

// Joins every extent that continues an earlier one on its member into that extent, in
// place (order of first pieces kept): how a host that issues a request's member I/O
// itself (md, the replayer, an HBA's block layer) sends one I/O per contiguous member
// range. Example: a 64 KiB block over three units of a 32 KiB RAID 10 -> one I/O per
// pair's disk, not two. Roles are not compared (only data extents are ever adjacent).
void MergeContiguousOnMembers(std::vector<MemberExtent>* extents);

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
// RAID 5/6: a stripe whose data units are all fully written is a full-stripe write
// (parity computed from the new data, no pre-reads); any other touched stripe is a
// read-modify-write: pre-read the old data of each written piece and the old parity
// over the union of the written in-unit ranges, then write data and parity. A parity
// extent covers in-unit bytes [min start, max end) of that stripe's written pieces.
struct WritePlan {
  std::vector<MemberExtent> pre_reads;
  std::vector<MemberExtent> writes;
};

class RaidLayout {
 public:
  virtual ~RaidLayout() = default;
  // Validates the geometry with CheckArrayGeometry (odd member count for RAID 10,
  // stripe not a multiple of 512, too few members for the level, ...).
  static StatusOr<std::unique_ptr<RaidLayout>> Create(const ArrayGeometry& geometry);

  virtual const ArrayGeometry& geometry() const = 0;
  virtual int64_t capacity_bytes() const = 0;  // Logical bytes the array exposes.
  // Logical bytes after which the mapping repeats: offsets x and x + period_bytes()
  // land on the same members at the same in-unit offsets (only the rows differ), so an
  // average over uniformly placed requests is exact over one period. 0 for JBOD.
  virtual int64_t period_bytes() const = 0;
  // Parity levels: the logical range holding the data of the stripe (parity group)
  // that `offset_bytes` lies in, when that range is contiguous (RAID 5/6; RAID 50/60
  // when the span stripe is a whole number of span rows), so a cache holding all of
  // it can write the stripe whole (no read-modify-write). False otherwise.
  virtual bool StripeDataRange(int64_t offset_bytes, int64_t* start_bytes,
                               int64_t* length_bytes) const = 0;
  // REQUIRES: 0 <= offset, length > 0, offset + length <= capacity_bytes().
  std::vector<ReadPiece> MapRead(int64_t offset_bytes, int64_t length_bytes) const {
    std::vector<ReadPiece> pieces;
    MapReadInto(offset_bytes, length_bytes, &pieces);
    return pieces;
  }
  // The same into *pieces (replacing its contents), reusing the storage of the pieces
  // already there: no allocation once it has held as many pieces (for hot paths).
  virtual void MapReadInto(int64_t offset_bytes, int64_t length_bytes,
                           std::vector<ReadPiece>* pieces) const = 0;
  WritePlan MapWrite(int64_t offset_bytes, int64_t length_bytes) const {
    WritePlan plan;
    MapWriteInto(offset_bytes, length_bytes, &plan);
    return plan;
  }
  // The same into *plan (replacing its contents, reusing its vectors' storage).
  virtual void MapWriteInto(int64_t offset_bytes, int64_t length_bytes, WritePlan* plan) const = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_LAYOUT_RAID_LAYOUT_H_
