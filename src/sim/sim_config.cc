#include "sim/sim_config.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "common/units.h"
#include "cache/buffer_cache.h"
#include "pgmodel/host_scenario.h"
#include "scenario/scenario.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace sim {
namespace {

// "UPDATE accounts" -> "update_accounts".
std::string KeySuffix(const char* statement_name) {
  std::string out;
  for (const char* p = statement_name; *p; ++p) {
    out += *p == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  }
  return out;
}

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
  d.scheduler = s.io.queue_depth > 1 ? DiskScheduler::kSatf : DiskScheduler::kFifo;
  d.write_cache = s.controller.drive_write_cache;

  SimControllerConfig& k = c->controller;
  k.has_cache = s.controller.kind == ControllerKind::kRaid && s.controller.cache_size_bytes > 0;
  k.write_back = s.controller.EffectiveWriteBack();
  // The cache is shared; reads keep what write-back does not hold.
  k.write_cache_bytes = s.controller.cache_size_bytes / 2;
  k.read_cache_bytes = s.controller.cache_size_bytes - k.write_cache_bytes;
  if (!k.write_back) k.read_cache_bytes = s.controller.cache_size_bytes;
  k.read_ahead = ToReadAhead(ControllerReadAheadFor(s));
}

// The analytic model's share of cpu_ms per statement (pgbench -r proportions; the
// same table as model/storage_model.cc's kCpuShares), in Statement order.
constexpr std::array<double, kStatementCount> kModelCpuShares = {0.05, 0,    0.19, 0.30,
                                                                 0.30, 0.16, 0};

using CalibrationValues = std::map<std::string, double>;

bool Get(const CalibrationValues& values, const std::string& key, double* out) {
  auto it = values.find(key);
  if (it == values.end()) return false;
  *out = it->second;
  return true;
}

// The analytic model's parameters, each given its physical meaning here.
void ApplyModelCalibration(const CalibrationValues& values, SimConfig* c) {
  double v = 0;
  const bool hdd = c->disk.kind == DiskKind::kHdd;
  if (Get(values, "read_seek_scale", &v) && hdd) {
    c->disk.seek_scale = v;
    // A fitted scale holds the drive's reordering gain; 1 is the datasheet curve.
    if (v != 1.0) c->disk.scheduler = DiskScheduler::kFifo;
  }
  if (Get(values, "destage_position_ms", &v) && hdd) {
    // A fitted cost per destage command: the disks serve in order (the drive's
    // reordering gain is in the cost), so a deeper queue of destages gains nothing and
    // only delays the reads behind it: two per member (one in service, the next queued
    // so the disk never idles between commands). controller_destage_outstanding
    // overrides.
    c->controller.destage_position_ns = MsToNs(v);
    c->disk.scheduler = DiskScheduler::kFifo;
    c->controller.destage_outstanding = 2;
  }
  if (Get(values, "cpu_ms", &v)) {
    for (int i = 0; i < kStatementCount; ++i) c->cpu_ns[i] = MsToNs(v * kModelCpuShares[i]);
    c->client_rtt_ns = 0;
  }
  if (Get(values, "commit_ms", &v)) {
    c->controller.write_ack_ns =
        std::max<int64_t>(0, MsToNs(v) - c->controller.command_overhead_ns);
  }
  if (Get(values, "whole_block_reads", &v)) c->controller.whole_block_reads = v > 0.5;
}

void ApplyCalibration(const CalibrationValues& values, SimConfig* c) {
  ApplyModelCalibration(values, c);
  auto get = [&](const std::string& key, double* out) { return Get(values, key, out); };
  double v = 0;
  for (int i = 0; i < kStatementCount; ++i) {
    const std::string key = "cpu_ms_" + KeySuffix(StatementName(static_cast<Statement>(i)));
    if (get(key, &v)) c->cpu_ns[i] = MsToNs(v);
  }
  if (get("client_rtt_ms", &v)) c->client_rtt_ns = MsToNs(v);
  if (get("os_dirty_expire_s", &v)) c->os_dirty_expire_ns = static_cast<int64_t>(v * 1e9);
  if (get("os_writes_outstanding", &v))
    c->background_writes_outstanding = static_cast<int>(v + 0.5);
  if (get("controller_write_ack_ms", &v)) c->controller.write_ack_ns = MsToNs(v);
  if (get("controller_read_hit_ms", &v)) c->controller.read_hit_ns = MsToNs(v);
  if (get("controller_destage_start", &v)) c->controller.destage_start_fraction = v;
  if (get("controller_destage_outstanding", &v))
    c->controller.destage_outstanding = static_cast<int>(v + 0.5);
  if (get("row_locks", &v)) c->row_locks = v != 0;
}

}  // namespace

int64_t CheckpointWalBytes(const SimConfig& c) {
  return pgmodel::CheckpointWalBytes(c.checkpoint_segments, c.max_wal_size_bytes,
                                     c.checkpoint_completion_target);
}

int64_t WalRegionBytes(const SimConfig& c) {
  return pgmodel::WalRegionBytes(c.checkpoint_segments, c.max_wal_size_bytes,
                                 c.checkpoint_completion_target);
}

pgmodel::HostConfig HostConfigFor(const SimConfig& c) {
  pgmodel::HostConfig h;
  h.workload = c.workload;
  h.scale = c.scale;
  h.cache.shared_buffers_pages = c.shared_buffers_bytes / kPageBytes;
  h.cache.os_cache_pages =
      std::max<int64_t>(0, (c.ram_bytes - c.shared_buffers_bytes - c.os_reserved_bytes) / kPageBytes);
  h.cache.readahead_max_pages = c.os_readahead_bytes / kPageBytes;
  // Linux's active and inactive lists (docs/lab.md, "What a warm run caches").
  h.cache.os_active_ratio = OsActiveRatio(h.cache.os_cache_pages, c.linux_page_cache);
  h.start = c.warm ? pgmodel::CacheStart::kWarm : pgmodel::CacheStart::kCold;
  h.heap_churn = c.heap_churn;
  h.full_page_writes = c.full_page_writes;
  h.checkpoint_timeout_ns = c.checkpoint_timeout_ns;
  h.checkpoint_wal_bytes = CheckpointWalBytes(c);
  h.checkpoint_completion_target = c.checkpoint_completion_target;
  h.wal_cache_region_bytes = WalRegionBytes(c);
  return h;
}

Status ValidateSimConfig(const SimConfig& c) {
  if (c.scale < 1) return Status::Error("workload.scale: must be >= 1");
  if (c.clients < 1) return Status::Error("workload.clients: must be >= 1");
  if (c.duration_ns <= 0 && c.transactions_per_client <= 0)
    return Status::Error("workload.duration: must be positive (or set workload.transactions)");
  if (c.rate_tps < 0) return Status::Error("workload.rate: must be >= 0");
  if (c.cpu_cores < 1) return Status::Error("host.cpu_cores: must be >= 1");
  if (c.shared_buffers_bytes < 16 * kPageBytes)
    return Status::Error("postgres.shared_buffers: must be at least 128 KiB");
  if (c.checkpoint_timeout_ns <= 0)
    return Status::Error("postgres.checkpoint_timeout: must be positive");
  if (c.max_wal_size_bytes < 2 * kPageBytes)
    return Status::Error("postgres.max_wal_size: too small");
  for (int64_t ns : c.cpu_ns) {
    if (ns < 0) return Status::Error("calibration.cpu_ms_*: must be >= 0");
  }
  if (c.client_rtt_ns < 0) return Status::Error("calibration.client_rtt_ms: must be >= 0");
  if (c.background_writes_outstanding < 1)
    return Status::Error("calibration.os_writes_outstanding: must be >= 1");
  return Status::Ok();
}

StatusOr<SimConfig> SimConfigFromScenario(const Scenario& s) {
  SimConfig c;
  c.seed = s.workload.seed;
  c.workload = s.workload.type;
  c.scale = s.workload.scale;
  c.clients = s.workload.clients;
  c.duration_ns = s.workload.duration_ns;
  c.transactions_per_client = s.workload.transactions;
  c.rate_tps = s.workload.rate_tps;
  c.warm = s.workload.cache == CacheState::kWarm;
  c.cpu_cores = s.host.cpu_cores;
  c.ram_bytes = s.host.ram_bytes;
  c.shared_buffers_bytes = s.postgres.shared_buffers_bytes;
  c.synchronous_commit = s.postgres.synchronous_commit;
  c.full_page_writes = s.postgres.full_page_writes;
  c.checkpoint_timeout_ns = s.postgres.checkpoint_timeout_ns;
  c.max_wal_size_bytes = pgmodel::MaxWalSizeBytes(s.postgres);
  c.checkpoint_segments = pgmodel::CheckpointSegments(s.postgres);
  c.checkpoint_completion_target = CheckpointCompletionTarget(s.postgres);
  c.wal_writer_delay_ns = s.postgres.wal_writer_delay_ns;
  c.wal_on_data_volume = s.postgres.wal_on_data_volume;
  c.fs = FsGeometryFor(s);
  c.linux_page_cache = UsesLinuxPageCache(s.filesystem);
  c.os_readahead_bytes = s.filesystem.os_readahead_bytes;
  FillStorage(s, &c);
  ApplyCalibration(s.calibration.values, &c);
  c.direct_data_writes = s.io.data_writes == DataWrites::kDirect;
  if (c.direct_data_writes) c.os_dirty_expire_ns = 0;  // Checkpoint writes at once.
  c.os_reserved_bytes = c.ram_bytes - c.shared_buffers_bytes - pgmodel::OsCacheBytes(s);
  Status ok = ValidateSimConfig(c);
  if (!ok.ok()) return ok;
  return c;
}

nlohmann::json SimConfigToJson(const SimConfig& c) {
  nlohmann::json cpu = nlohmann::json::object();
  for (int i = 0; i < kStatementCount; ++i)
    cpu[StatementName(static_cast<Statement>(i))] = NsToMs(c.cpu_ns[i]);
  return {{"seed", c.seed},
          {"workload", WorkloadKindName(c.workload)},
          {"scale", c.scale},
          {"clients", c.clients},
          {"duration_s", NsToSec(c.duration_ns)},
          {"transactions_per_client", c.transactions_per_client},
          {"rate_tps", c.rate_tps},
          {"cache_state", c.warm ? "warm" : "cold"},
          {"cpu_cores", c.cpu_cores},
          {"ram_bytes", c.ram_bytes},
          {"shared_buffers_bytes", c.shared_buffers_bytes},
          {"synchronous_commit", c.synchronous_commit},
          {"row_locks", c.row_locks},
          {"full_page_writes", c.full_page_writes},
          {"checkpoint_timeout_s", NsToSec(c.checkpoint_timeout_ns)},
          {"checkpoint_wal_bytes", CheckpointWalBytes(c)},
          {"data_writes", c.direct_data_writes ? "direct" : "buffered"},
          {"os_cache_bytes",
           std::max<int64_t>(0, c.ram_bytes - c.shared_buffers_bytes - c.os_reserved_bytes)},
          {"disk_scheduler", c.disk.scheduler == DiskScheduler::kSatf ? "satf" : "fifo"},
          {"seek_scale", c.disk.seek_scale},
          {"destage_position_ms",
           c.controller.destage_position_ns >= 0 ? NsToMs(c.controller.destage_position_ns) : -1.0},
          {"whole_block_reads", c.controller.whole_block_reads},
          {"controller_cache", c.controller.has_cache},
          {"write_back", c.controller.write_back},
          {"write_cache_bytes", c.controller.write_cache_bytes},
          {"read_ahead", c.controller.read_ahead == ReadAhead::kNone     ? "none"
                         : c.controller.read_ahead == ReadAhead::kAlways ? "always"
                                                                         : "adaptive"},
          {"drive_write_cache", c.disk.write_cache},
          {"disk_queue_depth", c.disk.queue_depth},
          {"cpu_ms", cpu},
          {"client_rtt_ms", NsToMs(c.client_rtt_ns)}};
}

}  // namespace sim
}  // namespace pgstorsim
