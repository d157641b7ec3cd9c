// The io workload's simulation (io_clients.h): the io clients' set-up and results
// (io_client_loop.h; their request loop is in io_client_loop.cc) and the entry points.
#include "sim/io_clients.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "common/histogram.h"
#include "common/random.h"
#include "common/results.h"
#include "common/units.h"
#include "layout/fs_mapping.h"
#include "scenario/scenario_results.h"
#include "sim/controller.h"
#include "sim/io_client_loop.h"
#include "sim/results_writer.h"
#include "sim/sim_config.h"
#include "trace/trace_record.h"

namespace pgstorsim {
namespace sim {
namespace {

// Blocks beyond this need a larger filesystem block (or io_direct) to simulate.
constexpr int64_t kMaxCachedBlocks = int64_t{1} << 28;

}  // namespace

Status IoClients::Init() {
  auto controller = Controller::Create(config_.controller, config_.array, config_.disk, sim_);
  if (!controller.ok()) return controller.status();
  controller_ = std::move(controller).value();
  auto fs = FsMapping::Create(config_.fs);
  if (!fs.ok()) return fs.status();
  fs_ = std::make_unique<FsMapping>(*fs);
  spread_ = FileSpread(config_.fs, 0, spec_.file_bytes,
                       RoomForDataBytes(controller_->capacity_bytes(), config_.fs, 0));
  if (config_.fs.partition_offset_bytes + spread_.SpanBytes(spec_.file_bytes) >
      controller_->capacity_bytes()) {
    return Status::Error("workload.file_size: " + std::to_string(spec_.file_bytes) +
                         " bytes do not fit the array (" +
                         std::to_string(controller_->capacity_bytes()) + " bytes)");
  }
  blocks_ = (spec_.file_bytes + spec_.fs_block_bytes - 1) / spec_.fs_block_bytes;
  if (!spec_.direct && blocks_ > kMaxCachedBlocks) {
    return Status::Error(
        "workload.file_size: more than 2^28 filesystem blocks for simulate's "
        "OS cache (use a larger filesystem.block_size or io_direct)");
  }
  const int64_t capacity = spec_.os_cache_bytes / spec_.fs_block_bytes;
  cache_ = std::make_unique<BlockLru>(spec_.direct ? 0 : blocks_, capacity);
  if (!spec_.cold && !spec_.direct) Prewarm(std::min(capacity, blocks_));
  const int n = spec_.in_flight();
  const int64_t region = spec_.file_bytes / n / spec_.io_bytes * spec_.io_bytes;
  for (int i = 0; i < n; ++i) {
    slots_.push_back(
        Slot{sim_.ForkRandom(1000 + i), i * region, i * region, std::max(region, spec_.io_bytes)});
  }
  return Status::Ok();
}

// A uniform share of the file's request-sized units (the requests are aligned to
// their size, and a warm cache holds what earlier requests read: each unit's blocks
// together), chosen by selection sampling, up to `count` blocks.
void IoClients::Prewarm(int64_t count) {
  Random r = sim_.ForkRandom(7);
  const int64_t per_unit = std::max<int64_t>(1, spec_.io_bytes / spec_.fs_block_bytes);
  const int64_t units = (blocks_ + per_unit - 1) / per_unit;
  int64_t needed = count / per_unit;
  for (int64_t u = 0; u < units && needed > 0; ++u) {
    if (r.UniformInt(0, units - u - 1) < needed) {
      for (int64_t b = u * per_unit; b < std::min(blocks_, (u + 1) * per_unit); ++b) {
        cache_->Touch(b);
      }
      --needed;
    }
  }
}

Results IoClients::BuildResults() const {
  Results r = NewResults("simulate");
  const int64_t elapsed_ns = static_cast<int64_t>(spec_.duration_s * 1e9);
  r.config = {{"sim", SimConfigToJson(config_)}};
  r.transactions = all_latency_.count();
  r.duration_s = spec_.duration_s;
  r.tps = static_cast<double>(r.transactions) / r.duration_s;
  r.transaction_latency = all_latency_;
  const std::pair<const char*, const LatencyHistogram*> kinds[] = {
      {IoOpName(IoOp::kRead), &read_latency_}, {IoOpName(IoOp::kWrite), &write_latency_}};
  for (const auto& [name, h] : kinds) {
    if (h->count() == 0) continue;
    StatementResult st;
    st.name = name;
    st.latency = *h;
    r.statements.push_back(st);
  }
  ResultsWriter writer(&r, elapsed_ns);
  controller_->Report(writer);  // Its "controller" and "devices" sections.
  r.sections["io"] = {
      {"iops", r.tps},
      {"bytes_per_s", r.tps * static_cast<double>(spec_.io_bytes)},
      {"file_lock_utilization",
       static_cast<double>(lock_.busy_ns(sim_.now_ns())) / static_cast<double>(elapsed_ns)},
      {"os_cache_hit_ratio",
       read_hits_ + read_misses_ > 0
           ? static_cast<double>(read_hits_) / static_cast<double>(read_hits_ + read_misses_)
           : 0.0},
      {"read_requests", read_latency_.count()},
      {"write_requests", write_latency_.count()}};
  r.sections["simulation"] = {{"seed", config_.seed},
                              {"events", sim_.events_processed()},
                              {"simulated_s", NsToSec(sim_.now_ns())}};
  return r;
}

StatusOr<SimulationOutput> RunIoSimulation(const Scenario& s) {
  if (s.workload.type != WorkloadKind::kIo) return Status::Error("not an io workload");
  auto config = SimConfigFromScenario(s);
  if (!config.ok()) return config.status();
  IoClients clients(s, *config);
  Status init = clients.Init();
  if (!init.ok()) return init;
  clients.Run();
  if (clients.cpu_bound()) {
    return Status::Error(
        "workload.type = io: requests complete without waiting for the storage (OS cache "
        "hits, unsynchronised writes), so the CPU sets their rate, which simulate does not "
        "model; use a larger workload.file_size, io_direct or io_fsync_writes");
  }
  SimulationOutput out;
  out.results = clients.BuildResults();
  out.events = clients.events();
  return out;
}

StatusOr<SimulationOutput> SimulateScenario(const Scenario& s) {
  StatusOr<SimulationOutput> out = Status::Error("");
  if (s.workload.type == WorkloadKind::kIo) {
    out = RunIoSimulation(s);
  } else {
    auto config = SimConfigFromScenario(s);
    if (!config.ok()) return config.status();
    out = RunSimulation(*config);
  }
  if (out.ok()) out.value().results.config.update(ScenarioResultsConfig(s));
  return out;
}

}  // namespace sim
}  // namespace pgstorsim
