// The one derivation of a scenario's storage geometry, used by replay, simulate and
// predict: the RAID array (level, members, stripe unit, spans, member size) and the
// filesystem on it (partition offset, block, fragment). Validity is checked once, by
// layout/raid_layout.h's CheckArrayGeometry, through ValidateScenario.
// Units: bytes. Thread safety: pure functions.
#ifndef PGSTORSIM_SCENARIO_STORAGE_GEOMETRY_H_
#define PGSTORSIM_SCENARIO_STORAGE_GEOMETRY_H_

#include <string>

#include "layout/fs_mapping.h"
#include "layout/raid_layout.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// array.level, array.disks, array.stripe; spanned levels (raid50/60/100): span_members
// = array.disks / array.spans and span_stripe_bytes = array.span_stripe; member size =
// disks.capacity (a replay on real devices uses the smallest member's size instead).
// RAID 10's array.spans (a controller's spans of mirrored pairs) map like plain RAID
// 10 and do not enter the geometry.
ArrayGeometry ArrayGeometryFor(const Scenario& scenario);
// filesystem.partition_offset, filesystem.block_size, filesystem.fragment_size,
// filesystem.blocks_per_group, filesystem.max_blocks_per_group.
FsGeometry FsGeometryFor(const Scenario& scenario);
// The controller's read-ahead in effect: controller.read_ahead behind a RAID
// controller with a cache, none otherwise (an HBA or no cache reads nothing ahead).
ReadAheadPolicy ControllerReadAheadFor(const Scenario& scenario);
// A read served from the controller's cache, ms: calibration.controller_read_hit_ms,
// else ControllerConfig::kReadHitNs (both models).
double ControllerReadHitMs(const Scenario& scenario);
// The scenario key that sets a geometry field ("array.disks", "array.spans", ...).
const char* ScenarioKeyFor(GeometryField field);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_STORAGE_GEOMETRY_H_
