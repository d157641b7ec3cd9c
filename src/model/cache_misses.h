// MissModel: filesystem-block reads per transaction from the cache state (internal to
// src/model). Warm: the caches (a fraction of RAM, shared_buffers + OS cache) hold the
// hottest pages (workload/WarmOrder); a miss is a touch of a page outside it. When the
// database does not fit, a Linux page cache keeps re-read pages only on its active
// list (cache/ReusableCachePages: half the OS cache below 1 GiB), as the simulator's
// two-list OS cache does (docs/lab.md, "What a warm run caches"). Cold:
// caches start empty after a reboot and fill page by page as transactions read them
// (capped by the cache size); ReadsAfter(n) is the miss rate once n transactions have
// run, which the model integrates over the run (a ramp). Only the
// accounts heap and its primary-key leaves miss (index inner pages and the small tables
// are cached after the first seconds). Units: tps, bytes, pages.
#ifndef PGSTORSIM_MODEL_CACHE_MISSES_H_
#define PGSTORSIM_MODEL_CACHE_MISSES_H_

#include <cstdint>
#include <memory>

#include "common/status.h"
#include "scenario/scenario.h"
#include "workload/database_layout.h"

namespace pgstorsim {

class MissModel {
 public:
  // `cache_pages`: the pages that keep data (ReusableCachePages of the RAM fraction).
  MissModel(const Scenario& s, double cache_pages, double database_bytes, double heap_pages,
            double leaf_pages, double warm_misses);
  double database_bytes() const { return database_bytes_; }
  // Block reads per transaction once `transactions` have run since the start (cold:
  // the caches warm; warm: constant).
  double ReadsAfter(double transactions) const;

 private:
  bool cold_;
  double cache_pages_;
  double pages_per_block_;
  double database_bytes_;
  double heap_pages_;
  double leaf_pages_;
  double warm_misses_;
};

StatusOr<MissModel> MakeMissModel(const Scenario& s, double cache_fraction);

// Misses per transaction of the scenario's shared buffers alone, warm (its pages read
// into shared buffers from the OS cache or the disks; at a steady state as many are
// evicted).
StatusOr<double> SharedBufferMisses(const Scenario& s);

// The pgbench database at `scale` (built once per scale, shared, immutable).
StatusOr<std::shared_ptr<const DatabaseLayout>> LayoutForScale(int64_t scale);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_CACHE_MISSES_H_
