// The io workload in the simulator (workload.type = io; model/io_workload.h gives the
// pattern, IoSpecFor, and the filesystem's lock rules, FileLockRulesFor, that both
// models share). clients x io_depth issuers, each closed loop: pick read or write
// (seeded), an io_size-aligned offset (random, or the next one of its own region of the
// file when sequential; a write with workload.io_rewrite: the issuer's last read), then:
//   read:  under the file lock shared when reads wait for writers; OS cache (an LRU of
//          filesystem blocks, warm = a uniform share of the file, cold = empty) hit,
//          or one device read of the request's whole blocks (sequential: the read-ahead
//          window) through the controller and disks;
//   write: under the file lock exclusive when the filesystem takes it; a partial-block
//          buffered write reads its missing blocks first; then O_DIRECT writes the
//          request, an fsync writes the dirty blocks (the lock held through it when
//          the filesystem does), and without either the OS writes them back in the
//          background (not waited for).
// The lock is a reader-writer lock that prefers writers (FreeBSD lockmgr: a shared
// request waits while an exclusive one is queued; a release wakes the exclusive
// waiters first, else every shared one). No PostgreSQL host model.
// Units: bytes, ns. Thread safety: independent calls may run on different threads.
#ifndef PGSTORSIM_SIM_IO_CLIENTS_H_
#define PGSTORSIM_SIM_IO_CLIENTS_H_

#include "common/status.h"
#include "scenario/scenario.h"
#include "sim/run_simulation.h"

namespace pgstorsim {
namespace sim {

// REQUIRES: a validated scenario with workload.type = io. Results of kind "simulate":
// tps = requests per second, statements "read" and "write" (latency per request), the
// transaction latency per request, sections devices, controller and io (iops,
// bytes_per_s, file_lock_utilization, os_cache_hit_ratio). Deterministic per seed.
StatusOr<SimulationOutput> RunIoSimulation(const Scenario& scenario);

// The simulation of any scenario: RunIoSimulation for an io workload, else the
// PostgreSQL engine (SimConfigFromScenario + RunSimulation). Its config is predict's
// (ScenarioResultsConfig: scenario_toml, scenario_file, the canonical keys under
// "scenario") plus the simulator's own parameters under "sim" (SimConfigToJson).
StatusOr<SimulationOutput> SimulateScenario(const Scenario& scenario);

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_IO_CLIENTS_H_
