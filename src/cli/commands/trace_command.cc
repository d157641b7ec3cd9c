// `pgstorsim trace`: generates a physical I/O trace from the workload and cache
// models (docs/trace-format.md) and prints a summary. The options come from a scenario
// (--scenario or the built-in one, --set, the flags that name a scenario key) through
// GeneratorOptionsFromScenario, then the flags without a scenario key.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/units.h"
#include "pgmodel/host_scenario.h"
#include "scenario/scenario.h"
#include "trace/trace_generator.h"
#include "trace/trace_io.h"
#include "trace/trace_scenario.h"

namespace pgstorsim {
namespace {

class TraceCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("--scenario", scenario_path_,
                    "Scenario TOML file: the host, PostgreSQL and workload of the trace, as "
                    "`simulate` and `predict` read them (flags with a scenario key are "
                    "aliases of --set); without it, the built-in scenario with one client, "
                    "cold caches, no OS cache and no readahead");
    app->add_option("--set", overrides_, "Override a scenario key: key=value (repeatable)");
    scale_option_ = app->add_option("--scale", scale_, "pgbench scale factor (workload.scale)")
                        ->check(AtLeast(1));
    transactions_option_ = app->add_option("--transactions", transactions_,
                                           "Transactions to generate (ignored with --keys-log)")
                               ->check(AtLeast(0));
    clients_option_ =
        app->add_option("--clients", clients_, "Clients (transactions go round robin)")
            ->check(AtLeast(1));
    seed_option_ = app->add_option("--seed", seed_, "Seed of the key streams");
    workload_option_ =
        app->add_option("--workload", workload_, "tpcb-like, simple-update or select-only");
    app->add_option("--keys-log", keys_log_path_,
                    "Take transactions (keys, clients) from a `pgstorsim run` keys log");
    shared_option_ = app->add_option("--shared-buffers", shared_buffers_, "shared_buffers size")
                         ->check(SizeValidator());
    os_cache_option_ =
        app->add_option("--os-cache", os_cache_,
                        "OS page cache size available to the database (0 = none, the default "
                        "without --scenario; with one, its host.os_cache)")
            ->check(SizeValidator());
    cache_option_ =
        app->add_option("--cache", cache_state_,
                        "Initial cache state: cold, warm (hottest pages) or pg-prewarm (as after "
                        "`run --cache warm`)")
            ->check(OneOf({"cold", "warm", "pg-prewarm"}));
    app->add_option("--warmup-transactions", warmup_transactions_,
                    "Transactions run first and not recorded, so that a warm trace starts in "
                    "steady state (dirty buffers, their evictions' writes)")
        ->check(AtLeast(0));
    readahead_option_ =
        app->add_option("--readahead", readahead_, "OS readahead window cap (0 = off)")
            ->check(SizeValidator());
    app->add_option("--fillfactor", fillfactor_, "pgbench -F fillfactor")->check(Between(10, 100));
    interval_option_ =
        app->add_option("--checkpoint-interval", checkpoint_interval_, "checkpoint_timeout")
            ->check(DurationValidator());
    app->add_option("--checkpoint-wal", checkpoint_wal_, "WAL volume that forces a checkpoint")
        ->check(SizeValidator());
    rate_option_ =
        app->add_option("--rate", rate_tps_, "Nominal transactions per second for timestamps")
            ->check(MoreThan(0));
    app->add_option("--group-commit", group_commit_,
                    "Window in which commits of other clients share one WAL fsync")
        ->check(DurationValidator());
    app->add_option("--wal-size", wal_size_, "WAL file size; offsets wrap (recycling)")
        ->check(SizeValidator());
    app->add_option("--relations", relations_path_,
                    "`pgstorsim init` results whose sections.relations override page counts");
    app->add_option("--bgwriter-lru-maxpages", bgwriter_lru_maxpages_,
                    "Background writer: most buffers written per round (0 = off; "
                    "PostgreSQL's default is 100)")
        ->check(AtLeast(0));
    app->add_option("--bgwriter-lru-multiplier", bgwriter_lru_multiplier_,
                    "Background writer: clean ahead for recent allocations x this")
        ->check(Between(0, 10));
    app->add_option("--bgwriter-delay", bgwriter_delay_, "Background writer: time between rounds")
        ->check(DurationValidator());
    app->add_option("--out", out_path_, "Trace file to write")->required();
    app->add_flag("--force", force_, "Replace an existing --out file");
    app->add_flag("--text", text_, "Write the readable text form");
    app->add_flag("--hot-only", hot_only_,
                  "Model every accounts update as HOT (no non-HOT updates or pruning)");
  }

  int Run() override {
    Status s = FillOptions();
    if (s.ok()) {
      s = CheckOutputPath("--out", out_path_, {o_.keys_log_path, relations_path_, scenario_path_},
                          force_);
    }
    if (!s.ok()) return ReportError("trace", s);
    StatusOr<TraceHeader> header = BuildTraceHeader(o_);
    if (!header.ok()) return ReportError("trace", header.status());
    auto writer =
        TraceWriter::Open(out_path_, *header, text_ ? TraceFormat::kText : TraceFormat::kBinary);
    if (!writer.ok()) return ReportError("trace", writer.status());
    GeneratorSummary summary;
    TraceWriter* w = writer->get();
    s = GenerateTrace(
        o_, [w](const TraceRecord& r) { return w->Append(r); }, &summary);
    if (s.ok()) s = w->Close();
    if (!s.ok()) return ReportError("trace", s);
    Print(summary);
    return 0;
  }

 private:
  // A flag that names a scenario key: an alias of --set when given; without --scenario,
  // `trace_default` (when not empty) is set when it is not given.
  struct Alias {
    const CLI::Option* option;
    const char* key;
    std::string value;
    const char* trace_default;
  };

  std::vector<Alias> Aliases() const {
    // pg-prewarm has no scenario value: cold, then the host's start (FillOptions).
    const std::string cache = cache_state_ == "pg-prewarm" ? "cold" : cache_state_;
    return {{scale_option_, "workload.scale", std::to_string(scale_), ""},
            {clients_option_, "workload.clients", std::to_string(clients_), "1"},
            {seed_option_, "workload.seed", std::to_string(seed_), ""},
            {workload_option_, "workload.type", workload_, ""},
            {shared_option_, "postgres.shared_buffers", shared_buffers_, ""},
            {os_cache_option_, "host.os_cache", os_cache_, ""},
            {readahead_option_, "filesystem.os_readahead", readahead_, "0"},
            {interval_option_, "postgres.checkpoint_timeout", checkpoint_interval_, ""},
            {rate_option_, "workload.rate", std::to_string(rate_tps_), ""},
            {cache_option_, "workload.cache", cache, "cold"}};
  }

  // The scenario of the trace: --scenario, else the built-in one with the trace's own
  // defaults (one client, cold caches, no readahead); then --set, then the flags given
  // that name a scenario key. A flag's bad value is reported under its name.
  StatusOr<Scenario> LoadTraceScenario() const {
    std::vector<std::string> sets;
    for (const Alias& a : Aliases()) {
      if (scenario_path_.empty() && a.option->count() == 0 && *a.trace_default != '\0') {
        sets.push_back(std::string(a.key) + "=" + a.trace_default);
      }
    }
    sets.insert(sets.end(), overrides_.begin(), overrides_.end());
    for (const Alias& a : Aliases()) {
      if (a.option->count() == 0 || (a.option == os_cache_option_ && NoOsCache())) continue;
      Scenario scratch;
      Status valid = SetScenarioKey(&scratch, a.key, a.value);
      if (!valid.ok()) return valid.WithContext(a.option->get_name());
      sets.push_back(std::string(a.key) + "=" + a.value);
    }
    return scenario_path_.empty() ? DefaultScenario(sets) : LoadScenario(scenario_path_, sets);
  }

  // --os-cache 0, or without --scenario neither --os-cache nor --set host.os_cache: no OS
  // page cache (a scenario's host.os_cache = 0 means "derived from host.ram").
  bool NoOsCache() const {
    if (os_cache_option_->count() == 0) {
      return scenario_path_.empty() &&
             std::none_of(overrides_.begin(), overrides_.end(), [](const std::string& set) {
               return set.rfind("host.os_cache=", 0) == 0;
             });
    }
    StatusOr<int64_t> bytes = ParseBytes(os_cache_);
    return bytes.ok() && *bytes == 0;
  }

  // The options: the scenario's (pgmodel::HostConfigFromScenario for the host), then
  // the flags without a scenario key.
  Status FillOptions() {
    StatusOr<Scenario> scenario = LoadTraceScenario();
    if (!scenario.ok()) return scenario.status();
    StatusOr<GeneratorOptions> from = GeneratorOptionsFromScenario(*scenario);
    if (!from.ok()) return from.status();
    o_ = *from;
    pgmodel::HostConfig& host = o_.host;
    if (NoOsCache()) {
      pgmodel::SizeCaches(host.cache.shared_buffers_pages * kPageBytes, 0,
                          UsesLinuxPageCache(scenario->filesystem), &host.cache);
    }
    if (transactions_option_->count() > 0) o_.transactions = transactions_;
    o_.keys_log_path = keys_log_path_;
    o_.warmup_transactions = warmup_transactions_;
    if (cache_state_ == "pg-prewarm") host.start = pgmodel::CacheStart::kPgPrewarm;
    host.fillfactor = fillfactor_;
    host.heap_churn = !hot_only_;
    host.cache.bgwriter_lru_maxpages = bgwriter_lru_maxpages_;
    host.cache.bgwriter_lru_multiplier = bgwriter_lru_multiplier_;
    return ParseTraceOnly();
  }

  // The size and duration flags without a scenario key, and --relations.
  Status ParseTraceOnly() {
    pgmodel::HostConfig& host = o_.host;
    for (auto [text, out, name] :
         {std::tuple{&checkpoint_wal_, &host.checkpoint_wal_bytes, "--checkpoint-wal"},
          std::tuple{&wal_size_, &host.wal_cache_region_bytes, "--wal-size"}}) {
      if (text->empty()) continue;
      StatusOr<int64_t> v = ParseBytes(*text);
      if (!v.ok()) return v.status().WithContext(name);
      *out = *v;
    }
    int64_t bgwriter_delay_ns = host.cache.bgwriter_delay_ms * 1000000;
    for (auto [text, out, name] :
         {std::tuple{&group_commit_, &o_.group_commit_window_ns, "--group-commit"},
          std::tuple{&bgwriter_delay_, &bgwriter_delay_ns, "--bgwriter-delay"}}) {
      if (text->empty()) continue;
      StatusOr<int64_t> v = ParseDurationNs(*text);
      if (!v.ok()) return v.status().WithContext(name);
      *out = *v;
    }
    host.cache.bgwriter_delay_ms = bgwriter_delay_ns / 1000000;  // PostgreSQL's unit.
    if (!relations_path_.empty()) {
      StatusOr<Results> init = LoadResults(relations_path_);
      if (!init.ok()) return init.status().WithContext("--relations");
      if (!init->sections.contains("relations")) {
        return Status::Error("--relations " + relations_path_ + ": no sections.relations");
      }
      host.measured_relations = init->sections["relations"];
    }
    return Status::Ok();
  }

  void Print(const GeneratorSummary& s) const {
    std::printf("trace: %s (%s)\n", out_path_.c_str(), text_ ? "text" : "binary");
    std::printf("transactions: %llu (skipped uncommitted: %llu)\n",
                static_cast<unsigned long long>(s.transactions),
                static_cast<unsigned long long>(s.skipped_transactions));
    std::printf(
        "records: %llu: data reads %llu, data writes %llu, wal writes %llu, fsyncs %llu\n",
        static_cast<unsigned long long>(s.records), static_cast<unsigned long long>(s.data_reads),
        static_cast<unsigned long long>(s.data_writes),
        static_cast<unsigned long long>(s.wal_writes), static_cast<unsigned long long>(s.fsyncs));
    std::printf("hit ratio: shared %.4f, os %.4f, overall %.4f\n", s.shared_hit_ratio(),
                s.os_hit_ratio(), s.overall_hit_ratio());
    std::printf("pg_statio-style hit ratio (shared buffers): heap %.4f, index %.4f\n",
                s.StatioHitRatio(false), s.StatioHitRatio(true));
    std::printf("bytes: read %s, written %s, wal inserted %s\n", FormatBytes(s.bytes_read).c_str(),
                FormatBytes(s.bytes_written).c_str(), FormatBytes(s.wal_bytes).c_str());
    std::printf("checkpoints: %llu, full-page images: %llu, non-HOT updates: %llu, prunes: %llu\n",
                static_cast<unsigned long long>(s.checkpoints),
                static_cast<unsigned long long>(s.full_page_images),
                static_cast<unsigned long long>(s.non_hot_updates),
                static_cast<unsigned long long>(s.prunes));
    std::printf(
        "buffers written (pg_stat_bgwriter): checkpoint %llu, clean %llu (maxwritten %llu), "
        "backend %llu; alloc %llu\n",
        static_cast<unsigned long long>(s.buffers_checkpoint),
        static_cast<unsigned long long>(s.buffers_clean),
        static_cast<unsigned long long>(s.maxwritten_clean),
        static_cast<unsigned long long>(s.buffers_backend),
        static_cast<unsigned long long>(s.buffers_alloc));
  }

  GeneratorOptions o_;
  std::string scenario_path_;
  std::vector<std::string> overrides_;
  CLI::Option* scale_option_ = nullptr;
  CLI::Option* transactions_option_ = nullptr;
  CLI::Option* clients_option_ = nullptr;
  CLI::Option* seed_option_ = nullptr;
  CLI::Option* workload_option_ = nullptr;
  CLI::Option* shared_option_ = nullptr;
  CLI::Option* os_cache_option_ = nullptr;
  CLI::Option* cache_option_ = nullptr;
  CLI::Option* readahead_option_ = nullptr;
  CLI::Option* interval_option_ = nullptr;
  CLI::Option* rate_option_ = nullptr;
  int64_t scale_ = 1;
  int64_t transactions_ = 1000;
  int clients_ = 1;
  uint64_t seed_ = 1;
  std::string workload_ = "tpcb-like";
  std::string keys_log_path_;
  int64_t warmup_transactions_ = 0;
  int fillfactor_ = 100;
  double rate_tps_ = 1000;
  int64_t bgwriter_lru_maxpages_ = 0;
  double bgwriter_lru_multiplier_ = 2.0;
  std::string shared_buffers_, os_cache_, readahead_, checkpoint_wal_, wal_size_;
  std::string checkpoint_interval_, group_commit_, bgwriter_delay_;
  std::string cache_state_ = "cold";
  std::string relations_path_;
  std::string out_path_;
  bool force_ = false;
  bool text_ = false;
  bool hot_only_ = false;
};

PGSTORSIM_REGISTER_COMMAND(TraceCommand, "trace",
                           "Generate a physical I/O trace from the workload and cache models");

}  // namespace
}  // namespace pgstorsim
