// Engine::BuildResults and RunSimulation: the "simulate" Results document.
#include <algorithm>

#include "common/units.h"
#include "sim/engine.h"
#include "sim/run_simulation.h"

namespace pgstorsim {
namespace sim {
namespace {

nlohmann::json CacheSection(const CacheStats& now) {
  const double shared = static_cast<double>(now.shared_hits);
  const double os = static_cast<double>(now.os_hits);
  const double misses = static_cast<double>(now.misses);
  const double touches = shared + os + misses;
  auto ratio = [&](double x) { return touches > 0 ? x / touches : 0.0; };
  return {{"touches", touches},
          {"shared_hits", shared},
          {"os_hits", os},
          {"misses", misses},
          {"shared_hit_ratio", ratio(shared)},
          {"os_hit_ratio", ratio(os)},
          {"hit_ratio", ratio(shared + os)},
          {"dirty_evictions", now.dirty_evictions},
          {"readahead_pages", now.readahead_pages}};
}

}  // namespace

Results Engine::BuildResults() const {
  Results r = NewResults("simulate");
  r.config = SimConfigToJson(config_);
  const bool by_count = config_.transactions_per_client > 0;
  const int64_t elapsed_ns = by_count ? std::max<int64_t>(last_commit_ns_, 1) : config_.duration_ns;
  r.transactions = transactions_;
  r.duration_s = NsToSec(elapsed_ns);
  r.tps = transactions_ / r.duration_s;
  r.transaction_latency = txn_latency_;
  for (Statement s : host_->workload().statements()) {
    StatementResult sr;
    sr.name = StatementName(s);
    sr.sql = StatementSql(s);
    sr.latency = statement_latency_[static_cast<int>(s)];
    r.statements.push_back(sr);
  }
  r.series = series_;
  nlohmann::json storage = controller_->Report(elapsed_ns);
  r.sections["devices"] = storage["devices"];
  r.sections["controller"] = storage["controller"];
  r.sections["cache"] = CacheSection(host_->cache().stats());
  const pgmodel::HostCounts& host = host_->counts();
  nlohmann::json wal = wal_->Report();
  wal["full_page_images"] = host.full_page_images;
  wal["full_page_image_bytes"] = host.full_page_image_bytes;
  r.sections["wal"] = wal;
  r.sections["host"] = host.ToJson();
  r.sections["row_locks"] = RowLockReport();
  nlohmann::json writer = writer_->Report();
  writer["checkpoints_started"] = host.checkpoints;
  r.sections["background_writes"] = writer;
  r.sections["cpu"] = {{"cores", config_.cpu_cores},
                       {"utilization", static_cast<double>(CpuBusyNs(elapsed_ns)) /
                                           (static_cast<double>(elapsed_ns) * config_.cpu_cores)}};
  r.sections["volume_layout"] = map_->ToJson();
  r.sections["simulation"] = {{"seed", config_.seed},
                              {"events", sim_.events_processed()},
                              {"disk_ops", disk_ops()},
                              {"simulated_s", NsToSec(sim_.now_ns())}};
  return r;
}

StatusOr<SimulationOutput> RunSimulation(const SimConfig& config) {
  Engine engine(config);
  Status init = engine.Init();
  if (!init.ok()) return init;
  engine.Run();
  SimulationOutput out;
  out.results = engine.BuildResults();
  out.events = engine.events();
  out.disk_ops = engine.disk_ops();
  return out;
}

}  // namespace sim
}  // namespace pgstorsim
