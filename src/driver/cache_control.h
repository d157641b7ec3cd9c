// Cache preparation before a run (--cache cold|warm|as-is). Every action is printed
// (through `print`) as it is taken and recorded in the report; nothing changes the
// user's database or machine silently.
//
// cold, embedded cluster (pgstorsim manages it): CHECKPOINT, stop the cluster, sync +
//   /proc/sys/vm/drop_caches (root only; this machine is the cluster's host), start it.
// cold, any other server: refused (an error) unless `cold_command` is given; then
//   CHECKPOINT, run `sh -c cold_command` (e.g. an ssh that restarts the server and
//   drops its OS cache), and wait up to 120 s for the server to accept connections.
//   pgstorsim never drops this machine's caches for a server it does not manage.
// warm: read the pgbench relation files into the OS cache when they are local and
//   readable; then pg_prewarm each relation if the extension is installed (or
//   `create_extension` allows CREATE EXTENSION pg_prewarm), else read every page of
//   the tables and primary keys with SQL (index scans, which go through
//   shared_buffers, unlike large sequential scans' ring buffer).
// as-is: nothing.
// After a cold or warm preparation, how much of each pgbench relation shared_buffers and
// the OS page cache hold is measured (residency.h; pg_buffercache under the same consent
// as pg_prewarm) and kept in the report; a warm preparation prints it as a "cache:"
// line, a cold run's check prints it with its first seconds (cache_check.h).
// Thread safety: single caller; opens its own connections (the server may restart).
#ifndef PGSTORSIM_DRIVER_CACHE_CONTROL_H_
#define PGSTORSIM_DRIVER_CACHE_CONTROL_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "driver/residency.h"
#include "driver/run_options.h"
#include "pg/local_cluster.h"

namespace pgstorsim {

struct CacheOptions {
  CacheMode mode = CacheMode::kAsIs;
  std::string cold_command;  // Needed for cold on a server pgstorsim does not manage.
  bool create_extension = false;
};

struct CacheReport {
  std::string mode;
  std::vector<std::string> done;      // One sentence per action taken.
  std::vector<std::string> not_done;  // One sentence per action that failed or was skipped.
  bool has_residency = false;         // Measured (cold and warm).
  Residency residency;                // The caches' contents after the preparation.

  // mode, done, not_done, and Residency::ToJson()'s keys when measured.
  nlohmann::json ToJson() const;
};

using PrintFn = std::function<void(const std::string&)>;

// The refusal of PrepareCache, checked before anything else is done: cold on a server
// pgstorsim does not manage (`managed` false) without cold_command.
Status CheckCachePlan(const CacheOptions& options, bool managed);

// `cluster` may be null (server not managed by pgstorsim). Errors: cold on an
// unmanaged server without cold_command; cold_command failing; the server not coming
// back. Failed optional steps land in not_done.
StatusOr<CacheReport> PrepareCache(const CacheOptions& options, const std::string& conninfo,
                                   LocalCluster* cluster, const PrintFn& print);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_CACHE_CONTROL_H_
