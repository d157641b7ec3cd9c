#include "sim/sim_config.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "common/units.h"
#include "model/cpu_demand.h"
#include "model/destage_cost.h"
#include "model/drive_reordering.h"
#include "pgmodel/host_scenario.h"
#include "scenario/calibration_keys.h"
#include "scenario/scenario.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace sim {
namespace {

ReadAhead ToReadAhead(ReadAheadPolicy p) {
  switch (p) {
    case ReadAheadPolicy::kNone:
      return ReadAhead::kNone;
    case ReadAheadPolicy::kAlways:
      return ReadAhead::kAlways;
    case ReadAheadPolicy::kAdaptive:
    default:
      return ReadAhead::kAdaptive;
  }
}

void FillStorage(const Scenario& s, SimConfig* c) {
  c->array = ArrayGeometryFor(s);

  SimDiskConfig& d = c->disk;
  d.kind = s.disks.type == DiskType::kSsd         ? DiskKind::kSsd
           : s.disks.type == DiskType::kThrottled ? DiskKind::kThrottled
                                                  : DiskKind::kHdd;
  d.read_iops = s.disks.read_iops;
  d.write_iops = s.disks.write_iops;
  d.read_bytes_per_s = static_cast<double>(s.disks.read_bandwidth_bytes_per_s);
  d.write_bytes_per_s = static_cast<double>(s.disks.write_bandwidth_bytes_per_s);
  d.capacity_bytes = s.disks.capacity_bytes;
  d.rpm = s.disks.rpm;
  d.avg_seek_ns = s.disks.avg_read_seek_ns;
  d.avg_write_seek_ns = s.disks.avg_write_seek_ns;
  d.track_to_track_ns = s.disks.track_to_track_ns;
  d.sustained_bytes_per_s = static_cast<double>(s.disks.transfer_rate_bytes_per_s);
  if (d.interface_bytes_per_s < d.sustained_bytes_per_s)
    d.interface_bytes_per_s = d.sustained_bytes_per_s;
  d.ssd_read_ns = s.disks.read_latency_ns;
  d.ssd_write_ns = s.disks.write_latency_ns;
  d.ssd_channels = s.disks.channels;
  d.ssd_page_bytes = s.disks.page_size_bytes;
  d.queue_depth = s.io.queue_depth;
  d.scheduler =
      DrivesReorderQueue(s, ParamsFromScenario(s)) ? DiskScheduler::kSatf : DiskScheduler::kFifo;
  d.write_cache = s.controller.drive_write_cache;

  SimControllerConfig& k = c->controller;
  k.has_cache = s.controller.HasCache();
  k.host_counted_writes = !k.has_cache && s.disks.type == DiskType::kThrottled;
  k.write_back = s.controller.EffectiveWriteBack();
  k.write_cache_bytes = s.controller.WriteCacheBytes();
  k.read_cache_bytes = s.controller.ReadCacheBytes();
  k.read_ahead = ToReadAhead(ControllerReadAheadFor(s));
  k.read_hit_ns = MsToNs(ControllerReadHitMs(s));
}

// What a simulator key of the [calibration] table (scenario/calibration_keys.h) sets.
using Apply = void (*)(double value, SimConfig* c);

template <Statement kStatement>
void SetStatementCpu(double ms, SimConfig* c) {
  c->cpu_ns[static_cast<int>(kStatement)] = MsToNs(ms);
}

int RoundToInt(double v) { return static_cast<int>(v + 0.5); }

// The simulator's reading of each key it uses, the model's parameters given their
// physical meaning. Applied in the table's order, so simulator-only keys override.
Apply ApplyFor(const std::string& key);

// A cost per destage command (fitted, or the model's from destage_queue_depth): the
// disks serve in order (the drive's reordering gain is in the cost; DrivesReorderQueue),
// so a deeper queue of destages gains nothing and only delays the reads behind it: two
// per member (one in service, the next queued so the disk never idles between
// commands). controller_destage_outstanding overrides.
void UseDestageCost(double ms, SimConfig* c) {
  if (c->disk.kind != DiskKind::kHdd) return;
  c->controller.destage_position_ns = MsToNs(ms);
  c->controller.destage_outstanding = kDestagesInFlightPerMember;
}

// A calibrated destage_queue_depth (without an explicit destage_position_ms): the
// analytic model's cost per destage command for this workload (model/destage_cost.h),
// so both instruments charge the same; the drives serve in order as for a fitted
// destage_position_ms, also without a write-back cache (the model's costs are
// effective ones whatever the cache). Applied before the [calibration] table, whose
// simulator-only keys (controller_destage_outstanding) then override as for any key.
Status ApplyDestageQueueDepth(const Scenario& s, SimConfig* c) {
  const auto& values = s.calibration.values;
  if (!values.count("destage_queue_depth") || values.count("destage_position_ms") ||
      c->disk.kind != DiskKind::kHdd) {
    return Status::Ok();
  }
  auto ms = DestagePositionMsFor(s, ParamsFromScenario(s));
  if (!ms.ok()) return ms.status();
  UseDestageCost(*ms, c);
  return Status::Ok();
}

Apply ApplyFor(const std::string& key) {
  static const std::map<std::string, Apply> kApply = {
      // A fitted scale other than 1 holds the drive's reordering gain
      // (DrivesReorderQueue).
      {"read_seek_scale",
       [](double v, SimConfig* c) {
         if (c->disk.kind == DiskKind::kHdd) c->disk.seek_scale = v;
       }},
      {"destage_position_ms", UseDestageCost},
      // Read by SimConfigFromScenario: the cost it gives depends on the workload.
      {"destage_queue_depth", [](double, SimConfig*) {}},
      {"cpu_ms",
       [](double v, SimConfig* c) {
         for (int i = 0; i < kStatementCount; ++i) {
           c->cpu_ns[i] = MsToNs(v * StatementCpuShare(static_cast<Statement>(i)));
         }
         c->client_rtt_ns = 0;
       }},
      {"commit_ms",
       [](double v, SimConfig* c) {
         c->controller.write_ack_ns =
             std::max<int64_t>(0, MsToNs(v) - c->controller.command_overhead_ns);
       }},
      // cache_fraction sizes the OS cache through pgmodel::OsCacheBytes.
      {"cache_fraction", [](double, SimConfig*) {}},
      {"whole_block_reads",
       [](double v, SimConfig* c) { c->controller.whole_block_reads = v > 0.5; }},
      {"ssd_read_latency_scale",
       [](double v, SimConfig* c) {
         if (c->disk.kind != DiskKind::kSsd) return;
         c->disk.ssd_read_ns = std::llround(static_cast<double>(c->disk.ssd_read_ns) * v);
       }},
      {"ssd_write_latency_scale",
       [](double v, SimConfig* c) {
         if (c->disk.kind != DiskKind::kSsd) return;
         c->disk.ssd_write_ns = std::llround(static_cast<double>(c->disk.ssd_write_ns) * v);
       }},
      {"cpu_ms_begin", SetStatementCpu<Statement::kBegin>},
      {"cpu_ms_update_accounts", SetStatementCpu<Statement::kUpdateAccounts>},
      {"cpu_ms_select_accounts", SetStatementCpu<Statement::kSelectAccounts>},
      {"cpu_ms_update_tellers", SetStatementCpu<Statement::kUpdateTellers>},
      {"cpu_ms_update_branches", SetStatementCpu<Statement::kUpdateBranches>},
      {"cpu_ms_insert_history", SetStatementCpu<Statement::kInsertHistory>},
      {"cpu_ms_end", SetStatementCpu<Statement::kEnd>},
      {"client_rtt_ms", [](double v, SimConfig* c) { c->client_rtt_ns = MsToNs(v); }},
      // os_dirty_expire_s is read through pgmodel::OsDirtyLimitsOf.
      {"os_dirty_expire_s", [](double, SimConfig*) {}},
      // os_writes_outstanding is read through pgmodel::OsWritesInFlight.
      {"os_writes_outstanding", [](double, SimConfig*) {}},
      {"controller_write_ack_ms",
       [](double v, SimConfig* c) { c->controller.write_ack_ns = MsToNs(v); }},
      // controller_read_hit_ms is read through ControllerReadHitMs.
      {"controller_read_hit_ms", [](double, SimConfig*) {}},
      {"controller_destage_start",
       [](double v, SimConfig* c) { c->controller.destage_start_fraction = v; }},
      {"controller_destage_outstanding",
       [](double v, SimConfig* c) { c->controller.destage_outstanding = RoundToInt(v); }},
      {"row_locks", [](double v, SimConfig* c) { c->row_locks = v != 0; }},
  };
  auto it = kApply.find(key);
  return it == kApply.end() ? nullptr : it->second;
}

void ApplyCalibration(const std::map<std::string, double>& values, SimConfig* c) {
  for (const CalibrationKey& key : CalibrationKeys()) {
    auto value = values.find(key.name);
    if (!key.simulator || value == values.end()) continue;
    if (Apply apply = ApplyFor(key.name)) apply(value->second, c);
  }
}

}  // namespace

bool SimulatorReadsCalibrationKey(const std::string& key) { return ApplyFor(key) != nullptr; }

pgmodel::HostConfig DefaultHost() { return pgmodel::HostConfigFromScenario(Scenario()); }

pgmodel::OsDirtyLimits DefaultOsDirtyLimits() { return pgmodel::OsDirtyLimitsOf(Scenario()); }

void SetCacheSizes(int64_t shared_buffers_bytes, int64_t os_cache_bytes, SimConfig* c) {
  pgmodel::SizeCaches(shared_buffers_bytes, os_cache_bytes, true, &c->host.cache);
  const int64_t expire_ns = c->os_dirty.expire_ns;
  c->os_dirty = pgmodel::OsDirtyLimitsFor(os_cache_bytes);
  c->os_dirty.expire_ns = expire_ns;
}

Status ValidateSimConfig(const SimConfig& c) {
  const bool negative_cpu =
      std::any_of(c.cpu_ns.begin(), c.cpu_ns.end(), [](int64_t ns) { return ns < 0; });
  // {violated, message naming the key}, checked in order.
  const std::pair<bool, const char*> checks[] = {
      {c.host.scale < 1, "workload.scale: must be >= 1"},
      {c.clients < 1, "workload.clients: must be >= 1"},
      {c.duration_ns <= 0 && c.transactions_per_client <= 0,
       "workload.duration: must be positive (or set workload.transactions)"},
      {c.rate_tps < 0, "workload.rate: must be >= 0"},
      {c.cpu_cores < 1, "host.cpu_cores: must be >= 1"},
      {c.host.cache.shared_buffers_pages < 16, "postgres.shared_buffers: must be at least 128 KiB"},
      {c.host.checkpoint_timeout_ns <= 0, "postgres.checkpoint_timeout: must be positive"},
      // The WAL files (2 x max_wal_size) hold at least 4 pages.
      {c.host.wal_cache_region_bytes < 4 * kPageBytes, "postgres.max_wal_size: too small"},
      {negative_cpu, "calibration.cpu_ms_*: must be >= 0"},
      {c.client_rtt_ns < 0, "calibration.client_rtt_ms: must be >= 0"},
      {c.background_writes_outstanding < 1, "calibration.os_writes_outstanding: must be >= 1"},
  };
  for (const auto& [violated, message] : checks) {
    if (violated) return Status::Error(message);
  }
  return Status::Ok();
}

StatusOr<SimConfig> SimConfigFromScenario(const Scenario& s) {
  SimConfig c;
  c.seed = s.workload.seed;
  c.host = pgmodel::HostConfigFromScenario(s);
  c.clients = s.workload.clients;
  c.duration_ns = s.workload.duration_ns;
  c.transactions_per_client = s.workload.transactions;
  c.rate_tps = s.workload.rate_tps;
  c.cpu_cores = s.host.cpu_cores;
  c.ram_bytes = s.host.ram_bytes;
  c.os_dirty = pgmodel::OsDirtyLimitsOf(s);
  c.synchronous_commit = s.postgres.synchronous_commit;
  c.wal_writer_delay_ns = s.postgres.wal_writer_delay_ns;
  c.wal_on_data_volume = s.postgres.wal_on_data_volume;
  c.fs = FsGeometryFor(s);
  FillStorage(s, &c);
  if (Status st = ApplyDestageQueueDepth(s, &c); !st.ok()) return st;
  ApplyCalibration(s.calibration.values, &c);
  c.background_writes_outstanding = pgmodel::OsWritesInFlight(s);
  c.direct_data_writes = s.io.data_writes == DataWrites::kDirect;
  Status ok = ValidateSimConfig(c);
  if (!ok.ok()) return ok;
  return c;
}

nlohmann::json SimConfigToJson(const SimConfig& c) {
  nlohmann::json cpu_ns = nlohmann::json::object();
  for (int i = 0; i < kStatementCount; ++i)
    cpu_ns[StatementName(static_cast<Statement>(i))] = c.cpu_ns[i];
  const ReadAhead ahead = c.controller.read_ahead;
  return {
      {"os_cache_sized_bytes", c.host.cache.os_cache_pages * kPageBytes},
      {"checkpoint_wal_bytes", c.host.checkpoint_wal_bytes},
      {"row_locks", c.row_locks},
      {"cpu_ns", cpu_ns},
      {"client_rtt_ns", c.client_rtt_ns},
      {"disk_scheduler", c.disk.scheduler == DiskScheduler::kSatf ? "satf" : "fifo"},
      {"disk_seek_scale", c.disk.seek_scale},
      {"controller_cache", c.controller.has_cache},
      {"controller_write_back", c.controller.write_back},
      {"controller_write_cache_bytes", c.controller.write_cache_bytes},
      {"controller_read_ahead", ahead == ReadAhead::kNone     ? "none"
                                : ahead == ReadAhead::kAlways ? "always"
                                                              : "adaptive"},
      {"controller_whole_block_reads", c.controller.whole_block_reads},
      {"controller_destage_position_ns", std::max<int64_t>(-1, c.controller.destage_position_ns)}};
}

}  // namespace sim
}  // namespace pgstorsim
