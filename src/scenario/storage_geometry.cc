#include "scenario/storage_geometry.h"

#include "common/units.h"

namespace pgstorsim {

ArrayGeometry ArrayGeometryFor(const Scenario& s) {
  ArrayGeometry g;
  g.level = s.array.level;
  g.members = s.array.disks;
  g.stripe_unit_bytes = s.array.stripe_bytes;
  g.member_size_bytes = s.disks.capacity_bytes;
  g.span_stripe_bytes = s.array.span_stripe_bytes;  // Refused by the check unless spanned.
  if (IsSpannedLevel(g.level)) {
    g.span_members = s.array.spans > 0 ? s.array.disks / s.array.spans : 0;
  }
  return g;
}

FsGeometry FsGeometryFor(const Scenario& s) {
  FsGeometry g;
  g.partition_offset_bytes = s.filesystem.partition_offset_bytes;
  g.fs_block_bytes = s.filesystem.block_size_bytes;
  g.fragment_bytes = s.filesystem.fragment_size_bytes;
  g.group_bytes = s.filesystem.blocks_per_group * s.filesystem.block_size_bytes;
  g.section_bytes = s.filesystem.max_blocks_per_group * s.filesystem.block_size_bytes;
  return g;
}

ReadAheadPolicy ControllerReadAheadFor(const Scenario& s) {
  return s.controller.HasCache() ? s.controller.read_ahead : ReadAheadPolicy::kNone;
}

double ControllerReadHitMs(const Scenario& s) {
  auto given = s.calibration.values.find("controller_read_hit_ms");
  if (given != s.calibration.values.end()) return given->second;
  return NsToMs(ControllerConfig::kReadHitNs);
}

const char* ScenarioKeyFor(GeometryField field) {
  switch (field) {
    case GeometryField::kLevel:
      return "array.level";
    case GeometryField::kMembers:
      return "array.disks";
    case GeometryField::kStripeUnit:
      return "array.stripe";
    case GeometryField::kMemberSize:
      return "disks.capacity";
    case GeometryField::kSpanMembers:
      return "array.spans";
    case GeometryField::kSpanStripe:
      return "array.span_stripe";
  }
  return "array.level";
}

}  // namespace pgstorsim
