// RaidController's read path: read cache, read-ahead, mirror copy choice and one
// positioning per split read.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/raid_controller.h"

namespace pgstorsim {
namespace sim {

bool RaidController::CachedRead(const VolumeOp& op) {
  if (!config_.has_cache) return false;
  if (read_cache_.Lookup(op.offset_bytes, op.length_bytes)) return true;
  const int64_t line_end = (op.offset_bytes / line_bytes_ + 1) * line_bytes_;
  return op.offset_bytes + op.length_bytes <= line_end &&
         write_cache_.Covers(op.offset_bytes, op.length_bytes);
}

// The read range after controller read-ahead.
int64_t RaidController::ReadLength(const VolumeOp& op, bool sequential) {
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

void RaidController::Read(const VolumeOp& op, IoListener* listener, uint64_t token) {
  ++stats_.reads;
  const uint32_t slot = NewPending(kHost, op, listener, token);
  const bool sequential = op.offset_bytes == last_read_end_bytes_;
  last_read_end_bytes_ = op.offset_bytes + op.length_bytes;
  if (CachedRead(op)) {
    ++stats_.read_hits;
    return Ack(slot, config_.read_hit_ns);
  }
  // The last disk read (with its read-ahead) holds the read's start: only the rest
  // comes from the disks, from where that read ended.
  const bool overlaps = config_.has_cache && op.offset_bytes >= disk_read_.offset_bytes &&
                        op.offset_bytes < disk_read_.offset_bytes + disk_read_.length_bytes;
  const int64_t cached =
      overlaps ? disk_read_.offset_bytes + disk_read_.length_bytes - op.offset_bytes : 0;
  const VolumeOp rest{op.op, op.offset_bytes + cached, op.length_bytes - cached};
  const int64_t length = ReadLength(rest, sequential);
  disk_read_ = {IoOp::kRead, rest.offset_bytes, length};
  if (config_.has_cache) read_cache_.Insert(rest.offset_bytes, length);
  std::vector<ReadPiece>& pieces = read_pieces_;  // Scratch: no allocation per read.
  layout_->MapReadInto(rest.offset_bytes, length, &pieces);
  std::vector<MemberExtent>& extents = read_extents_;
  extents.clear();
  for (const ReadPiece& piece : pieces) {
    if (!MergeContiguous(piece, &extents)) extents.push_back(PickCopy(piece));
  }
  if (extents.size() > 1) ++stats_.split_requests;
  for (const MemberExtent& e : extents) read_end_bytes_[e.member] = e.offset_bytes + e.length_bytes;
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
bool RaidController::MergeContiguous(const ReadPiece& piece, std::vector<MemberExtent>* extents) {
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

// Mirror read balancing: a piece that starts where a copy's last read ended goes to
// that copy (a sequential stream stays on the disk whose head and look-ahead are
// there, as Linux md's raid1 read_balance keeps sequential reads on one disk);
// otherwise the copy with fewer outstanding requests; ties alternate within each
// mirror set (a turn per set: one shared turn, taken by every piece of a split read,
// sent each piece's reads to the same copy when the read had an even number of pieces,
// e.g. a misaligned 64 KiB block on a 32 KiB-stripe RAID 10 put 97 % of its reads on
// one disk of each pair).
MemberExtent RaidController::PickCopy(const ReadPiece& piece) {
  for (const MemberExtent& copy : piece.copies) {
    if (piece.copies.size() > 1 && read_end_bytes_[copy.member] == copy.offset_bytes) return copy;
  }
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

}  // namespace sim
}  // namespace pgstorsim
