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
#include "trace/trace_io.h"

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
    app->add_option("--pattern", pattern_.name,
                    "Synthetic trace instead: randrw, randread, randwrite, seqwrite-fsync");
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
    app->add_option("--array", array_, "Software array: jbod, raid0/1/10/5/6/50/60");
    app->add_option("--stripe", stripe_, "Array stripe unit (default 64k)")->check(SizeValidator());
    app->add_option("--members", members_, "Array members, comma separated, in order");
    app->add_option("--span-members", targets_.array.span_members, "RAID 50/60 span width");
    app->add_option("--fs-block", fs_block_, "Emulated filesystem block (e.g. 64k)")
        ->check(SizeValidator());
    app->add_option("--fragment", fragment_, "Emulated filesystem fragment (writes)")
        ->check(SizeValidator());
    app->add_option("--partition-offset", partition_offset_, "Partition start (e.g. 63s)")
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
    app->add_option("--scenario", scenario_,
                    "Scenario whose host the replay takes: io.data_writes and the OS page cache");
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
    Results results =
        MakeReplayResults(*outcome, prepared, options_.interval_ns, Config(), header.meta);
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
  Status Setup() {
    if (trace_.empty() == pattern_.name.empty()) {
      return Status::Error("give exactly one of --trace FILE or --pattern NAME");
    }
    if (!array_.empty()) {
      auto level = ParseRaidLevel(array_);
      if (!level.ok()) return level.status().WithContext("--array");
      targets_.use_array = true;
      targets_.array.level = *level;
      targets_.array.stripe_unit_bytes = ParseBytes(stripe_).value();
      targets_.members = SplitList(members_);
      if (targets_.members.empty()) return Status::Error("--array needs --members a,b,...");
      if (!targets_.target.empty()) return Status::Error("give --target or --members, not both");
    } else if (!members_.empty()) {
      return Status::Error("--members needs --array LEVEL");
    } else if (targets_.target.empty()) {
      return Status::Error("--target PATH is required (or --array with --members)");
    }
    targets_.fs = {Bytes(partition_offset_), Bytes(fs_block_), Bytes(fragment_)};
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

  // Data writes and the OS cache: the scenario's, else the trace's cache; --data-writes
  // last.
  Status WritePath(const TraceHeader& header) {
    options_.os_cache_bytes = header.meta.value("os_cache_bytes", int64_t{0});
    if (!scenario_.empty()) {
      auto scenario = LoadScenario(scenario_);
      if (!scenario.ok()) return scenario.status();
      Status s = ApplyScenarioWritePath(*scenario, &options_);
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
    if (!scenario_.empty()) inputs.push_back(scenario_);
    return CheckOutputPath("--out", out_, inputs, force_);
  }

  static int64_t Bytes(const std::string& text) {
    return text.empty() ? 0 : ParseBytes(text).value();
  }

  nlohmann::json Config() const {
    return {{"trace", trace_},
            {"pattern", pattern_.name},
            {"target", targets_.target},
            {"wal_target", targets_.wal_target},
            {"array", array_},
            {"stripe_unit_bytes", targets_.use_array ? targets_.array.stripe_unit_bytes : 0},
            {"members", targets_.members},
            {"fs_block_bytes", targets_.fs.fs_block_bytes},
            {"fragment_bytes", targets_.fs.fragment_bytes},
            {"partition_offset_bytes", targets_.fs.partition_offset_bytes},
            {"engine", options_.engine},
            {"workers", options_.workers},
            {"duration_ns", options_.duration_ns},
            {"open_loop", options_.open_loop},
            {"direct", targets_.direct},
            {"scenario", scenario_},
            {"data_writes", options_.buffered_data_writes ? "buffered" : "direct"},
            {"os_cache_bytes", options_.os_cache_bytes},
            {"seed", options_.seed}};
  }

  std::string trace_, out_, label_, array_, members_, scenario_, data_writes_;
  std::string stripe_ = "64k", fs_block_, fragment_, partition_offset_, create_size_;
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
