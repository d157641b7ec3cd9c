#include "model/cpu_demand.h"

#include <array>

namespace pgstorsim {
namespace {

// StatementCpuShare in Statement order (workload/tpcb.h): each statement's share of a
// transaction's time where no statement waits for a disk, a lock or a flush (pgbench
// -r, 1 client, scale 10 in memory, synchronous_commit = off, PostgreSQL 15: BEGIN
// 0.051, UPDATE accounts 0.115, SELECT 0.105, UPDATE tellers 0.102, UPDATE branches
// 0.090, INSERT 0.076, END 0.076 ms; docs/model.md "CPU").
constexpr std::array<double, kStatementCount> kCpuShares = {0.083, 0.187, 0.171, 0.166,
                                                            0.146, 0.123, 0.124};

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
