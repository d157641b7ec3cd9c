// Joining the shards of one sweep (`predict|simulate --sweep ... --shard i/n`, each a
// results document with config.sweep = {"keys", "values", "points", "shard": "i/n"}
// and sections.sweep rows carrying "index"): the shards must be of the same kind,
// sweep (keys, values, point count) and base scenario (config.scenario_toml), and
// hold each of 1..n exactly once; their rows are concatenated in shard order (the
// sweep's order), as are sections.slo configurations. The joined document says
// shard "1/1"; its summary is the shard's holding the base point (else the first).
// Thread safety: pure function.
#ifndef PGSTORSIM_COMMON_SWEEP_SHARDS_H_
#define PGSTORSIM_COMMON_SWEEP_SHARDS_H_

#include <string>
#include <vector>

#include "common/results.h"
#include "common/status.h"

namespace pgstorsim {

// True when `r` is one shard of a sweep (config.sweep.shard present).
bool IsSweepShard(const Results& r);

// `names[i]` names shards[i] in errors (e.g. its file). Errors: one line naming the
// file and what differs or is missing.
StatusOr<Results> JoinSweepShards(const std::vector<Results>& shards,
                                  const std::vector<std::string>& names);

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_SWEEP_SHARDS_H_
