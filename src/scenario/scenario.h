// Scenario: the one description of a system under test that every command uses
// (predict, calibrate, simulate, trace, run, report). Parsed from TOML (see
// docs/scenario-format.md), overridden by dotted keys ("array.stripe=1MiB"), validated,
// and written back as canonical TOML (calibrate's output).
//
// Units: every size is in bytes (*_bytes), every duration in nanoseconds (*_ns), rates
// in bytes per second or transactions per second as named. Files accept the units
// people write ("64k", "1MiB", "3.4ms", "15000rpm", "24GiB") via common/units.h.
// Errors name the file, the line (when the value came from a file) and the dotted key.
// Thread safety: plain value type; the functions are pure apart from LoadScenario
// reading its file.
#ifndef PGSTORSIM_SCENARIO_SCENARIO_H_
#define PGSTORSIM_SCENARIO_SCENARIO_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "layout/raid_layout.h"
#include "workload/workload_kind.h"

namespace pgstorsim {

struct HostConfig {
  int64_t ram_bytes = 16LL << 30;
  int cpu_cores = 8;
  // The OS page cache the database's files get (host.os_cache), e.g. a memory cgroup's
  // limit minus the server's shared and private memory. 0 = derived from ram_bytes
  // (predict: calibration cache_fraction x RAM; simulate: RAM - shared_buffers - 1 GiB).
  int64_t os_cache_bytes = 0;
  // The OS's dirty-data thresholds (Linux vm.dirty_background_bytes / vm.dirty_bytes,
  // or /proc/vmstat's nr_dirty_background_threshold / nr_dirty_threshold pages);
  // 0 = 10 % / 20 % of the OS page cache (pgmodel/os_dirty_limits.h).
  int64_t dirty_background_bytes = 0;
  int64_t dirty_limit_bytes = 0;
};

struct PostgresConfig {
  std::string version = "15";
  int64_t shared_buffers_bytes = 128LL << 20;
  bool synchronous_commit = true;
  bool full_page_writes = true;
  int64_t checkpoint_timeout_ns = 300LL * 1000 * 1000 * 1000;
  // Since 9.5: the checkpoint distance; 0 = the default (1 GiB). Refused before 9.5.
  int64_t max_wal_size_bytes = 0;
  // Before 9.5: a checkpoint every this many 16 MiB WAL segments; 0 = the default (3).
  // Refused since 9.5.
  int checkpoint_segments = 0;
  // Share of the checkpoint interval its writes are spread over; < 0 = the version's
  // default (CheckpointCompletionTarget).
  double checkpoint_completion_target = -1;
  // The WAL writer's sleep: with synchronous_commit = off, commits are flushed by it at
  // least this often (walwriter.c).
  int64_t wal_writer_delay_ns = 200'000'000;
  bool wal_on_data_volume = true;  // false: WAL on its own (ideal) device.
};

// The major version of `pg.version`: "9.1" -> 9, "15" -> 15; 0 when unparsable.
int PostgresMajorVersion(const PostgresConfig& pg);
// True before 9.5, whose checkpoints are triggered by checkpoint_segments (default 3,
// 48 MiB of WAL) instead of max_wal_size.
bool HasCheckpointSegments(const PostgresConfig& pg);
// checkpoint_completion_target in force: the setting, else the version's default (0.5
// until PostgreSQL 13, 0.9 since 14).
double CheckpointCompletionTarget(const PostgresConfig& pg);

struct FilesystemConfig {
  std::string type = "ext4";        // "ufs2", "ext4", "xfs", ...: see UsesLinuxPageCache.
  int64_t block_size_bytes = 4096;  // Unit the filesystem reads and writes.
  int64_t fragment_size_bytes = 4096;
  int64_t partition_offset_bytes = 1 << 20;  // Start of the partition on the array.
  int64_t os_readahead_bytes = 128 << 10;    // Sequential readahead window.
  // UFS's cylinder groups as dumpfs prints them (bpg, maxbpg): blocks per group and the
  // most blocks of one file per group before the next group (layout/fs_mapping.h,
  // FileSpread). 0 = files laid out contiguously (ext4, XFS).
  int64_t blocks_per_group = 0;
  int64_t max_blocks_per_group = 0;
};

// True when `fs.type` is a Linux filesystem (ext2/3/4, xfs, btrfs, f2fs;
// case-insensitive), whose page cache keeps Linux's active and inactive lists; false for
// others (ufs2, zfs: FreeBSD's page queues and ARC differ).
bool UsesLinuxPageCache(const FilesystemConfig& fs);

// How PostgreSQL's data-page writes reach the disks (io.data_writes): through the OS
// page cache (buffered, PostgreSQL's path: write() returns at once, the OS writes back
// later, a checkpoint's fsync waits) or each one synchronously with O_DIRECT (direct).
enum class DataWrites { kBuffered, kDirect };

struct IoConfig {
  std::string scheduler = "mq-deadline";
  int queue_depth = 32;  // Commands outstanding per disk (NCQ/TCQ).
  DataWrites data_writes = DataWrites::kBuffered;
};

enum class ControllerKind { kRaid, kHba };
enum class WritePolicy { kWriteBack, kWriteThrough };
enum class ReadAheadPolicy { kNone, kAdaptive, kAlways };

struct ControllerConfig {
  ControllerKind kind = ControllerKind::kRaid;
  int64_t cache_size_bytes = 512LL << 20;
  WritePolicy write_policy = WritePolicy::kWriteBack;
  bool battery_present = true;
  bool battery_healthy = true;
  ReadAheadPolicy read_ahead = ReadAheadPolicy::kAdaptive;
  bool drive_write_cache = false;
  int64_t min_stripe_bytes = 8 << 10;
  int64_t max_stripe_bytes = 1 << 20;
  // Write-back cache is in effect only with a cache, write-back policy and a healthy
  // battery (controllers fall back to write-through on a bad battery).
  // A RAID controller with a cache (an HBA, or a cache of 0, has none).
  bool HasCache() const { return kind == ControllerKind::kRaid && cache_size_bytes > 0; }
  bool EffectiveWriteBack() const {
    return HasCache() && write_policy == WritePolicy::kWriteBack && battery_present &&
           battery_healthy;
  }
  // The cache's split, the same in both models: dirty lines of write-back take at most
  // half of it, reads the rest (all of it under write-through); the controller starts
  // destaging once dirty lines fill kDestageStartFraction of its write share.
  static constexpr double kDestageStartFraction = 0.5;
  // Cache-line destages the controller keeps in flight per member drive (both models:
  // the simulator's controller.destage_outstanding, the model's default destage queue
  // depth, model/destage_cost.h DestageQueueDepthOf).
  static constexpr int kDestageLinesPerMember = 4;
  // A controller's time per host request that reaches the disks, from the disks'
  // completion to its acknowledgement (both models).
  static constexpr int64_t kCommandOverheadNs = 30'000;
  // A read served from the controller's cache (calibration.controller_read_hit_ms
  // overrides it: ControllerReadHitMs).
  static constexpr int64_t kReadHitNs = 100'000;
  int64_t WriteCacheBytes() const { return cache_size_bytes / 2; }
  int64_t ReadCacheBytes() const {
    return EffectiveWriteBack() ? cache_size_bytes - WriteCacheBytes() : cache_size_bytes;
  }
};

struct ArrayConfig {
  RaidLevel level = RaidLevel::kRaid10;
  int disks = 4;                    // Total member disks.
  int64_t stripe_bytes = 64 << 10;  // Stripe unit per member.
  int spans = 0;                    // RAID 50/60/100: number of spans (0 = n/a).
  // RAID 50/60/100: the RAID 0 chunk over the spans (e.g. a software RAID 0's chunk
  // over hardware RAID 10 volumes); 0 = stripe_bytes.
  int64_t span_stripe_bytes = 0;
};

// kThrottled: a rate-limited device (e.g. a loop device under cgroup blkio): reads and
// writes have independent caps; an I/O below the cap costs only the device latency
// (the cap's dispatch slices: device/throttle_slice.h).
enum class DiskType { kHdd, kSsd, kThrottled };

struct DiskConfig {
  DiskType type = DiskType::kHdd;
  // HDD.
  double rpm = 15000;
  // An HDD's mean rotational wait for a random sector, half a revolution, in ms.
  double HalfRevolutionMs() const { return 30000.0 / rpm; }
  // An HDD's firmware time per command, beside positioning and transfer (both models).
  static constexpr int64_t kHddCommandOverheadNs = 50'000;
  int64_t avg_read_seek_ns = 3400000;
  int64_t avg_write_seek_ns = 3900000;
  int64_t track_to_track_ns = 200000;
  int64_t transfer_rate_bytes_per_s = 160LL << 20;
  int64_t capacity_bytes = 300LL * 1000 * 1000 * 1000;
  // SSD (and throttled: the device's own latency below the cap).
  int64_t read_latency_ns = 90000;
  int64_t write_latency_ns = 30000;
  int channels = 8;
  int64_t page_size_bytes = 8192;
  // Throttled: independent caps per direction; bandwidth 0 = no byte cap.
  double read_iops = 150;
  double write_iops = 150;
  int64_t read_bandwidth_bytes_per_s = 0;
  int64_t write_bandwidth_bytes_per_s = 0;
};

enum class CacheState { kCold, kWarm };
// pgbench -M: the query protocol. Its CPU cost is in the calibrated cpu_ms, so a
// calibration holds for the protocol it was measured with (calibrate checks it).
enum class QueryProtocol { kSimple, kExtended, kPrepared };

// workload.type = io: how the jobs pick offsets in the file.
enum class IoAccess { kRandom, kSequential };

struct WorkloadConfig {
  WorkloadKind type = WorkloadKind::kTpcbLike;
  int scale = 100;
  int clients = 10;
  int64_t duration_ns = 60LL * 1000 * 1000 * 1000;
  int64_t transactions = 0;  // Per client; 0 = run for duration_ns.
  CacheState cache = CacheState::kWarm;
  QueryProtocol protocol = QueryProtocol::kSimple;
  double rate_tps = 0;  // 0 = closed loop, as fast as possible.
  uint64_t seed = 1;
  // workload.type = io (refused with other types): `clients` jobs each keep `io_depth`
  // requests of `io_size_bytes` outstanding on one file of `file_size_bytes`, at
  // io_size-aligned offsets (random or sequential), a read with probability
  // `read_fraction`, else a write (followed by an fsync with `io_fsync_writes`);
  // `io_direct`: O_DIRECT, no OS page cache. docs/scenario-format.md maps fio,
  // randomio and bonnie++ onto these keys.
  int64_t io_size_bytes = 0;    // Required for io.
  int64_t file_size_bytes = 0;  // Required for io.
  double read_fraction = -1;    // Required for io, 0..1; -1 = not set.
  IoAccess io_access = IoAccess::kRandom;
  int io_depth = 1;
  bool io_fsync_writes = false;
  bool io_direct = false;
  // A write rewrites the request its job read last (bonnie++'s seeks write one chunk
  // in ten back after reading it): its block is in the OS cache, not read again.
  bool io_rewrite = false;
};

// Fitted parameters written by `pgstorsim calibrate` ([calibration] table) and read
// by the models. Keys are the model's parameter names (docs/model.md).
struct CalibrationConfig {
  std::map<std::string, double> values;
  std::map<std::string, double> standard_errors;  // Same keys; absent = unknown.
  double rms_relative_error = 0;                  // Of the fit's residuals; 0 = not calibrated.
  std::string source;                             // Free text: what it was fitted on.
};

struct Scenario {
  std::string name;         // [scenario] name; defaults to the file's stem.
  std::string description;  // [scenario] description.
  HostConfig host;
  PostgresConfig postgres;
  FilesystemConfig filesystem;
  IoConfig io;
  ControllerConfig controller;
  ArrayConfig array;
  DiskConfig disks;
  WorkloadConfig workload;
  CalibrationConfig calibration;
  // Where values came from, for error messages: file name and dotted key -> line.
  std::string source_file;
  std::map<std::string, int> key_lines;
};

// "file.toml:12: " where the scenario's file set `key`, else "" (a --set value or a
// default): the prefix of a message about that key.
std::string KeyLocation(const Scenario& scenario, const std::string& key);

// One settable dotted key (for --set, --sweep, help and canonical output).
struct ScenarioKeyInfo {
  std::string key;   // "array.stripe"
  std::string kind;  // "size", "duration", "int", "double", "bool", "rpm", "string", "enum"
  std::string help;  // One line, naming the allowed values for enums.
};

// All settable keys, in canonical order. calibration.<name> keys are free-form doubles
// and are not listed individually.
const std::vector<ScenarioKeyInfo>& ScenarioKeys();

// Parses TOML text; `source_name` is used in messages ("file.toml:12: key array.stripe:
// ..."). Unknown keys and badly typed values are errors. Does not validate.
StatusOr<Scenario> ParseScenarioToml(const std::string& text, const std::string& source_name);
// Reads, parses, applies `overrides` ("key=value" each) in order, then validates.
StatusOr<Scenario> LoadScenario(const std::string& path,
                                const std::vector<std::string>& overrides = {});
// LoadScenario without the validation (the built-in default when `path` is empty): a
// sweep's base, whose points are validated one by one (sweep_spec.h LoadSweepBase).
StatusOr<Scenario> ReadScenario(const std::string& path,
                                const std::vector<std::string>& overrides = {});
// The default scenario with overrides applied and validated (no file).
StatusOr<Scenario> DefaultScenario(const std::vector<std::string>& overrides = {});

// Sets one dotted key from its textual value ("1MiB", "10", "write-back").
Status SetScenarioKey(Scenario* scenario, const std::string& key, const std::string& value);
// Applies "key=value".
Status ApplyOverride(Scenario* scenario, const std::string& assignment);
// The canonical textual value of a key ("1MiB" style sizes), or an error if unknown.
StatusOr<std::string> GetScenarioKey(const Scenario& scenario, const std::string& key);
// `value` of `key` in its canonical text ("10", "1MiB", "on" for "true"), or the key's
// error: what GetScenarioKey gives after SetScenarioKey.
StatusOr<std::string> CanonicalScenarioValue(const std::string& key, const std::string& value);

// Refuses impossible configurations (RAID 10 with odd disks, stripe not a multiple of
// 512 or outside the controller's min/max, zero clients, ...). Messages name the key
// and, when known, the file and line where it was set.
Status ValidateScenario(const Scenario& scenario);

// Canonical TOML: every section and key, units in human form, calibration included.
// ParseScenarioToml(ScenarioToToml(s)) reproduces s (except source information).
// `key_comments` (dotted key -> text) are written after the values as "# text".
std::string ScenarioToToml(const Scenario& scenario,
                           const std::map<std::string, std::string>& key_comments = {});

}  // namespace pgstorsim

#endif  // PGSTORSIM_SCENARIO_SCENARIO_H_
