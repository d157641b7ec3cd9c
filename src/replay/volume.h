// Volume: where the replayer puts a stream's bytes. One target used directly, or an
// array of member targets mapped by RaidLayout; in both cases seen through the
// filesystem emulation (FsMapping: partition offset, filesystem block, fragment).
// Immutable after Create(); safe to share between worker threads.
#ifndef PGSTORSIM_REPLAY_VOLUME_H_
#define PGSTORSIM_REPLAY_VOLUME_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "layout/fs_mapping.h"
#include "layout/raid_layout.h"

namespace pgstorsim {

class Volume {
 public:
  // `member_targets`: indices of the volume's targets in the replay's target list, in
  // member order. `array`: nullptr for a single target, else the geometry (its
  // member_size_bytes must be set to the smallest member's size).
  static StatusOr<std::unique_ptr<Volume>> Create(const std::vector<int>& member_targets,
                                                  const ArrayGeometry* array, const FsGeometry& fs);
  // Bytes each member (or the single target) must have so that a filesystem holding
  // `volume_bytes` of files fits, fs rounding and partition offset included.
  static StatusOr<int64_t> MemberBytesFor(const ArrayGeometry* array, const FsGeometry& fs,
                                          int64_t volume_bytes);

  const std::vector<int>& member_targets() const { return members_; }
  const FsMapping& fs() const { return fs_; }
  // nullptr for a single target.
  const RaidLayout* layout() const { return layout_.get(); }
  bool has_parity() const;

 private:
  Volume(std::vector<int> members, std::unique_ptr<RaidLayout> layout, FsMapping fs)
      : members_(std::move(members)), layout_(std::move(layout)), fs_(fs) {}
  std::vector<int> members_;
  std::unique_ptr<RaidLayout> layout_;
  FsMapping fs_;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_REPLAY_VOLUME_H_
