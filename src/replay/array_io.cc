#include "replay/array_io.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "replay/parity.h"

namespace pgstorsim {
namespace {

constexpr int64_t kAlign = 4096;

int64_t RoundUp(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

bool Failed(const IoRequest& r) {
  return r.result < 0 || (r.direction != IoDirection::kFsync && r.result < r.length_bytes);
}

bool SamePlace(const MemberExtent& a, const MemberExtent& b) {
  return a.member == b.member && a.offset_bytes == b.offset_bytes && a.role == b.role;
}

AccessOutcome Combine(const AccessOutcome& first, const AccessOutcome& second) {
  AccessOutcome o = second;
  if (first.member_requests > 0) o.start_ns = first.start_ns;
  o.member_requests += first.member_requests;
  o.errors += first.errors;
  return o;
}

}  // namespace

ArrayIo::ArrayIo(IoCore* core, const DeviceStats* stats, StripeLocks* locks, uint64_t seed)
    : core_(core), stats_(stats), locks_(locks), rng_(seed) {}

AccessOutcome ArrayIo::Run(std::vector<IoRequest>* requests) {
  AccessOutcome o;
  merger_.Merge(requests);
  batch_.clear();
  for (IoRequest& r : *requests) batch_.push_back(&r);
  const int64_t before_ns = MonotonicNowNs();
  const bool engine_ok = core_->RunBatch(batch_).ok();
  o.start_ns = before_ns;
  o.end_ns = before_ns;
  bool first = true;
  for (const IoRequest& r : *requests) {
    if (r.issue_ns > 0) o.start_ns = first ? r.issue_ns : std::min(o.start_ns, r.issue_ns);
    first = first && r.issue_ns <= 0;
    o.end_ns = std::max(o.end_ns, r.complete_ns);
    if (!engine_ok || Failed(r)) ++o.errors;
  }
  o.member_requests = static_cast<int>(requests->size());
  return o;
}

void ArrayIo::FillWriteData(int64_t length_bytes) {
  if (data_.size_bytes() < length_bytes) {
    data_.Reserve(length_bytes);
    for (int64_t i = 0; i + 8 <= data_.size_bytes(); i += 8) {
      const uint64_t word = rng_.Next();
      memcpy(data_.data() + i, &word, 8);
    }
  }
  // Each write carries a distinct stamp, so parity really changes from write to write.
  ++write_counter_;
  for (int64_t i = 0; i + 8 <= length_bytes; i += 512) {
    memcpy(data_.data() + i, &write_counter_, 8);
  }
}

const MemberExtent& ArrayIo::PickCopy(const ReadPiece& piece, const std::vector<int>& targets) {
  const size_t n = piece.copies.size();
  // Ties alternate within each mirror set (one shared turn falls in step with a
  // pattern of sets: pairs read in turn always got the same copy).
  const size_t rotate = static_cast<size_t>(mirror_turn_[targets[piece.copies[0].member]]++ % n);
  size_t best = rotate;
  int best_in_flight = stats_->InFlight(targets[piece.copies[best].member]);
  for (size_t k = 1; k < n; ++k) {
    const size_t i = (rotate + k) % n;
    const int in_flight = stats_->InFlight(targets[piece.copies[i].member]);
    if (in_flight < best_in_flight) {
      best = i;
      best_in_flight = in_flight;
    }
  }
  return piece.copies[best];
}

// A copy of `piece` that starts where a read already planned for this access ends on
// the same member (the two merge into one I/O), or where this worker's last read of
// that member ended (a sequential stream stays on the disk whose head and look-ahead
// are there, as Linux md's raid1 read_balance does; the simulator's controller too).
const MemberExtent* ArrayIo::ContinuingCopy(const ReadPiece& piece,
                                            const std::vector<int>& targets) const {
  if (piece.copies.size() < 2) return nullptr;
  for (const MemberExtent& copy : piece.copies) {
    for (const IoRequest& r : requests_) {
      if (r.target == targets[copy.member] &&
          r.offset_bytes + r.length_bytes == copy.offset_bytes) {
        return &copy;
      }
    }
  }
  for (const MemberExtent& copy : piece.copies) {
    const auto last = read_end_bytes_.find(targets[copy.member]);
    if (last != read_end_bytes_.end() && last->second == copy.offset_bytes) return &copy;
  }
  return nullptr;
}

std::optional<AccessOutcome> ArrayIo::RunUnsplit(const Volume& volume, IoDirection direction,
                                                 const DeviceRequest& dev) {
  requests_.clear();
  const RaidLayout* layout = volume.layout();
  if (layout == nullptr) {
    requests_.push_back(
        {volume.member_targets()[0], direction, dev.offset_bytes, dev.length_bytes, data_.data()});
    return Run(&requests_);
  }
  if (dev.offset_bytes + dev.length_bytes > layout->capacity_bytes()) {
    return AccessOutcome{MonotonicNowNs(), MonotonicNowNs(), 0, 1};
  }
  return std::nullopt;
}

AccessOutcome ArrayIo::Read(const Volume& volume, int64_t volume_offset, int64_t length) {
  const DeviceRequest dev = volume.fs().MapRead(volume_offset, length);
  data_.Reserve(dev.length_bytes);
  if (std::optional<AccessOutcome> done = RunUnsplit(volume, IoDirection::kRead, dev)) {
    return *done;
  }
  const std::vector<int>& targets = volume.member_targets();
  for (const ReadPiece& piece : volume.layout()->MapRead(dev.offset_bytes, dev.length_bytes)) {
    const MemberExtent* continuing = ContinuingCopy(piece, targets);
    const MemberExtent& copy = continuing != nullptr ? *continuing : PickCopy(piece, targets);
    requests_.push_back({targets[copy.member], IoDirection::kRead, copy.offset_bytes,
                         piece.length_bytes,
                         data_.data() + (piece.logical_offset_bytes - dev.offset_bytes)});
  }
  for (const IoRequest& r : requests_) read_end_bytes_[r.target] = r.offset_bytes + r.length_bytes;
  return Run(&requests_);
}

AccessOutcome ArrayIo::Write(const Volume& volume, int64_t volume_offset, int64_t length) {
  const DeviceRequest dev = volume.fs().MapWrite(volume_offset, length);
  FillWriteData(dev.length_bytes);
  if (std::optional<AccessOutcome> done = RunUnsplit(volume, IoDirection::kWrite, dev)) {
    return *done;
  }
  const std::vector<int>& targets = volume.member_targets();
  const WritePlan plan = volume.layout()->MapWrite(dev.offset_bytes, dev.length_bytes);
  // Overlapping writes of two workers must not interleave between mirror copies or
  // inside a read-modify-write: hold the stripes' locks (ascending: no deadlock).
  std::vector<int> slots;
  for (const MemberExtent& e : plan.writes) {
    slots.push_back(static_cast<int>(e.stripe % StripeLocks::kSlots));
  }
  std::sort(slots.begin(), slots.end());
  slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
  std::vector<std::unique_lock<std::mutex>> held;
  for (int slot : slots) held.emplace_back(locks_->Slot(slot));
  if (volume.has_parity()) return WriteWithParity(volume, dev, plan);
  for (const MemberExtent& e : plan.writes) {
    requests_.push_back({targets[e.member], IoDirection::kWrite, e.offset_bytes, e.length_bytes,
                         data_.data() + (e.logical_offset_bytes - dev.offset_bytes)});
  }
  return Run(&requests_);
}

AccessOutcome ArrayIo::WriteWithParity(const Volume& volume, const DeviceRequest& dev,
                                       const WritePlan& plan) {
  int64_t scratch_bytes = 0;
  for (const MemberExtent& e : plan.pre_reads) scratch_bytes += RoundUp(e.length_bytes);
  for (const MemberExtent& e : plan.writes) {
    if (e.role != ExtentRole::kData) scratch_bytes += RoundUp(e.length_bytes);
  }
  scratch_.Reserve(scratch_bytes);
  const std::vector<int>& targets = volume.member_targets();
  requests_.clear();
  int64_t pos = 0;
  for (const MemberExtent& e : plan.pre_reads) {
    requests_.push_back({targets[e.member], IoDirection::kRead, e.offset_bytes, e.length_bytes,
                         scratch_.data() + pos});
    pos += RoundUp(e.length_bytes);
  }
  AccessOutcome pre;
  if (!requests_.empty()) pre = Run(&requests_);
  std::vector<IoRequest> writes;
  ComputeParity(volume, dev, plan, &writes);
  return Combine(pre, Run(&writes));
}

// Parity = old parity (or 0 for a full-stripe write) ^ sum over written data units of
// coef * (old data ^ new data); coef = 1 for P, g^data_index for Q.
void ArrayIo::ComputeParity(const Volume& volume, const DeviceRequest& dev, const WritePlan& plan,
                            std::vector<IoRequest>* writes) {
  const int64_t unit = volume.layout()->geometry().stripe_unit_bytes;
  const std::vector<int>& targets = volume.member_targets();
  auto old_copy = [&](const MemberExtent& e) -> const uint8_t* {
    int64_t pos = 0;
    for (const MemberExtent& r : plan.pre_reads) {
      if (SamePlace(r, e)) return scratch_.data() + pos;
      pos += RoundUp(r.length_bytes);
    }
    return nullptr;
  };
  int64_t pos = 0;
  for (const MemberExtent& e : plan.pre_reads) pos += RoundUp(e.length_bytes);
  for (const MemberExtent& w : plan.writes) {
    if (w.role == ExtentRole::kData) {
      writes->push_back({targets[w.member], IoDirection::kWrite, w.offset_bytes, w.length_bytes,
                         data_.data() + (w.logical_offset_bytes - dev.offset_bytes)});
      continue;
    }
    uint8_t* parity = scratch_.data() + pos;
    pos += RoundUp(w.length_bytes);
    const uint8_t* old_parity = old_copy(w);
    if (old_parity != nullptr) {
      memcpy(parity, old_parity, static_cast<size_t>(w.length_bytes));
    } else {
      memset(parity, 0, static_cast<size_t>(w.length_bytes));
    }
    for (const MemberExtent& d : plan.writes) {
      if (d.role != ExtentRole::kData || d.stripe != w.stripe) continue;
      uint8_t* at = parity + (d.offset_bytes % unit - w.offset_bytes % unit);
      const uint8_t coef = w.role == ExtentRole::kParityP ? 1 : GfPow2(d.data_index);
      const size_t n = static_cast<size_t>(d.length_bytes);
      GfMulXorInto(at, data_.data() + (d.logical_offset_bytes - dev.offset_bytes), n, coef);
      const uint8_t* old_data = old_copy(d);
      if (old_data != nullptr) GfMulXorInto(at, old_data, n, coef);
    }
    writes->push_back(
        {targets[w.member], IoDirection::kWrite, w.offset_bytes, w.length_bytes, parity});
  }
}

AccessOutcome ArrayIo::Flush(const Volume& volume) {
  requests_.clear();
  for (int t : volume.member_targets()) requests_.push_back({t, IoDirection::kFsync});
  return Run(&requests_);
}

}  // namespace pgstorsim
