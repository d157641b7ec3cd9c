// Sweeps for `predict --sweep key=v1,v2,...` (scenario/sweep_spec.h): one prediction
// per point of a shard of the cartesian product (internal to src/model). Units as in
// storage_model.h. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_SWEEP_H_
#define PGSTORSIM_MODEL_SWEEP_H_

#include <string>
#include <vector>

#include "common/results.h"
#include "common/status.h"
#include "model/storage_model.h"
#include "scenario/scenario.h"
#include "scenario/sweep_spec.h"

namespace pgstorsim {

struct SweepPoint {
  size_t index = 0;                 // In the whole sweep (0-based).
  std::vector<std::string> values;  // One per swept key, as given.
  bool ok = true;
  std::string error;  // Why the point was refused (invalid configuration).
  Prediction prediction;
};

struct SweepTable {
  std::vector<std::string> keys;
  SweepSpec spec;
  Shard shard;
  size_t total_points = 0;  // In the whole sweep (all shards).
  std::vector<SweepPoint> points;
  // The statements whose mean the table shows, for each workload kind the sweep holds
  // (its base's, then each swept workload.type): the one that waits for the disks'
  // reads (UPDATE accounts; SELECT accounts for select-only) and the commit (END), or
  // an io workload's read and write requests. A point without one shows "-".
  std::vector<std::string> statements;
};

// Each spec is "key=v1,v2,..." (ParseSweepSpec). Configurations that fail validation
// become refused points (the table lists why) rather than aborting. Only `shard`'s
// points are predicted.
StatusOr<SweepTable> RunSweepTable(const Scenario& base, const std::vector<std::string>& specs,
                                   const Shard& shard = {});
// One header line (keys, tps, p95, each of `statements`' mean ms, regime), then a
// line per point; a refused point gives its reason.
std::string FormatSweepTable(const SweepTable& table);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_SWEEP_H_
