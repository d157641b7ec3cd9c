// The declarative table of settable scenario keys: one row per dotted key (kind, help line,
// setter from text, getter to canonical text), built section by section with the row
// builders of scenario_key_builders.h, then given its role and unit columns. Parsing, --set,
// --sweep and canonical TOML output all go through it, in the order of its rows.
#include "scenario/scenario_keys.h"

#include <initializer_list>
#include <iterator>
#include <utility>

#include "scenario/scenario_key_builders.h"

namespace pgstorsim {
namespace {

using scenario_key_builders::BoolKey;
using scenario_key_builders::DoubleKey;
using scenario_key_builders::DurationKey;
using scenario_key_builders::EnumKey;
using scenario_key_builders::IntKey;
using scenario_key_builders::RaidLevelKey;
using scenario_key_builders::RpmKey;
using scenario_key_builders::SizeKey;
using scenario_key_builders::StringKey;
using scenario_key_builders::TopStringKey;

// The Scenario and its sections' types, as the rows name their fields.
using S = Scenario;
using H = HostConfig;
using P = PostgresConfig;
using F = FilesystemConfig;
using I = IoConfig;
using C = ControllerConfig;
using A = ArrayConfig;
using D = DiskConfig;
using W = WorkloadConfig;

// scenario.* (labels) and host.*.
std::vector<ScenarioKeyEntry> LabelAndHostKeys() {
  return {
      TopStringKey("scenario.name", "Short name", &S::name),
      TopStringKey("scenario.description", "One line: what this describes", &S::description),
      SizeKey("host.ram", "Physical memory", &S::host, &H::ram_bytes),
      SizeKey("host.os_cache", "OS page cache for the database's files (0 = derived from host.ram)",
              &S::host, &H::os_cache_bytes),
      SizeKey("host.dirty_background",
              "Dirty page cache the OS keeps before writing back (vm.dirty_background_bytes; "
              "0 = 10 % of the OS page cache)",
              &S::host, &H::dirty_background_bytes),
      SizeKey("host.dirty_limit",
              "Dirty page cache above which writers wait (vm.dirty_bytes; 0 = 20 % of the OS "
              "page cache)",
              &S::host, &H::dirty_limit_bytes),
      IntKey("host.cpu_cores", "CPU cores available to PostgreSQL", &S::host, &H::cpu_cores),
  };
}

// postgres.*: the server's settings.
std::vector<ScenarioKeyEntry> PostgresKeys() {
  return {
      StringKey("postgres.version", "Server major version, e.g. 9.1, 15", &S::postgres,
                &P::version),
      SizeKey("postgres.shared_buffers", "shared_buffers", &S::postgres, &P::shared_buffers_bytes),
      BoolKey("postgres.synchronous_commit", "synchronous_commit on/off", &S::postgres,
              &P::synchronous_commit),
      BoolKey("postgres.full_page_writes", "full_page_writes on/off", &S::postgres,
              &P::full_page_writes),
      DurationKey("postgres.checkpoint_timeout", "checkpoint_timeout", &S::postgres,
                  &P::checkpoint_timeout_ns),
      SizeKey("postgres.max_wal_size",
              "max_wal_size, 9.5 and later (checkpoint distance; 0 = default, 1 GiB)", &S::postgres,
              &P::max_wal_size_bytes),
      IntKey("postgres.checkpoint_segments",
             "checkpoint_segments, before 9.5 (16 MiB segments; 0 = default, 3)", &S::postgres,
             &P::checkpoint_segments),
      DoubleKey("postgres.checkpoint_completion_target",
                "checkpoint_completion_target, 0..1 (-1 = the version's default)", &S::postgres,
                &P::checkpoint_completion_target),
      DurationKey("postgres.wal_writer_delay",
                  "wal_writer_delay: WAL writer flush interval (synchronous_commit = off)",
                  &S::postgres, &P::wal_writer_delay_ns),
      BoolKey("postgres.wal_on_data_volume", "WAL shares the data array", &S::postgres,
              &P::wal_on_data_volume),
  };
}

// filesystem.* and io.*: the OS's side of the storage.
std::vector<ScenarioKeyEntry> FilesystemAndIoKeys() {
  return {
      StringKey("filesystem.type",
                "ufs2, ext4, xfs, ...; Linux ones get Linux's two page-cache lists", &S::filesystem,
                &F::type),
      SizeKey("filesystem.block_size", "Filesystem block: unit of file I/O", &S::filesystem,
              &F::block_size_bytes),
      SizeKey("filesystem.fragment_size", "Filesystem fragment", &S::filesystem,
              &F::fragment_size_bytes),
      SizeKey("filesystem.partition_offset", "Partition start on the array (63s = MBR)",
              &S::filesystem, &F::partition_offset_bytes),
      SizeKey("filesystem.os_readahead", "OS sequential readahead window", &S::filesystem,
              &F::os_readahead_bytes),
      IntKey("filesystem.blocks_per_group",
             "UFS cylinder group in blocks (dumpfs bpg; 0 = contiguous files)", &S::filesystem,
             &F::blocks_per_group),
      IntKey("filesystem.max_blocks_per_group",
             "UFS blocks of one file per group before the next (dumpfs maxbpg)", &S::filesystem,
             &F::max_blocks_per_group),
      StringKey("io.scheduler", "OS I/O scheduler (informational)", &S::io, &I::scheduler),
      IntKey("io.queue_depth", "Commands outstanding per disk", &S::io, &I::queue_depth),
      EnumKey("io.data_writes", "buffered|direct: data pages through the OS cache or O_DIRECT",
              &S::io, &I::data_writes,
              {{"buffered", DataWrites::kBuffered}, {"direct", DataWrites::kDirect}}),
  };
}

// controller.* and array.*: the RAID controller and its array.
std::vector<ScenarioKeyEntry> ControllerAndArrayKeys() {
  return {
      EnumKey("controller.kind", "raid|hba", &S::controller, &C::kind,
              {{"raid", ControllerKind::kRaid}, {"hba", ControllerKind::kHba}}),
      SizeKey("controller.cache_size", "Controller cache (write-back + read)", &S::controller,
              &C::cache_size_bytes),
      EnumKey("controller.write_policy", "write-back|write-through", &S::controller,
              &C::write_policy,
              {{"write-back", WritePolicy::kWriteBack},
               {"write-through", WritePolicy::kWriteThrough},
               {"writeback", WritePolicy::kWriteBack},
               {"writethrough", WritePolicy::kWriteThrough}}),
      BoolKey("controller.battery_present", "Battery/flash backup present", &S::controller,
              &C::battery_present),
      BoolKey("controller.battery_healthy", "Battery healthy", &S::controller, &C::battery_healthy),
      EnumKey("controller.read_ahead", "none|adaptive|always", &S::controller, &C::read_ahead,
              {{"none", ReadAheadPolicy::kNone},
               {"adaptive", ReadAheadPolicy::kAdaptive},
               {"always", ReadAheadPolicy::kAlways}}),
      BoolKey("controller.drive_write_cache", "Disks' own volatile write cache", &S::controller,
              &C::drive_write_cache),
      SizeKey("controller.min_stripe", "Smallest stripe the controller allows", &S::controller,
              &C::min_stripe_bytes),
      SizeKey("controller.max_stripe", "Largest stripe the controller allows", &S::controller,
              &C::max_stripe_bytes),
      RaidLevelKey(),
      IntKey("array.disks", "Member disks in total", &S::array, &A::disks),
      SizeKey("array.stripe", "Stripe unit per member", &S::array, &A::stripe_bytes),
      IntKey("array.spans", "RAID 50/60/100: number of equal spans (0 = n/a)", &S::array,
             &A::spans),
      SizeKey("array.span_stripe", "RAID 50/60/100: RAID 0 chunk over the spans (0 = array.stripe)",
              &S::array, &A::span_stripe_bytes),
  };
}

// disks.*: the member disks (hdd, ssd or throttled).
std::vector<ScenarioKeyEntry> DiskKeys() {
  return {
      EnumKey(
          "disks.type", "hdd|ssd|throttled", &S::disks, &D::type,
          {{"hdd", DiskType::kHdd}, {"ssd", DiskType::kSsd}, {"throttled", DiskType::kThrottled}}),
      RpmKey("disks.rpm", "HDD rotational speed", &S::disks, &D::rpm),
      DurationKey("disks.avg_read_seek", "HDD average read seek", &S::disks, &D::avg_read_seek_ns),
      DurationKey("disks.avg_write_seek", "HDD average write seek", &S::disks,
                  &D::avg_write_seek_ns),
      DurationKey("disks.track_to_track", "HDD track-to-track seek", &S::disks,
                  &D::track_to_track_ns),
      SizeKey("disks.transfer_rate", "Media transfer rate, bytes per second", &S::disks,
              &D::transfer_rate_bytes_per_s),
      SizeKey("disks.capacity", "Capacity of one disk", &S::disks, &D::capacity_bytes),
      DurationKey("disks.read_latency", "SSD page read latency (throttled: device)", &S::disks,
                  &D::read_latency_ns),
      DurationKey("disks.write_latency", "SSD page program latency (throttled: device)", &S::disks,
                  &D::write_latency_ns),
      IntKey("disks.channels", "SSD parallel channels", &S::disks, &D::channels),
      SizeKey("disks.page_size", "SSD page size", &S::disks, &D::page_size_bytes),
      DoubleKey("disks.read_iops", "Throttled: read I/Os per second cap", &S::disks, &D::read_iops),
      DoubleKey("disks.write_iops", "Throttled: write I/Os per second cap", &S::disks,
                &D::write_iops),
      SizeKey("disks.read_bandwidth", "Throttled: read bytes per second cap (0 = none)", &S::disks,
              &D::read_bandwidth_bytes_per_s),
      SizeKey("disks.write_bandwidth", "Throttled: write bytes per second cap (0 = none)",
              &S::disks, &D::write_bandwidth_bytes_per_s),
  };
}

// workload.*: the load.
std::vector<ScenarioKeyEntry> WorkloadKeys() {
  return {
      EnumKey("workload.type", "tpcb-like|simple-update|select-only|io", &S::workload, &W::type,
              {{"tpcb-like", WorkloadKind::kTpcbLike},
               {"simple-update", WorkloadKind::kSimpleUpdate},
               {"select-only", WorkloadKind::kSelectOnly},
               {"io", WorkloadKind::kIo}}),
      IntKey("workload.scale", "pgbench scale factor", &S::workload, &W::scale),
      IntKey("workload.clients", "Concurrent clients", &S::workload, &W::clients),
      DurationKey("workload.duration", "Run length", &S::workload, &W::duration_ns),
      IntKey("workload.transactions", "Transactions per client (0 = use duration)", &S::workload,
             &W::transactions),
      EnumKey("workload.cache", "cold|warm", &S::workload, &W::cache,
              {{"cold", CacheState::kCold}, {"warm", CacheState::kWarm}}),
      EnumKey("workload.protocol", "simple|extended|prepared (pgbench -M)", &S::workload,
              &W::protocol,
              {{"simple", QueryProtocol::kSimple},
               {"extended", QueryProtocol::kExtended},
               {"prepared", QueryProtocol::kPrepared}}),
      DoubleKey("workload.rate", "Target tps (0 = as fast as possible)", &S::workload,
                &W::rate_tps),
      IntKey("workload.seed", "Seed of every random stream", &S::workload, &W::seed),
      SizeKey("workload.io_size", "io: bytes per request (fio bs, randomio io_size)", &S::workload,
              &W::io_size_bytes),
      SizeKey("workload.file_size", "io: size of the file the requests fall in", &S::workload,
              &W::file_size_bytes),
      DoubleKey("workload.read_fraction", "io: share of requests that read, 0..1 (-1 = unset)",
                &S::workload, &W::read_fraction),
      EnumKey("workload.io_access", "random|sequential: io offsets", &S::workload, &W::io_access,
              {{"random", IoAccess::kRandom}, {"sequential", IoAccess::kSequential}}),
      IntKey("workload.io_depth", "io: requests each client (job) keeps outstanding", &S::workload,
             &W::io_depth),
      BoolKey("workload.io_fsync_writes", "io: fsync after each write (randomio's mode)",
              &S::workload, &W::io_fsync_writes),
      BoolKey("workload.io_direct", "io: O_DIRECT, bypassing the OS page cache", &S::workload,
              &W::io_direct),
      BoolKey("workload.io_rewrite",
              "io: a write rewrites the request its job read last (bonnie++'s seeks)", &S::workload,
              &W::io_rewrite),
  };
}

// Every section's rows, in the order above.
std::vector<ScenarioKeyEntry> BuildTable() {
  std::vector<ScenarioKeyEntry> table;
  for (auto* section : {&LabelAndHostKeys, &PostgresKeys, &FilesystemAndIoKeys,
                        &ControllerAndArrayKeys, &DiskKeys, &WorkloadKeys}) {
    std::vector<ScenarioKeyEntry> rows = section();
    table.insert(table.end(), std::make_move_iterator(rows.begin()),
                 std::make_move_iterator(rows.end()));
  }
  return table;
}

// The role column: workload.* keys are the load (projections), scenario.* labels,
// every other key a configuration choice; and the unit column: the unit results carry
// the value in (sizes in bytes, durations in ns: scenario_results.h names them by it,
// rpm), the workload's counts named.
std::vector<ScenarioKeyEntry> WithRoles(std::vector<ScenarioKeyEntry> table) {
  static const std::pair<const char*, const char*> kUnits[] = {
      {"workload.clients", "connections"},
      {"workload.scale", "pgbench scale factor"},
      {"workload.rate", "tps"},
      {"workload.transactions", "per client"},
      {"workload.read_fraction", "fraction"},
      {"workload.io_depth", "requests per client"}};
  for (ScenarioKeyEntry& e : table) {
    const std::string& k = e.info.key;
    for (const auto& [key, unit] : kUnits) {
      if (k == key) e.unit = unit;
    }
    if (e.info.kind == "size") e.unit = "bytes";
    if (e.info.kind == "duration") e.unit = "ns";
    if (e.info.kind == "rpm") e.unit = "rpm";
    e.role = k.rfind("workload.", 0) == 0   ? KeyRole::kWorkload
             : k.rfind("scenario.", 0) == 0 ? KeyRole::kLabel
                                            : KeyRole::kChoice;
  }
  return table;
}

}  // namespace

const std::vector<ScenarioKeyEntry>& KeyTable() {
  static const std::vector<ScenarioKeyEntry> table = WithRoles(BuildTable());
  return table;
}

const char* KeyRoleName(KeyRole role) {
  switch (role) {
    case KeyRole::kChoice:
      return "choice";
    case KeyRole::kWorkload:
      return "workload";
    case KeyRole::kLabel:
      return "label";
  }
  return "label";
}

std::string ScenarioKeyUnit(const std::string& key) {
  const ScenarioKeyEntry* e = FindKey(key);
  return e == nullptr ? "" : e->unit;
}

KeyRole ScenarioKeyRole(const std::string& key) {
  const ScenarioKeyEntry* e = FindKey(key);
  return e == nullptr ? KeyRole::kLabel : e->role;
}

const ScenarioKeyEntry* FindKey(const std::string& key) {
  for (const ScenarioKeyEntry& e : KeyTable()) {
    if (e.info.key == key) return &e;
  }
  return nullptr;
}

}  // namespace pgstorsim
