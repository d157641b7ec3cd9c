#include "trace/trace_scenario.h"

#include "pgmodel/host_scenario.h"

namespace pgstorsim {

StatusOr<GeneratorOptions> GeneratorOptionsFromScenario(const Scenario& s) {
  GeneratorOptions o;
  o.clients = s.workload.clients;
  o.seed = s.workload.seed;
  if (s.workload.transactions > 0) o.transactions = s.workload.transactions * s.workload.clients;
  if (s.workload.rate_tps > 0) o.rate_tps = s.workload.rate_tps;
  o.host = pgmodel::HostConfigFromScenario(s);
  return o;
}

}  // namespace pgstorsim
