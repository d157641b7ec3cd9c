// Cache preparation before a run (--cache cold|warm|as-is), recording exactly what was
// done and what was not permitted.
//
// cold: CHECKPOINT; restart the server when pgstorsim manages it (empties
//   shared_buffers); posix_fadvise(DONTNEED) on every segment of the pgbench relation
//   files when they are readable; sync + /proc/sys/vm/drop_caches when root.
// warm: pg_prewarm (CREATE EXTENSION IF NOT EXISTS) on each pgbench relation; read the
//   relation files into the OS cache when readable; when pg_prewarm is unavailable, a
//   select-only pass over pgbench_accounts (sequential heap scan and index scan).
// as-is: nothing.
// Thread safety: single caller; opens its own connections (the server may restart).
#ifndef PGSTORSIM_DRIVER_CACHE_CONTROL_H_
#define PGSTORSIM_DRIVER_CACHE_CONTROL_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "driver/run_options.h"
#include "pg/local_cluster.h"

namespace pgstorsim {

struct CacheReport {
  std::string mode;
  std::vector<std::string> done;      // One sentence per action taken.
  std::vector<std::string> not_done;  // One sentence per action refused or failed.

  nlohmann::json ToJson() const { return {{"mode", mode}, {"done", done}, {"not_done", not_done}}; }
};

// `cluster` may be null (server not managed by pgstorsim).
CacheReport PrepareCache(CacheMode mode, const std::string& conninfo, LocalCluster* cluster);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_CACHE_CONTROL_H_
