// ArrayIo: turns one logical access on a Volume (a page read, a page write, a flush)
// into member I/O and runs it through the worker's IoCore. Pieces of one access that
// are contiguous on one member are merged into one I/O (replay/member_merge.h), as a
// controller or md does; the I/Os of one access on different members are issued
// together and the access completes with the slowest (fork-join); mirror reads go to
// the copy that continues a piece already read from a member, else to the copy with
// fewer requests in flight; writes to an array hold per-stripe locks (so
// mirror copies never diverge); RAID 5/6 writes pre-read old data and parity,
// compute the new parity (replay/parity.h) and write data and parity under the same
// locks, so concurrent workers cannot interleave read-modify-writes.
//
// One ArrayIo per worker thread (it owns the worker's buffers); StripeLocks and
// DeviceStats are shared.
#ifndef PGSTORSIM_REPLAY_ARRAY_IO_H_
#define PGSTORSIM_REPLAY_ARRAY_IO_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/random.h"
#include "io/io_core.h"
#include "replay/member_merge.h"
#include "replay/volume.h"

namespace pgstorsim {

class StripeLocks {
 public:
  static constexpr int kSlots = 1024;
  std::mutex& ForStripe(int64_t stripe) { return slots_[static_cast<size_t>(stripe) % kSlots]; }
  std::mutex& Slot(int index) { return slots_[index]; }

 private:
  std::array<std::mutex, kSlots> slots_;
};

// One logical access: wall-clock span of its member I/O, how many member requests it
// issued (after merging) and how many failed (error or short transfer).
struct AccessOutcome {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int member_requests = 0;
  int errors = 0;
};

class ArrayIo {
 public:
  // None are owned; all must outlive this object. `seed` fills the write data.
  ArrayIo(IoCore* core, const DeviceStats* stats, StripeLocks* locks, uint64_t seed);

  // `volume_offset_bytes`: offset inside the volume's filesystem (file base + offset).
  AccessOutcome Read(const Volume& volume, int64_t volume_offset_bytes, int64_t length_bytes);
  AccessOutcome Write(const Volume& volume, int64_t volume_offset_bytes, int64_t length_bytes);
  // fdatasync on every member of the volume.
  AccessOutcome Flush(const Volume& volume);
  // The device-level bytes of the last Read (what was read) or Write (what was
  // written), in device-offset order from the request's first byte; valid until the
  // next call.
  const uint8_t* data() const { return data_.data(); }

 private:
  AccessOutcome Run(std::vector<IoRequest>* requests);
  // The start Read and Write share, after mapping the access to `dev` and preparing
  // data_: clears requests_; on a volume without a RAID layout runs `dev` as one I/O on
  // its only member, past the array's capacity fails it without I/O (one error), and
  // returns that outcome; otherwise nullopt: the caller splits `dev` over the members.
  std::optional<AccessOutcome> RunUnsplit(const Volume& volume, IoDirection direction,
                                          const DeviceRequest& dev);
  void FillWriteData(int64_t length_bytes);
  const MemberExtent& PickCopy(const ReadPiece& piece, const std::vector<int>& targets);
  const MemberExtent* ContinuingCopy(const ReadPiece& piece, const std::vector<int>& targets) const;
  AccessOutcome WriteWithParity(const Volume& volume, const DeviceRequest& dev,
                                const WritePlan& plan);
  void ComputeParity(const Volume& volume, const DeviceRequest& dev, const WritePlan& plan,
                     std::vector<IoRequest>* writes);

  IoCore* core_;
  const DeviceStats* stats_;
  StripeLocks* locks_;
  Random rng_;
  uint64_t write_counter_ = 0;
  std::unordered_map<int, uint64_t> mirror_turn_;  // Per mirror set, by its first copy.
  AlignedBuffer data_;                             // Write data / read target.
  AlignedBuffer scratch_;                          // Pre-reads and parity.
  std::vector<IoRequest> requests_;
  std::unordered_map<int, int64_t> read_end_bytes_;  // Per target: where its last read ended.
  std::vector<IoRequest*> batch_;
  MemberMerger merger_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_ARRAY_IO_H_
