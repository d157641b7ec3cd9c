// `pgstorsim replay`: plays a trace (or a synthetic --pattern) on a file, a block
// device or a software array of members, and reports per-interval IOPS/latency,
// percentiles, tps and per-device utilisation; writes a "replay" Results file.
// Option semantics and safety rules: docs/replay.md. SIGINT/SIGTERM stop the workers
// (each finishes its current transaction): partial results are saved with
// complete=false and flag "interrupted", and the exit code is 130 (as `pgstorsim run`).
#include <atomic>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/stop_signal.h"
#include "common/units.h"
#include "replay/pattern.h"
#include "replay/report.h"
#include "replay/scenario_write_path.h"
#include "replay/session.h"
#include "scenario/scenario.h"
#include "scenario/scenario_results.h"
#include "scenario/storage_geometry.h"
#include "trace/trace_io.h"
#include "trace/trace_scenario.h"

namespace pgstorsim {
namespace {

constexpr const char* kName = "replay";

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

Status LoadTrace(const std::string& path, TraceHeader* header, std::vector<TraceRecord>* records) {
  auto reader = TraceReader::Open(path);
  if (!reader.ok()) return reader.status();
  *header = (*reader)->header();
  TraceRecord r;
  while (true) {
    StatusOr<bool> more = (*reader)->Next(&r);
    if (!more.ok()) return more.status();
    if (!*more) return Status::Ok();
    records->push_back(r);
  }
}

class ReplayCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--trace", trace_, "Trace file to replay (pgstorsim trace)");
    app->add_option(
        "--pattern", pattern_.name,
        "Synthetic trace instead: randrw, randread, randwrite, seqread, seqwrite-fsync");
    app->add_option("--pattern-size", pattern_size_, "Synthetic file size (default 1GiB)")
        ->check(SizeValidator());
    app->add_option("--pattern-block", pattern_block_, "Synthetic request size (default 8k)")
        ->check(SizeValidator());
    app->add_option("--pattern-ops", pattern_.ops_per_client,
                    "Synthetic ops per client (repeated while --duration lasts)");
    app->add_option("--read-fraction", pattern_.read_fraction, "randrw read share (0.5)")
        ->check(Between(0, 1));
    app->add_option("--target", targets_.target, "Data target: file or block device");
    app->add_option("--wal-target", targets_.wal_target, "WAL target (default: after data)");
    app->add_option("--scenario", scenario_path_,
                    "Scenario TOML: the array and filesystem geometry to replay on, and the "
                    "host's write path (io.data_writes, the OS page cache)");
    app->add_option("--set", sets_, "Override a scenario key=value (repeatable)");
    app->add_option("--array", array_, "Alias of --set array.level= (software array)");
    app->add_option("--stripe", stripe_, "Alias of --set array.stripe=")->check(SizeValidator());
    app->add_option("--members", members_,
                    "Software array members, comma separated, in order (sets array.disks)");
    app->add_option("--span-members", span_members_,
                    "Members per span (sets array.spans = members / this)");
    app->add_option("--fs-block", fs_block_, "Alias of --set filesystem.block_size=")
        ->check(SizeValidator());
    app->add_option("--fragment", fragment_, "Alias of --set filesystem.fragment_size=")
        ->check(SizeValidator());
    app->add_option("--partition-offset", partition_offset_,
                    "Alias of --set filesystem.partition_offset=")
        ->check(SizeValidator());
    app->add_option("--engine", options_.engine, "psync (default), io_uring or null");
    app->add_option("--iodepth", options_.queue_depth, "io_uring ring entries per worker");
    app->add_option("--workers", options_.workers, "Workers (default: one per trace client)");
    app->add_option("--duration", duration_, "Run time; the trace repeats (default: once)")
        ->check(DurationValidator());
    app->add_option("--interval", interval_, "Report interval (default 1s)")
        ->check(DurationValidator());
    app->add_flag("--open-loop", options_.open_loop, "Issue at trace times (default closed)");
    app->add_option("--seed", options_.seed, "Seed for write data and synthetic traces");
    app->add_option("--out", out_, "Results file (default results/runs/replay-<utc>.json)");
    app->add_flag("--force", force_, "Replace an existing --out file");
    app->add_option("--label", label_, "Label stored in the results");
    app->add_option("--allow-destroy", targets_.policy.allow_destroy,
                    "Block device or file that may be written (repeat per target)");
    app->add_flag("--force-signature", targets_.policy.force_signature,
                  "Also overwrite a device holding a filesystem/partition signature");
    app->add_option("--create-size", create_size_, "Size of files the replay creates")
        ->check(SizeValidator());
    app->add_flag("--no-direct", no_direct_, "Buffered I/O instead of O_DIRECT");
    app->add_option("--data-writes", data_writes_,
                    "buffered (PostgreSQL's path, the default: an emulated OS page cache of "
                    "the trace's os_cache_bytes or the scenario's) or direct")
        ->check(CLI::IsMember({"buffered", "direct"}));
  }

  int Run() override {
    Status s = Setup();
    if (!s.ok()) return ReportError(kName, s, kExitUsage);
    s = CheckOutputs();
    if (!s.ok()) return ReportError(kName, s);
    TraceHeader header;
    std::vector<TraceRecord> records;
    s = trace_.empty() ? MakePatternTrace(pattern_, &header, &records)
                       : LoadTrace(trace_, &header, &records);
    if (!s.ok()) return ReportError(kName, s);
    s = WritePath(header);
    if (!s.ok()) return ReportError(kName, s);
    PreparedReplay prepared;
    bool header_printed = false;
    options_.on_interval = [&](size_t, const IntervalStats& row, double seconds) {
      if (!header_printed) PrintIntervalHeader(std::cout);
      header_printed = true;
      PrintIntervalRow(row, seconds, std::cout);
      std::cout.flush();
    };
    options_.stop = InstallStopSignals();
    auto outcome = ReplayTrace(header, records, targets_, options_, &prepared);
    if (!outcome.ok()) return ReportError(kName, outcome.status());
    PrintSummary(*outcome, prepared, std::cout);
    Results results = MakeReplayResults(*outcome, prepared, options_.interval_ns,
                                        Config(header.meta), header.meta);
    results.label = label_;
    results.complete = !outcome->interrupted;
    if (outcome->interrupted) results.flags.push_back("interrupted");
    const std::string path = out_.empty() ? DefaultResultsPath("replay") : out_;
    s = SaveResults(path, results);
    if (!s.ok()) return ReportError(kName, s);
    std::cout << "results: " << path << (outcome->interrupted ? " (partial: interrupted)" : "")
              << "\n";
    if (outcome->interrupted) return kInterruptedExitCode;
    return outcome->member_errors > 0 ? 2 : 0;
  }

 private:
  // The scenario the replay's geometry comes from: --scenario (or the defaults with a
  // plain HBA, so any stripe a software array takes is allowed), then the flag
  // aliases, then --set, in that order.
  StatusOr<Scenario> BuildScenario(const std::vector<std::string>& members) const {
    std::vector<std::string> sets;
    if (scenario_path_.empty()) {
      sets.push_back("controller.kind=hba");
      if (!members.empty()) sets.push_back("array.disks=" + std::to_string(members.size()));
    }
    const std::pair<const char*, const std::string*> aliases[] = {
        {"array.level", &array_},
        {"array.stripe", &stripe_},
        {"filesystem.block_size", &fs_block_},
        {"filesystem.fragment_size", &fragment_},
        {"filesystem.partition_offset", &partition_offset_}};
    for (const auto& [key, value] : aliases) {
      if (!value->empty()) sets.push_back(std::string(key) + "=" + *value);
    }
    if (span_members_ > 0) {
      sets.push_back("array.spans=" + std::to_string(members.size() / span_members_));
    }
    sets.insert(sets.end(), sets_.begin(), sets_.end());
    return scenario_path_.empty() ? DefaultScenario(sets) : LoadScenario(scenario_path_, sets);
  }

  // The filesystem is emulated when the scenario is a file or a filesystem key is
  // set; otherwise requests reach the device as the trace has them (raw).
  bool EmulatesFilesystem() const {
    if (!scenario_path_.empty() || !fs_block_.empty() || !fragment_.empty() ||
        !partition_offset_.empty())
      return true;
    for (const std::string& set : sets_) {
      if (set.rfind("filesystem.", 0) == 0) return true;
    }
    return false;
  }

  Status Setup() {
    if (trace_.empty() == pattern_.name.empty()) {
      return Status::Error("give exactly one of --trace FILE or --pattern NAME");
    }
    const std::vector<std::string> members = SplitList(members_);
    if (!array_.empty() && members.empty()) return Status::Error("--array needs --members a,b,...");
    if (!members.empty() && array_.empty() && scenario_path_.empty()) {
      return Status::Error("--members needs --array LEVEL (or --scenario with array.level)");
    }
    if (!members.empty() && !targets_.target.empty()) {
      return Status::Error("give --target or --members, not both");
    }
    if (members.empty() && targets_.target.empty()) {
      return Status::Error("--target PATH is required (or --members with an array level)");
    }
    auto scenario = BuildScenario(members);
    if (!scenario.ok()) return scenario.status();
    scenario_ = *scenario;
    if (!members.empty()) {
      if (scenario_.array.disks != static_cast<int>(members.size())) {
        return Status::Error("--members: " + std::to_string(members.size()) +
                             " devices, but the scenario's array.disks is " +
                             std::to_string(scenario_.array.disks));
      }
      targets_.use_array = true;
      targets_.array = ArrayGeometryFor(scenario_);
      targets_.members = members;
    }
    emulated_fs_ = EmulatesFilesystem();
    targets_.fs = emulated_fs_ ? FsGeometryFor(scenario_) : FsGeometry();
    targets_.policy.create_size_bytes = Bytes(create_size_);
    targets_.direct = !no_direct_;
    options_.duration_ns = duration_.empty() ? 0 : ParseDurationNs(duration_).value();
    options_.interval_ns = ParseDurationNs(interval_).value();
    if (options_.workers < 0) return Status::Error("--workers must be at least 0");
    if (options_.queue_depth < 1) return Status::Error("--iodepth must be at least 1");
    pattern_.file_bytes = Bytes(pattern_size_);
    pattern_.block_bytes = Bytes(pattern_block_);
    pattern_.clients = options_.workers > 0 ? options_.workers : 1;
    pattern_.seed = options_.seed;
    return Status::Ok();
  }

  // Data writes and the OS cache: the scenario's (with its --set overrides), else the
  // trace's cache; --data-writes last.
  Status WritePath(const TraceHeader& header) {
    options_.os_cache_bytes = header.meta.value("os_cache_bytes", int64_t{0});
    if (!scenario_path_.empty()) {
      Status s = ApplyScenarioWritePath(scenario_, &options_);
      if (!s.ok()) return s;
    }
    if (!data_writes_.empty()) options_.buffered_data_writes = data_writes_ == "buffered";
    return Status::Ok();
  }

  // --out is never an input (the trace, a target) and replaces a file only with --force.
  Status CheckOutputs() const {
    if (out_.empty()) return Status::Ok();
    std::vector<std::string> inputs = {trace_, targets_.target, targets_.wal_target};
    inputs.insert(inputs.end(), targets_.members.begin(), targets_.members.end());
    if (!scenario_path_.empty()) inputs.push_back(scenario_path_);
    return CheckOutputPath("--out", out_, inputs, force_);
  }

  static int64_t Bytes(const std::string& text) {
    return text.empty() ? 0 : ParseBytes(text).value();
  }

  // The run's settings; the geometry as canonical scenario keys (config.scenario),
  // without the filesystem keys when no filesystem was emulated, nor the array keys
  // when the data target is a single device; the workload keys are those the trace's
  // meta states (the trace, not the scenario, holds the workload replayed).
  nlohmann::json Config(const nlohmann::json& trace_meta) const {
    nlohmann::json keys = ScenarioResultsKeys(scenario_);
    for (auto it = keys.begin(); it != keys.end();) {
      const bool fs = it.key().rfind("filesystem.", 0) == 0;
      const bool array = it.key().rfind("array.", 0) == 0;
      const bool workload = it.key().rfind("workload.", 0) == 0;
      it = (fs && !emulated_fs_) || (array && !targets_.use_array) || workload ? keys.erase(it)
                                                                               : std::next(it);
    }
    auto traced = StatedResultsKeys(TraceWorkloadKeys(trace_meta));  // Canonical texts.
    if (traced.ok()) keys.update(*traced);
    return {{"trace", trace_},
            {"pattern", pattern_.name},
            {"target", targets_.target},
            {"wal_target", targets_.wal_target},
            {"members", targets_.members},
            {"scenario_file", scenario_path_},
            {"scenario", keys},
            {"engine", options_.engine},
            {"workers", options_.workers},
            {"duration_ns", options_.duration_ns},
            {"open_loop", options_.open_loop},
            {"direct", targets_.direct},
            {"data_writes", options_.buffered_data_writes ? "buffered" : "direct"},
            {"os_cache_bytes", options_.os_cache_bytes},
            {"seed", options_.seed}};
  }

  std::string trace_, out_, label_, array_, members_, scenario_path_, data_writes_;
  std::vector<std::string> sets_;
  std::string stripe_, fs_block_, fragment_, partition_offset_, create_size_;
  int span_members_ = 0;
  Scenario scenario_;  // --scenario (or the defaults) with the aliases and --set.
  bool emulated_fs_ = false;
  std::string duration_, interval_ = "1s", pattern_size_ = "1GiB", pattern_block_ = "8k";
  bool no_direct_ = false, force_ = false;
  PatternOptions pattern_{""};
  ReplayTargets targets_;
  ReplayOptions options_;
};

PGSTORSIM_REGISTER_COMMAND(ReplayCommand, "replay",
                           "Replay a trace's page I/O on a file, device or software array");

}  // namespace
}  // namespace pgstorsim
