// Internal to src/pgmodel: what DemandSampler (demands.cc) runs its cycles on and
// remembers: the host a cycle runs on, the database thinned k-fold, a scenario's host,
// the rounding of T into memo buckets, and the process-wide memo of results; defined
// in demands_config.cc. Not for use outside src/pgmodel.
// Contract: the functions are pure (CycleHost returns Host::Create's error when the
// config is refused); Memo is safe to use from any thread (under its lock).
#ifndef PGSTORSIM_PGMODEL_DEMANDS_CONFIG_H_
#define PGSTORSIM_PGMODEL_DEMANDS_CONFIG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>

#include "common/status.h"
#include "pgmodel/demands.h"
#include "pgmodel/host.h"
#include "scenario/scenario.h"

namespace pgstorsim::pgmodel::demands_config {

// The longest cycle run (one that logs no WAL, or cannot be thinned further).
constexpr int64_t kMaxCycle = 100000;
// No cap on a cycle's transactions but kMaxCycle.
constexpr int64_t kNoCap = INT64_MAX / 4;

// A host with the config's shared buffers (at most the pages a cycle of kMaxCycle
// transactions touches) and no OS cache, starting cold, that never checkpoints by
// itself: a page evicted dirty and dirtied again is written again, as in the simulator
// and the trace.
StatusOr<std::unique_ptr<Host>> CycleHost(HostConfig c);

// The config thinned k-fold: scale, shared buffers and checkpoint trigger divided by
// k = scale / thinned scale, which keeps what the demands depend on (each relation's
// touches per page over a cycle, the buffers per page of data, the WAL per
// transaction); *k is set to the k used.
HostConfig Thinned(HostConfig c, double wanted_k, double* k);

// A cap on a cycle's transactions on the database thinned k-fold (kNoCap stays).
int64_t ThinnedCap(int64_t cap, double k);

// T (or a count of pages) rounded to a bucket of about 10 % (powers of 2^(1/8)); 0 stays 0.
int64_t Bucket(double run);

// A scenario's host config whose shared buffers also hold the `os_held_pages` dirty
// pages its OS page cache merges a second eviction into (rounded by Bucket, or
// DemandSampler::kOsBackground: its whole background threshold).
HostConfig ScenarioHostConfig(const Scenario& s, int64_t os_held_pages);

// The memo of every result in the process: key = the settings that matter and the
// bucketed T; lifetime = the process (a few doubles per distinct key); threads = any,
// under its lock (the sampling itself runs outside it).
class Memo {
 public:
  using Key = std::tuple<int, int64_t, int, std::string, bool, bool, int64_t, int64_t, int64_t,
                         double, int64_t>;
  static Key KeyOf(const HostConfig& c, int64_t run, double thin_above, int64_t cap);
  // Sets *out and returns true when `key` is stored.
  static bool Find(const Key& key, HostDemands* out);
  static void Store(const Key& key, const HostDemands& d);
};

}  // namespace pgstorsim::pgmodel::demands_config

#endif  // PGSTORSIM_PGMODEL_DEMANDS_CONFIG_H_
