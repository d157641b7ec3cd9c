// How cold a "cold" run really was: the buffer and OS hit ratios of its first seconds.
//
// StartColdCheck snapshots the server's block counters (pg_statio_user_tables/indexes)
// and, when the server runs on this machine and its postmaster.pid is readable, the
// bytes its processes read from storage (/proc/<pid>/io read_bytes of the postmaster and
// its children); a background thread takes the second snapshot `window_s` later. The
// shared hit ratio is blks_hit / (blks_hit + blks_read) over the pgbench relations; the
// OS hit ratio is 1 - storage bytes read / (blks_read x 8 KiB), clamped to [0, 1]
// ("unknown" for a remote server). PostgreSQL 15 backends publish their counters about
// once a second, so the window is 2 s by default. Blocks read per transaction (the
// pgbench relations' reads / the database's commits) is the plainest cold signature (a
// warm TPC-B reads almost nothing; a cold one up to the account's index leaf and heap
// page per transaction).
// These ratios are PostgreSQL's count of the blocks it asked for, so even a truly cold
// TPC-B run shows a high shared ratio; how cold the caches were is what they held at the
// start (residency.h, measured by PrepareCache and handed in), printed on a line of its
// own before the first seconds' line.
// StartedWarm: the shared ratio of pgbench_accounts (heap + primary key) is >= 0.95,
// or the OS ratio is >= 0.9, or at the start shared_buffers or the OS page cache held
// >= 0.5 of pgbench_accounts (heap + primary key).
// Thread safety: Finish from the thread that started it.
#ifndef PGSTORSIM_DRIVER_CACHE_CHECK_H_
#define PGSTORSIM_DRIVER_CACHE_CHECK_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "common/status.h"
#include "driver/residency.h"
#include "pg/local_cluster.h"
#include "pg/server_stats.h"

namespace pgstorsim {

struct CacheCheck {
  double window_s = 0;
  double shared_hit_ratio = -1;    // All pgbench relations; -1 = unknown.
  double accounts_hit_ratio = -1;  // pgbench_accounts heap + primary key.
  double os_hit_ratio = -1;        // -1 = unknown (os_note says why).
  double blocks_read = 0;
  double reads_per_transaction = -1;  // blocks_read / commits in the database; -1 = none.
  double storage_read_bytes = 0;
  std::string os_note;
  std::string error;  // Set when the counters could not be read.
  bool has_at_start = false;
  Residency at_start;  // The caches' contents before the first transaction.

  bool StartedWarm() const;
  // "cold check at start: pgbench_accounts ... (residency)\n" when has_at_start, then
  // "cold check (first 2.0 s): shared hit ratio 0.412 (pgbench_accounts 0.301), OS hit
  // ratio 0.020 (...)".
  std::string Describe() const;
  // The first seconds' figures and started_warm (the residency is the cache report's).
  nlohmann::json ToJson() const;
};

// Pure: the ratios from two snapshots and the storage bytes read between them (< 0:
// unknown, with `os_note` saying why).
CacheCheck ComputeCacheCheck(const StatCounters& before, const StatCounters& after,
                             double storage_read_bytes, const std::string& os_note,
                             double window_s);

class ColdCheck {
 public:
  ~ColdCheck();
  // Waits for the window to end (if it has not), then computes.
  CacheCheck Finish();

 private:
  friend std::unique_ptr<ColdCheck> StartColdCheck(const std::string&, LocalCluster*,
                                                   const Residency*, double);
  ColdCheck() = default;
  void TakeSecond();

  std::string conninfo_;
  double window_s_ = 2;
  int postmaster_pid_ = 0;
  std::string os_note_;
  const Residency* at_start_ = nullptr;
  StatusOr<StatsSnapshot> before_{Status::Error("not taken")};
  StatusOr<StatsSnapshot> after_{Status::Error("not taken")};
  double io_before_ = -1, io_after_ = -1;
  std::thread thread_;
};

// `cluster` is null for servers pgstorsim does not manage (their postmaster.pid is then
// looked for in SHOW data_directory when readable). `at_start` (may be null: not
// measured) is the residency after the cold preparation; it must outlive the check.
std::unique_ptr<ColdCheck> StartColdCheck(const std::string& conninfo, LocalCluster* cluster,
                                          const Residency* at_start, double window_s = 2.0);

// Bytes read from storage by `postmaster_pid` and its children (/proc/<pid>/io); < 0
// when unreadable.
double ServerStorageReadBytes(int postmaster_pid);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_CACHE_CHECK_H_
