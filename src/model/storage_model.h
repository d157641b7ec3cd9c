// StorageModel: the analytic latency model of a TPC-B-like workload on a RAID array
// (docs/model.md). From a Scenario it derives per-transaction service demands at every
// member disk (filesystem blocks cut at stripe-unit boundaries by the shared
// FsMapping + RaidLayout, mirror reads balanced over copies, RAID 5/6
// read-modify-write, controller write-back destaging), solves a closed queueing
// network by exact MVA with a fork-join wait (a delay) for reads split over members
// (a cold cache as a ramp integrated over the run), and
// switches between two regimes: reads bound (destage in the background, commits absorbed
// by the write-back cache) and destage bound (the cache is full, commits wait for
// destage).
//
// Units: times in ms (*_ms), rates per second. Parameters the DBA does not know come
// from scenario.calibration (names in ModelParams); missing ones take the defaults.
// Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_STORAGE_MODEL_H_
#define PGSTORSIM_MODEL_STORAGE_MODEL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "model/latency_shape.h"
#include "scenario/scenario.h"

namespace pgstorsim {

// Calibratable parameters; the name of each is its key in [calibration].
struct ModelParams {
  double read_seek_scale = 1.0;        // "read_seek_scale": x datasheet seek curve.
  double destage_position_ms = 0;      // "destage_position_ms": > 0: positioning per
                                       // destage command; 0: from destage_queue_depth.
  double destage_queue_depth = 8;      // "destage_queue_depth": destage commands queued
                                       // per drive, which it reorders (destage_cost.h;
                                       // ParamsFromScenario: DestageQueueDepthOf).
  double cpu_ms = 0.6;                 // "cpu_ms": non-I/O time per transaction.
  double commit_ms = 0.2;              // "commit_ms": commit into a non-full write-back cache.
  double cache_fraction = 0.75;        // "cache_fraction": share of RAM caching data pages.
  double destage_threshold = 0.75;     // "destage_threshold": destage load at which the
                                       // write-back cache fills (regime switch).
  double fork_join_weight = 0.5;       // "fork_join_weight": a read split over k
                                       // members waits for the slowest of k
                                       // positionings, 1 + w (H_k - 1) of one
                                       // (AccessGeometry::ReadWaitedShare).
  double update_residence_share = 0;   // "update_residence_share": > 0: share of the
                                       // destage-bound disk residence (reads and
                                       // destage alike) spent in UPDATE accounts, the
                                       // rest in END; 0: UPDATE = reads, END = destage.
  double whole_block_reads = 0;        // "whole_block_reads": 1: a block read costs the
                                       // disks one positioning + the block's transfer,
                                       // spread over members, whatever the stripe (no
                                       // per-piece commands, no fork-join wait).
  double ssd_read_latency_scale = 1;   // "ssd_read_latency_scale": x disks.read_latency
                                       // (SSD).
  double ssd_write_latency_scale = 1;  // "ssd_write_latency_scale": x disks.write_latency
                                       // (SSD).
};

// Names of the parameters, in ModelParams order.
const std::vector<std::string>& ModelParamNames();
ModelParams ParamsFromScenario(const Scenario& scenario);
void SetParam(ModelParams* params, const std::string& name, double value);
double GetParam(const ModelParams& params, const std::string& name);

struct DeviceLoad {
  std::string name;        // "disk0".."diskN-1", "cpu".
  double utilization = 0;  // Total, 0..1.
  double read_utilization = 0;
  double destage_utilization = 0;
};

struct LatencyPercentiles {
  double p50_ms = 0, p95_ms = 0, p99_ms = 0;
};

struct Prediction {
  double tps = 0;
  // The error band: the fitted parameters' standard errors (propagated) and the model's
  // own error on unseen configurations of this class (model_error.h), in quadrature.
  double tps_low = 0, tps_high = 0;
  double parameter_error_fraction = 0;  // Relative, from [calibration] standard errors.
  double model_error_fraction = 0;      // Relative: 80 % of validation rows within it.
  std::string model_error_class;        // Rows it came from ("hdd destage-bound", "all").
  int model_error_rows = 0;             // Validation rows behind it.
  std::map<std::string, double> statement_latency_ms;  // Project statement names.
  double transaction_latency_ms = 0;
  // Approximate distributions (model/percentiles.h); filled by Predict, not PredictWith.
  std::map<std::string, LatencyPercentiles> statement_percentiles;
  LatencyPercentiles transaction_percentiles;
  std::map<std::string, StatementShape> statement_shapes;  // What they are built from.
  // io workloads: a request is one of the statements, in these shares (summing to 1);
  // empty: a transaction runs every statement.
  std::map<std::string, double> statement_shares;
  // "destage-bound" (a full write-back cache), "write-bound" (without a write-back
  // cache, the disks' writes hold the load at their capacity; or no full cache and the
  // commits' writes take longer than the rest of the transaction, or the reads queue
  // longer behind the busiest disk's writes than for reads), "read-bound" (the rest) or
  // "cpu-bound" (the CPU busier than any disk).
  std::string regime;
  double cache_full_probability = 0;  // Weight of the destage-bound regime.
  // Share (0..1) of the transactions whose reads queue behind a destage stream that
  // saturates the disks: a full write-back cache's, or the OS page cache's fill's.
  double destage_saturated_share = 0;
  double reads_per_transaction = 0;   // Filesystem-block reads (cache misses).
  double writes_per_transaction = 0;  // Filesystem-block writes destaged.
  double read_service_ms = 0;         // Mean member read command, no queueing.
  double destage_service_ms = 0;      // Mean member destage command.
  // END's wait in checkpoint bursts (model/checkpoint_burst.h): its mean per
  // transaction (part of END's latency), one burst's length, and what a commit in a
  // burst waits (its flush and the one in progress queued behind the OS's writes in
  // flight; at most the burst): the mean comes as waits this long.
  double checkpoint_stall_ms = 0;
  double checkpoint_burst_ms = 0;
  double burst_flush_wait_ms = 0;
  // What a commit waits when the OS's writes fill the queue ahead of it (a checkpoint's
  // burst, or the writes waiting for room in a full write-back cache): the write in
  // progress, then its own, each behind the OS's writes in flight at the member slowest
  // to write a filesystem block. A write-back cache's stalls come as waits this long.
  double commit_behind_os_writes_ms = 0;
  // Share (0..1) of the transactions that stall: behind the OS's writes for write-back
  // cache room, or without a write-back cache in a checkpoint's burst (model/percentiles.h).
  double stalled_transaction_share = 0;
  // No write-back cache: a commit's own WAL flush, the fixed part of END, and its mean
  // wait for the flush in progress (a share of the commits waits, up to one flush).
  double wal_flush_ms = 0;
  double wal_flush_wait_ms = 0;
  // The OS page cache's fill (model/page_cache_fill.h): the run's first fill_s seconds
  // run at fill_tps while the OS takes the dirty pages, the rest at after_fill_tps once
  // its dirty limit holds the clients to the disks' pace; all 0 without a fill.
  double fill_s = 0;
  double fill_tps = 0;
  double after_fill_tps = 0;
  std::vector<DeviceLoad> devices;
  // workload.type = io (model/io_workload.h): tps is requests per second, and
  // statements are "read" and "write" requests.
  double bytes_per_s = 0;            // Requests x workload.io_size.
  double file_lock_utilization = 0;  // Share of time the file's lock is held.
};

// REQUIRES: ValidateScenario(scenario).ok(). Errors name the unsupported setting.
StatusOr<Prediction> Predict(const Scenario& scenario);
// Same with explicit parameters (used by calibrate).
StatusOr<Prediction> PredictWith(const Scenario& scenario, const ModelParams& params);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_STORAGE_MODEL_H_
