// RunSimulation: one deterministic discrete-event simulation of pgbench-like clients
// on PostgreSQL over the simulated storage stack (CPU, shared_buffers + OS cache,
// filesystem mapping, WAL with group commit, checkpoints, RAID controller, disks).
// Same config (incl. seed) => identical Results apart from created_utc.
// Thread safety: independent calls may run on different threads.
#ifndef PGSTORSIM_SIM_RUN_SIMULATION_H_
#define PGSTORSIM_SIM_RUN_SIMULATION_H_

#include <cstdint>

#include "common/results.h"
#include "common/status.h"
#include "sim/sim_config.h"

namespace pgstorsim {
namespace sim {

struct SimulationOutput {
  Results results;        // kind "simulate"; config.sim (SimConfigToJson); sections:
                          // devices, controller, cache, wal, ...
  uint64_t events = 0;    // Kernel events processed.
  uint64_t disk_ops = 0;  // Member disk operations simulated.
};

// Errors (invalid config, database larger than the array) name the scenario key.
StatusOr<SimulationOutput> RunSimulation(const SimConfig& config);

}  // namespace sim
}  // namespace pgstorsim

#endif  // PGSTORSIM_SIM_RUN_SIMULATION_H_
