// RaidController's write path: the write-back cache, writes waiting for room, destaging
// (RAID 5/6 stripe gathering) and write-through.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/raid_controller.h"

namespace pgstorsim {
namespace sim {

void RaidController::Write(const VolumeOp& op, IoListener* listener, uint64_t token) {
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

void RaidController::AcceptWrite(const VolumeOp& op, IoListener* listener, uint64_t token) {
  if (write_cache_.Add(op.offset_bytes, op.length_bytes)) ++stats_.write_absorbed;
  stats_.max_dirty_bytes = std::max(stats_.max_dirty_bytes, write_cache_.dirty_bytes());
  Ack(NewPending(kHost, op, listener, token), config_.write_ack_ns);
  KickDestage();
}

// Write-through and destage: RAID 5/6 pre-reads first, then the writes.
void RaidController::StartPlannedWrite(uint32_t slot, const VolumeOp& op) {
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

void RaidController::KickDestage() {
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
void RaidController::GatherStripe(VolumeOp* op, int64_t* first, int64_t* end) {
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

void RaidController::DestageDone(uint32_t slot) {
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

}  // namespace sim
}  // namespace pgstorsim
