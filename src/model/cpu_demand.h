// The CPU as a station of the analytic model (docs/model.md, "The CPU"): a transaction's
// CPU demand is cpu_ms x the shares of the statements its workload runs
// (StatementCpuShare, which the simulator splits cpu_ms by too: select-only runs
// SELECT accounts' share only),
// served by host.cpu_cores identical cores, a multi-server station of the MVA network
// (mva.h MultiServerStation, exact load-dependent). So a CPU-bound workload is capped
// at c / D and the CPU's utilisation X D / c never exceeds 1.
// Units: ms per transaction. Thread safety: pure functions.
#ifndef PGSTORSIM_MODEL_CPU_DEMAND_H_
#define PGSTORSIM_MODEL_CPU_DEMAND_H_

#include <string>

#include "model/storage_model.h"
#include "scenario/scenario.h"
#include "workload/tpcb.h"

namespace pgstorsim {

struct CpuDemand {
  double demand_ms = 0;  // CPU time per transaction (all statements).
  int cores = 1;         // host.cpu_cores.
};

// The share of cpu_ms (the calibrated non-I/O time of a transaction) statement `st`
// takes: pgbench -r proportions at low load; UPDATE accounts and END take none (their
// time is the I/O they wait for). The one table the model and the simulator read.
double StatementCpuShare(Statement st);
// The same by statement name ("UPDATE branches"); 0 for a name that is no statement.
double StatementCpuShare(const std::string& name);

CpuDemand TransactionCpu(const Scenario& s, const ModelParams& p);
// Statement `name`'s part of the transaction's CPU demand (0..1; 0 when it has none
// or is not in the workload).
double StatementCpuFraction(const Scenario& s, const std::string& name);

}  // namespace pgstorsim

#endif  // PGSTORSIM_MODEL_CPU_DEMAND_H_
