#include "replay/volume.h"

#include <algorithm>
#include <string>

namespace pgstorsim {

StatusOr<std::unique_ptr<Volume>> Volume::Create(const std::vector<int>& member_targets,
                                                 const ArrayGeometry* array, const FsGeometry& fs) {
  StatusOr<FsMapping> mapping = FsMapping::Create(fs);
  if (!mapping.ok()) return mapping.status();
  std::unique_ptr<RaidLayout> layout;
  if (array != nullptr) {
    if (array->members != static_cast<int>(member_targets.size())) {
      return Status::Error("array has " + std::to_string(array->members) + " members but " +
                           std::to_string(member_targets.size()) + " targets were given");
    }
    auto created = RaidLayout::Create(*array);
    if (!created.ok()) return created.status();
    layout = std::move(created).value();
  } else if (member_targets.size() != 1) {
    return Status::Error("a volume without an array needs exactly one target");
  }
  return std::unique_ptr<Volume>(new Volume(member_targets, std::move(layout), *mapping));
}

StatusOr<int64_t> Volume::MemberBytesFor(const ArrayGeometry* array, const FsGeometry& fs,
                                         int64_t volume_bytes) {
  const int64_t granule = std::max<int64_t>({fs.fs_block_bytes, fs.fragment_bytes, 512});
  const int64_t device_bytes =
      fs.partition_offset_bytes + (volume_bytes + granule - 1) / granule * granule;
  if (array == nullptr) return device_bytes;
  Status valid = CheckArrayGeometry(*array, nullptr);
  if (!valid.ok()) return valid;
  return pgstorsim::MemberBytesFor(*array, device_bytes);
}

bool Volume::has_parity() const {
  if (!layout_) return false;
  return HasParity(layout_->geometry().level);
}

}  // namespace pgstorsim
