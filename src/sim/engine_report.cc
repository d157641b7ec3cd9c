// Engine::BuildResults and RunSimulation: the "simulate" Results document.
#include <algorithm>

#include "common/units.h"
#include "sim/engine.h"
#include "sim/results_writer.h"
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
  const bool by_count = config_.transactions_per_client > 0;
  const int64_t elapsed_ns = by_count ? std::max<int64_t>(last_commit_ns_, 1) : config_.duration_ns;
  ResultsWriter out(&r, elapsed_ns);
  Report(out);
  for (const Component* part : parts_) part->Report(out);
  return r;
}

void Engine::Report(ResultsWriter& out) const {
  Results& r = out.results();
  r.config = {{"sim", SimConfigToJson(config_)}};
  r.transactions = transactions_;
  r.duration_s = NsToSec(out.elapsed_ns());
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
  const pgmodel::HostCounts& host = host_->counts();
  out.Section("cache") = CacheSection(host_->cache().stats());
  out.Section("host") = host.ToJson();
  out.Section("wal")["full_page_images"] = host.full_page_images;
  out.Section("wal")["full_page_image_bytes"] = host.full_page_image_bytes;
  out.Section("background_writes")["checkpoints_started"] = host.checkpoints;
  out.Section("volume_layout") = map_->ToJson();
  out.Section("simulation") = {{"seed", config_.seed},
                               {"events", sim_.events_processed()},
                               {"disk_ops", disk_ops()},
                               {"simulated_s", NsToSec(sim_.now_ns())}};
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
