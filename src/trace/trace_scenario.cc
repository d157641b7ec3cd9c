#include "trace/trace_scenario.h"

#include "cache/buffer_cache.h"
#include "common/units.h"
#include "pgmodel/host_scenario.h"

namespace pgstorsim {

StatusOr<GeneratorOptions> GeneratorOptionsFromScenario(const Scenario& s) {
  GeneratorOptions o;
  o.workload = WorkloadKindName(s.workload.type);
  o.scale = s.workload.scale;
  o.clients = s.workload.clients;
  o.seed = s.workload.seed;
  if (s.workload.transactions > 0) o.transactions = s.workload.transactions * s.workload.clients;
  if (s.workload.rate_tps > 0) o.rate_tps = s.workload.rate_tps;
  const pgmodel::HostConfig host = pgmodel::HostConfigFromScenario(s);
  o.shared_buffers_bytes = host.cache.shared_buffers_pages * kPageBytes;
  o.os_cache_bytes = host.cache.os_cache_pages * kPageBytes;
  o.readahead_max_bytes = host.cache.readahead_max_pages * kPageBytes;
  o.os_active_ratio = host.cache.os_active_ratio;
  o.warm = host.start == pgmodel::CacheStart::kWarm;
  o.full_page_writes = host.full_page_writes;
  o.checkpoint_interval_ns = host.checkpoint_timeout_ns;
  o.checkpoint_wal_bytes = host.checkpoint_wal_bytes;
  o.checkpoint_completion_target = host.checkpoint_completion_target;
  o.wal_file_bytes = host.wal_cache_region_bytes;
  return o;
}

}  // namespace pgstorsim
