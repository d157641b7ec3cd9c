#include "model/cpu_demand.h"

#include <array>

namespace pgstorsim {
namespace {

// StatementCpuShare in Statement order (workload/tpcb.h).
constexpr std::array<double, kStatementCount> kCpuShares = {0.05, 0,    0.19, 0.30,
                                                            0.30, 0.16, 0};

// Sum of the shares of the workload's statements.
double WorkloadCpuShare(const Scenario& s) {
  double share = 0;
  for (Statement st : WorkloadStatements(s.workload.type)) share += StatementCpuShare(st);
  return share;
}

}  // namespace

double StatementCpuShare(Statement st) { return kCpuShares[static_cast<int>(st)]; }

double StatementCpuShare(const std::string& name) {
  StatusOr<Statement> st = ParseStatementName(name);
  return st.ok() ? StatementCpuShare(*st) : 0;
}

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
    if (name == StatementName(st)) return StatementCpuShare(st) / total;
  }
  return 0;
}

}  // namespace pgstorsim
