// Sweeps over scenario keys, shared by `predict --sweep` and `simulate --sweep`: each
// spec "key=v1,v2,..." adds a key; the points are the cartesian product of the value
// lists in order (the last key varies fastest), numbered 0..PointCount()-1. A shard
// "i/n" (1 <= i <= n) is the i-th of n contiguous, nearly equal runs of points, so the
// shards' points concatenated in shard order are the whole sweep in order.
// Thread safety: immutable values, pure functions.
#ifndef PGSTORSIM_SCENARIO_SWEEP_SPEC_H_
#define PGSTORSIM_SCENARIO_SWEEP_SPEC_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "scenario/key_roles.h"
#include "scenario/scenario.h"

namespace pgstorsim {

struct SweepSpec {
  std::vector<std::string> keys;
  std::vector<std::vector<std::string>> values;  // Per key, as given.

  size_t PointCount() const;
  // The values of point `index` (one per key). REQUIRES: index < PointCount().
  std::vector<std::string> PointValues(size_t index) const;
  // Keys whose role is a configuration choice (recommended among), and the rest.
  std::vector<std::string> ChoiceKeys() const;
};

// Each spec is "key=v1,v2,..."; unknown keys (other than calibration.*), empty value
// lists, repeated keys and a value its key cannot take ("array.stripe=abc", an empty
// item) are errors naming the spec or the key. A sweep of more than 10^7 points is
// refused. Values that are each valid but make an invalid configuration together
// (a stripe above the controller's maximum) are left to ApplySweepPoint.
StatusOr<SweepSpec> ParseSweepSpec(const Scenario& base, const std::vector<std::string>& specs);

struct Shard {
  int index = 1;  // 1-based.
  int count = 1;
  std::string Text() const { return std::to_string(index) + "/" + std::to_string(count); }
};
// "i/n" with 1 <= i <= n; errors name the option's text.
StatusOr<Shard> ParseShard(const std::string& text);
// Points [first, second) of `shard` among `points`.
std::pair<size_t, size_t> ShardRange(size_t points, const Shard& shard);

// The scenario at `path` (the built-in default when empty) with `overrides`, as the base
// of the sweep `specs`: valid itself, or made valid by at least one of the sweep's
// points (RAID 50 in spans of two disks with array.disks swept over 8, 12 and 16: the
// invalid points are refused one by one). Else the base's own error, as LoadScenario
// gives it; a spec error is ParseSweepSpec's.
StatusOr<Scenario> LoadSweepBase(const std::string& path, const std::vector<std::string>& overrides,
                                 const std::vector<std::string>& specs);

// `base` with the point's values applied, validated; errors name the key or setting.
StatusOr<Scenario> ApplySweepPoint(const Scenario& base, const SweepSpec& spec,
                                   const std::vector<std::string>& values);

// A sweep row's "settings" (predict and simulate alike): each key under its results
// name with its value as the results schema carries it (scenario_results.h:
// "array.stripe=32k" -> "array.stripe_bytes": 32768), the names config.sweep's roles
// are keyed by (their units: FindResultsName). `values` as PointValues gives them.
nlohmann::json SweepSettingsJson(const SweepSpec& spec, const std::vector<std::string>& values);

// config.sweep of a sweep's results (predict and simulate alike): {"keys", "values"
// (per key, as given), "roles" (results name -> "choice" | "workload" | "label",
// KeyRole), "points" (in the whole sweep), "shard" ("i/n")}: what joining shards checks.
// A name's unit is the schema's (scenario_results.h FindResultsName), not recorded here.
nlohmann::json SweepConfigJson(const SweepSpec& spec, const Shard& shard);

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_SWEEP_SPEC_H_
