// What one destage write command costs an HDD behind a write-back controller: the
// controller destages its dirty data in ascending block order and keeps
// `destage_queue_depth` commands queued at each drive (at most io.queue_depth), which
// serves the one it reaches first (device/hdd_positioning.h). The dirty data it picks from is the
// write cache's room (DestagePendingBytes) spread over the workload's footprint, so the distance
// between neighbouring commands on a drive is footprint x bytes per command / pending
// bytes, whatever the RAID level (each member holds the same share of both). An
// explicit calibration.destage_position_ms > 0 replaces the derivation.
// Used by the analytic model's costs (storage_costs.cc) and the simulator's fixed
// destage cost of a calibrated scenario (sim/sim_config.cc), so both charge the same.
// Units: bytes, ms. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_DESTAGE_COST_H_
#define PGSTORSIM_MODEL_DESTAGE_COST_H_

#include "common/status.h"
#include "device/hdd_positioning.h"
#include "model/access_geometry.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// Volume bytes over which `data_bytes` of the scenario's workload lie once the
// filesystem has placed them (layout/fs_mapping.h FileSpread: an io workload's file as
// one file, PostgreSQL's relations as 1 GiB segment files) in the room the simulator's
// volume map leaves them (RoomForDataBytes: the array less the partition offset and, for
// a database, the WAL region pgmodel keeps): the span a disk's positioning ranges over.
// `data_bytes` itself without cylinder groups.
double PlacedSpanBytes(const Scenario& s, double data_bytes);

// The span one data member's positioning ranges over when the workload's data is
// `footprint_bytes` of volume data: its placed span shared by the data members.
double MemberSpanBytes(const Scenario& s, double footprint_bytes);

// The drives' seek curve for writes (avg_write_seek) or reads (avg_read_seek), x
// `seek_scale` above track-to-track.
HddSeekCurve SeekCurveOf(const DiskConfig& d, bool writes, double seek_scale);

// Destage commands a write-back controller keeps in flight at each member drive when
// its cost per destage command is the model's: the drives serve in order (their
// reordering gain is in the cost), so one in service and the next queued keep a drive
// busy; more would only delay the reads behind them. The simulator's controller takes
// the same for a calibrated scenario (sim/sim_config.cc).
inline constexpr int kDestagesInFlightPerMember = 2;

// Destage commands queued at each drive when no calibration gives the depth: the
// controller's line destages in flight per member (kDestageLinesPerMember, as the
// simulator's controller keeps them) x the member writes each makes (its mirror copy,
// its parity; layout MemberWritesPerUnitWrite), at most io.queue_depth.
double DestageQueueDepthOf(const Scenario& s);

// Dirty bytes a write-back controller destages from: the share of its write cache at
// which destaging starts (ControllerConfig::WriteCacheBytes x kDestageStartFraction).
double DestagePendingBytes(const Scenario& s);

// ms of positioning per destage write command on the scenario's HDDs, for writes that
// spread over `footprint_bytes` of volume data with the member commands of `g`.
// REQUIRES: s.disks.type == kHdd and a write-back controller.
double DestagePositionMs(const Scenario& s, const ModelParams& p, double footprint_bytes,
                         const AccessGeometry& g);

// The same for the scenario's own workload (pgbench: the database at workload.scale;
// io: the file and its requests' geometry). Errors: an invalid layout or scale.
StatusOr<double> DestagePositionMsFor(const Scenario& s, const ModelParams& p);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_DESTAGE_COST_H_
