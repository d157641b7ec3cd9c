// ValidateScenario: refuses impossible configurations, naming file, line and key.
#include <cstdio>
#include <string>

#include "common/units.h"
#include "scenario/scenario.h"
#include "scenario/storage_geometry.h"

namespace pgstorsim {
namespace {

// "file.toml:12: key array.stripe: <why>" when the key came from a file, else
// "key array.stripe: <why>" (values from --set or defaults).
Status Refuse(const Scenario& s, const std::string& key, const std::string& why) {
  std::string where = KeyLocation(s, key);
  if (where.empty() && !s.source_file.empty()) where = s.source_file + ": ";
  return Status::Error(where + "key " + key + ": " + why);
}

// "MAJOR" or "MAJOR.MINOR[.PATCH]" of a release the models know: 8.3 .. 9.6, 10 .. 17.
bool KnownPostgresVersion(const std::string& version) {
  int major = -1, minor = -1, patch = -1, end = 0;
  const int n =
      std::sscanf(version.c_str(), "%d%n.%d%n.%d%n", &major, &end, &minor, &end, &patch, &end);
  if (n < 1 || end != static_cast<int>(version.size())) return false;
  if (major == 8 || major == 9) {
    return n >= 2 && minor >= (major == 8 ? 3 : 0) && minor <= (major == 8 ? 4 : 6);
  }
  return major >= 10 && major <= 17 && (n < 2 || minor >= 0);
}

// The checkpoint trigger of the version (checkpoint_segments before 9.5, max_wal_size
// since), the spread and the WAL writer's interval, within PostgreSQL's own ranges.
Status CheckCheckpointSettings(const Scenario& s) {
  const PostgresConfig& pg = s.postgres;
  const bool segments = HasCheckpointSegments(pg);
  if (pg.max_wal_size_bytes < 0 ||
      (pg.max_wal_size_bytes > 0 && pg.max_wal_size_bytes < (32LL << 20))) {
    return Refuse(s, "postgres.max_wal_size",
                  "must be at least 32 MiB, two WAL segments (0 = the default, 1 GiB)");
  }
  if (pg.max_wal_size_bytes > 0 && segments) {
    return Refuse(s, "postgres.max_wal_size",
                  "PostgreSQL " + pg.version +
                      " has no max_wal_size (added in 9.5); use postgres.checkpoint_segments");
  }
  if (pg.checkpoint_segments < 0) {
    return Refuse(s, "postgres.checkpoint_segments", "must be at least 1 (0 = the default, 3)");
  }
  if (pg.checkpoint_segments > 0 && !segments) {
    return Refuse(s, "postgres.checkpoint_segments",
                  "PostgreSQL " + pg.version +
                      " has no checkpoint_segments (removed in 9.5); use postgres.max_wal_size");
  }
  if (!(pg.checkpoint_completion_target <= 1) ||
      (pg.checkpoint_completion_target < 0 && pg.checkpoint_completion_target != -1)) {
    return Refuse(s, "postgres.checkpoint_completion_target",
                  "must be in [0, 1] (-1 = the version's default)");
  }
  if (pg.wal_writer_delay_ns < kNsPerMs || pg.wal_writer_delay_ns > 10 * kNsPerSec) {
    return Refuse(s, "postgres.wal_writer_delay", "must be from 1ms to 10s (PostgreSQL's range)");
  }
  return Status::Ok();
}

Status CheckHostAndPostgres(const Scenario& s) {
  if (!KnownPostgresVersion(s.postgres.version)) {
    return Refuse(s, "postgres.version",
                  "'" + s.postgres.version + "' is not a PostgreSQL release from 8.3 to 17");
  }
  if (s.host.ram_bytes <= 0) return Refuse(s, "host.ram", "must be positive");
  if (s.host.cpu_cores < 1) return Refuse(s, "host.cpu_cores", "must be at least 1");
  if (s.postgres.shared_buffers_bytes < kPageBytes) {
    return Refuse(s, "postgres.shared_buffers", "must hold at least one 8 KiB page");
  }
  if (s.host.os_cache_bytes < 0 ||
      s.host.os_cache_bytes + s.postgres.shared_buffers_bytes > s.host.ram_bytes) {
    return Refuse(s, "host.os_cache", "must be >= 0 and, with shared_buffers, fit host.ram");
  }
  if (s.postgres.shared_buffers_bytes >= s.host.ram_bytes) {
    return Refuse(s, "postgres.shared_buffers", "must be smaller than host.ram");
  }
  if (s.postgres.checkpoint_timeout_ns <= 0) {
    return Refuse(s, "postgres.checkpoint_timeout", "must be positive");
  }
  return CheckCheckpointSettings(s);
}

bool PowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

Status CheckFilesystem(const Scenario& s) {
  const FilesystemConfig& f = s.filesystem;
  if (!PowerOfTwo(f.block_size_bytes) || f.block_size_bytes < kSectorBytes) {
    return Refuse(s, "filesystem.block_size", "must be a power of two of at least 512 bytes");
  }
  if (!PowerOfTwo(f.fragment_size_bytes) || f.fragment_size_bytes > f.block_size_bytes ||
      f.fragment_size_bytes < kSectorBytes) {
    return Refuse(s, "filesystem.fragment_size",
                  "must be a power of two between 512 bytes and filesystem.block_size");
  }
  if (f.partition_offset_bytes < 0 || f.partition_offset_bytes % kSectorBytes != 0) {
    return Refuse(s, "filesystem.partition_offset", "must be a whole number of 512-byte sectors");
  }
  if (f.os_readahead_bytes < 0) return Refuse(s, "filesystem.os_readahead", "must be >= 0");
  if (f.blocks_per_group < 0) return Refuse(s, "filesystem.blocks_per_group", "must be >= 0");
  if (f.max_blocks_per_group < 0 || f.max_blocks_per_group > f.blocks_per_group ||
      (f.blocks_per_group > 0) != (f.max_blocks_per_group > 0)) {
    return Refuse(s, "filesystem.max_blocks_per_group",
                  "must be given with filesystem.blocks_per_group, between 1 and it");
  }
  if (f.blocks_per_group > 0 && UsesLinuxPageCache(f)) {
    return Refuse(
        s, "filesystem.blocks_per_group",
        "UFS cylinder groups (dumpfs bpg / maxbpg) do not apply to filesystem.type = " + f.type +
            " (its allocator places files otherwise); set it and "
            "filesystem.max_blocks_per_group to 0");
  }
  if (s.io.queue_depth < 1) return Refuse(s, "io.queue_depth", "must be at least 1");
  return Status::Ok();
}

Status CheckControllerAndArray(const Scenario& s) {
  const ControllerConfig& c = s.controller;
  const ArrayConfig& a = s.array;
  if (c.cache_size_bytes < 0) return Refuse(s, "controller.cache_size", "must be >= 0");
  if (a.stripe_bytes <= 0 || a.stripe_bytes % kSectorBytes != 0) {
    return Refuse(s, "array.stripe", "must be a positive multiple of 512 bytes");
  }
  if (c.kind == ControllerKind::kRaid) {
    if (c.min_stripe_bytes > c.max_stripe_bytes) {
      return Refuse(s, "controller.min_stripe", "is larger than controller.max_stripe");
    }
    if (a.stripe_bytes < c.min_stripe_bytes || a.stripe_bytes > c.max_stripe_bytes) {
      return Refuse(s, "array.stripe",
                    "outside the controller's range " + std::to_string(c.min_stripe_bytes) + ".." +
                        std::to_string(c.max_stripe_bytes) + " bytes");
    }
  }
  if (a.level == RaidLevel::kRaid10) {
    // A controller's RAID 10 spans group the mirrored pairs; the mapping is RAID 10's.
    if (a.spans < 0 || (a.spans > 0 && (a.disks / 2) % a.spans != 0)) {
      return Refuse(s, "array.spans", "mirrored pairs do not divide into array.spans");
    }
  } else if (IsSpannedLevel(a.level)) {
    if (a.spans < 2) {
      return Refuse(s, "array.spans",
                    std::string(RaidLevelName(a.level)) + " needs array.spans >= 2 equal spans");
    }
    if (a.disks % a.spans != 0) {
      return Refuse(s, "array.disks",
                    std::to_string(a.disks) + " disks do not split into array.spans = " +
                        std::to_string(a.spans) + " equal spans");
    }
  } else if (a.spans != 0) {
    return Refuse(s, "array.spans", "only RAID 10/50/60/100 have spans");
  }
  GeometryField field = GeometryField::kLevel;
  Status geometry = CheckArrayGeometry(ArrayGeometryFor(s), &field);
  if (!geometry.ok()) return Refuse(s, ScenarioKeyFor(field), geometry.message());
  return Status::Ok();
}

Status CheckThrottle(const Scenario& s) {
  const DiskConfig& d = s.disks;
  if (!(d.read_iops > 0)) return Refuse(s, "disks.read_iops", "must be positive");
  if (!(d.write_iops > 0)) return Refuse(s, "disks.write_iops", "must be positive");
  if (d.read_bandwidth_bytes_per_s < 0) {
    return Refuse(s, "disks.read_bandwidth", "must be >= 0 (0 = no byte cap)");
  }
  if (d.write_bandwidth_bytes_per_s < 0) {
    return Refuse(s, "disks.write_bandwidth", "must be >= 0 (0 = no byte cap)");
  }
  if (d.read_latency_ns < 0) return Refuse(s, "disks.read_latency", "must be >= 0");
  if (d.write_latency_ns < 0) return Refuse(s, "disks.write_latency", "must be >= 0");
  return Status::Ok();
}

Status CheckDisks(const Scenario& s) {
  const DiskConfig& d = s.disks;
  if (d.capacity_bytes <= 0) return Refuse(s, "disks.capacity", "must be positive");
  if (d.transfer_rate_bytes_per_s <= 0) return Refuse(s, "disks.transfer_rate", "must be > 0");
  if (d.type == DiskType::kHdd) {
    // Drives spin at 4200-15000 rpm; far outside, a rotation rounds to no time at all.
    if (!(d.rpm >= 1000 && d.rpm <= 100000)) {
      return Refuse(s, "disks.rpm", "must be between 1000 and 100000");
    }
    if (d.avg_read_seek_ns < 0) return Refuse(s, "disks.avg_read_seek", "must be >= 0");
    if (d.avg_write_seek_ns < 0) return Refuse(s, "disks.avg_write_seek", "must be >= 0");
    if (d.track_to_track_ns < 0 || d.track_to_track_ns > d.avg_read_seek_ns) {
      return Refuse(s, "disks.track_to_track", "must be between 0 and disks.avg_read_seek");
    }
  } else if (d.type == DiskType::kThrottled) {
    return CheckThrottle(s);
  } else {
    if (d.read_latency_ns <= 0) return Refuse(s, "disks.read_latency", "must be positive");
    if (d.write_latency_ns <= 0) return Refuse(s, "disks.write_latency", "must be positive");
    if (d.channels < 1) return Refuse(s, "disks.channels", "must be at least 1");
    if (d.page_size_bytes < kSectorBytes) return Refuse(s, "disks.page_size", "too small");
  }
  return Status::Ok();
}

// Refuse(), placed at `key`'s line or, when the file does not set it, at workload.type's
// (an io workload missing a required key).
Status RefuseIo(const Scenario& s, const std::string& key, const std::string& why) {
  if (s.key_lines.count(key) == 0 && s.key_lines.count("workload.type") > 0) {
    return Status::Error(KeyLocation(s, "workload.type") + "key " + key + ": " + why);
  }
  return Refuse(s, key, why);
}

// workload.type = io needs its request size, file size and read fraction; the io keys
// mean nothing to a pgbench workload, and the pgbench-only ones nothing to io.
Status CheckIoWorkload(const Scenario& s) {
  const WorkloadConfig& w = s.workload;
  if (w.type != WorkloadKind::kIo) {
    const std::pair<const char*, bool> io_only[] = {
        {"workload.io_size", w.io_size_bytes != 0},
        {"workload.file_size", w.file_size_bytes != 0},
        {"workload.read_fraction", w.read_fraction != -1},
        {"workload.io_access", w.io_access != IoAccess::kRandom},
        {"workload.io_depth", w.io_depth != 1},
        {"workload.io_fsync_writes", w.io_fsync_writes},
        {"workload.io_direct", w.io_direct},
        {"workload.io_rewrite", w.io_rewrite}};
    for (const auto& [key, set] : io_only) {
      if (set) return Refuse(s, key, "only applies to workload.type = io");
    }
    return Status::Ok();
  }
  if (w.io_size_bytes <= 0 || w.io_size_bytes % kSectorBytes != 0) {
    return RefuseIo(s, "workload.io_size",
                    "an io workload needs a request size, a positive multiple of 512 bytes "
                    "(e.g. workload.io_size = \"8KiB\")");
  }
  if (w.file_size_bytes < w.io_size_bytes) {
    return RefuseIo(s, "workload.file_size",
                    "an io workload needs a file of at least workload.io_size bytes");
  }
  const double array_bytes = static_cast<double>(DataMembers(ArrayGeometryFor(s))) *
                             static_cast<double>(s.disks.capacity_bytes);
  if (static_cast<double>(w.file_size_bytes + s.filesystem.partition_offset_bytes) > array_bytes) {
    return Refuse(s, "workload.file_size",
                  "larger than the array (" + std::to_string(static_cast<int64_t>(array_bytes)) +
                      " bytes of data)");
  }
  if (w.read_fraction == -1) {
    return RefuseIo(s, "workload.read_fraction",
                    "an io workload needs the share of reads (0 = all writes, 1 = all reads)");
  }
  if (!(w.read_fraction >= 0 && w.read_fraction <= 1)) {
    return Refuse(s, "workload.read_fraction", "must be between 0 and 1");
  }
  if (w.io_depth < 1) return Refuse(s, "workload.io_depth", "must be at least 1");
  if (w.io_rewrite && !(w.read_fraction > 0 && w.read_fraction < 1)) {
    return Refuse(s, "workload.io_rewrite",
                  "rewrites what a job read: needs workload.read_fraction between 0 and 1");
  }
  if (w.rate_tps > 0) {
    return Refuse(s, "workload.rate", "an io workload runs closed loop (jobs x io_depth); use 0");
  }
  if (w.transactions > 0) {
    return Refuse(s, "workload.transactions", "an io workload runs for workload.duration");
  }
  return Status::Ok();
}

Status CheckWorkload(const Scenario& s) {
  const WorkloadConfig& w = s.workload;
  if (w.scale < 1) return Refuse(s, "workload.scale", "must be at least 1");
  if (w.clients < 1) return Refuse(s, "workload.clients", "must be at least 1");
  if (w.duration_ns <= 0 && w.transactions <= 0) {
    return Refuse(s, "workload.duration", "either duration or transactions must be positive");
  }
  if (w.transactions < 0) return Refuse(s, "workload.transactions", "must be >= 0");
  if (w.rate_tps < 0) return Refuse(s, "workload.rate", "must be >= 0");
  return CheckIoWorkload(s);
}

// Calibration values whose readers need a count: the OS's writes in flight.
Status CheckCalibration(const Scenario& s) {
  auto writes = s.calibration.values.find("os_writes_outstanding");
  if (writes != s.calibration.values.end() && !(writes->second >= 0.5)) {
    return Refuse(s, "calibration.os_writes_outstanding", "must be >= 1");
  }
  return Status::Ok();
}

}  // namespace

Status ValidateScenario(const Scenario& s) {
  for (auto check : {CheckHostAndPostgres, CheckFilesystem, CheckControllerAndArray, CheckDisks,
                     CheckWorkload, CheckCalibration}) {
    Status st = check(s);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

}  // namespace pgstorsim
