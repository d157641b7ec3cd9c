#include "model/cpu_demand.h"

#include "model/storage_network.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace {

// Sum of kCpuShares over the workload's statements.
double WorkloadCpuShare(const Scenario& s) {
  double share = 0;
  for (Statement st : WorkloadStatements(s.workload.type))
    share += storage_network::CpuShare(StatementName(st));
  return share;
}

}  // namespace

CpuDemand TransactionCpu(const Scenario& s, const ModelParams& p) {
  CpuDemand c;
  c.demand_ms = p.cpu_ms * WorkloadCpuShare(s);
  c.cores = s.host.cpu_cores;
  return c;
}

double StatementCpuFraction(const Scenario& s, const std::string& name) {
  const double total = WorkloadCpuShare(s);
  if (!(total > 0)) return 0;
  for (Statement st : WorkloadStatements(s.workload.type)) {
    if (name == StatementName(st)) return storage_network::CpuShare(name) / total;
  }
  return 0;
}

}  // namespace pgstorsim
