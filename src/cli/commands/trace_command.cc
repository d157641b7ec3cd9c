// `pgstorsim trace`: generates a physical I/O trace from the workload and cache
// models (docs/trace-format.md) and prints a summary.
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/units.h"
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
                    "aliases of --set)");
    app->add_option("--set", overrides_, "Override a scenario key: key=value (repeatable)");
    scale_option_ = app->add_option("--scale", scale_, "pgbench scale factor (workload.scale)")
                        ->check(AtLeast(1));
    transactions_option_ = app->add_option("--transactions", o_.transactions,
                                           "Transactions to generate (ignored with --keys-log)")
                               ->check(AtLeast(0));
    clients_option_ =
        app->add_option("--clients", o_.clients, "Clients (transactions go round robin)")
            ->check(AtLeast(1));
    seed_option_ = app->add_option("--seed", o_.seed, "Seed of the key streams");
    workload_option_ =
        app->add_option("--workload", o_.workload, "tpcb-like, simple-update or select-only");
    app->add_option("--keys-log", o_.keys_log_path,
                    "Take transactions (keys, clients) from a `pgstorsim run` keys log");
    shared_option_ = app->add_option("--shared-buffers", shared_buffers_, "shared_buffers size")
                         ->check(SizeValidator());
    os_cache_option_ =
        app->add_option("--os-cache", os_cache_, "OS page cache size available to the database")
            ->check(SizeValidator());
    cache_option_ =
        app->add_option("--cache", cache_state_,
                        "Initial cache state: cold, warm (hottest pages) or pg-prewarm (as after "
                        "`run --cache warm`)")
            ->check(OneOf({"cold", "warm", "pg-prewarm"}));
    app->add_option("--warmup-transactions", o_.warmup_transactions,
                    "Transactions run first and not recorded, so that a warm trace starts in "
                    "steady state (dirty buffers, their evictions' writes)")
        ->check(AtLeast(0));
    readahead_option_ =
        app->add_option("--readahead", readahead_, "OS readahead window cap (0 = off)")
            ->check(SizeValidator());
    app->add_option("--fillfactor", o_.fillfactor, "pgbench -F fillfactor")
        ->check(Between(10, 100));
    interval_option_ =
        app->add_option("--checkpoint-interval", checkpoint_interval_, "checkpoint_timeout")
            ->check(DurationValidator());
    app->add_option("--checkpoint-wal", checkpoint_wal_, "WAL volume that forces a checkpoint")
        ->check(SizeValidator());
    rate_option_ =
        app->add_option("--rate", o_.rate_tps, "Nominal transactions per second for timestamps")
            ->check(MoreThan(0));
    app->add_option("--group-commit", group_commit_,
                    "Window in which commits of other clients share one WAL fsync")
        ->check(DurationValidator());
    app->add_option("--wal-size", wal_size_, "WAL file size; offsets wrap (recycling)")
        ->check(SizeValidator());
    app->add_option("--relations", relations_path_,
                    "`pgstorsim init` results whose sections.relations override page counts");
    app->add_option("--bgwriter-lru-maxpages", o_.bgwriter_lru_maxpages,
                    "Background writer: most buffers written per round (0 = off; "
                    "PostgreSQL's default is 100)")
        ->check(AtLeast(0));
    app->add_option("--bgwriter-lru-multiplier", o_.bgwriter_lru_multiplier,
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
    Status s = scenario_path_.empty() && overrides_.empty() ? FillOptions() : FillFromScenario();
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
  // The flags that name a scenario key, given on the command line, as --set overrides.
  std::vector<std::string> FlagOverrides() const {
    std::vector<std::string> sets;
    auto alias = [&](const CLI::Option* option, const std::string& key, const std::string& value) {
      if (option != nullptr && option->count() > 0) sets.push_back(key + "=" + value);
    };
    alias(scale_option_, "workload.scale", std::to_string(scale_));
    alias(clients_option_, "workload.clients", std::to_string(o_.clients));
    alias(seed_option_, "workload.seed", std::to_string(o_.seed));
    alias(workload_option_, "workload.type", o_.workload);
    alias(shared_option_, "postgres.shared_buffers", shared_buffers_);
    alias(os_cache_option_, "host.os_cache", os_cache_);
    alias(readahead_option_, "filesystem.os_readahead", readahead_);
    alias(interval_option_, "postgres.checkpoint_timeout", checkpoint_interval_);
    alias(rate_option_, "workload.rate", std::to_string(o_.rate_tps));
    if (cache_option_ != nullptr && cache_option_->count() > 0 && cache_state_ != "pg-prewarm") {
      sets.push_back("workload.cache=" + cache_state_);
    }
    return sets;
  }

  // --scenario (or --set alone: the built-in scenario) plus the flag aliases; the
  // options without a scenario key come from their flags.
  Status FillFromScenario() {
    std::vector<std::string> sets = overrides_;
    for (const std::string& set : FlagOverrides()) sets.push_back(set);
    StatusOr<Scenario> scenario =
        scenario_path_.empty() ? DefaultScenario(sets) : LoadScenario(scenario_path_, sets);
    if (!scenario.ok()) return scenario.status();
    StatusOr<GeneratorOptions> from = GeneratorOptionsFromScenario(*scenario);
    if (!from.ok()) return from.status();
    GeneratorOptions o = *from;
    if (transactions_option_->count() > 0 || scenario->workload.transactions <= 0) {
      o.transactions = o_.transactions;
    }
    o.keys_log_path = o_.keys_log_path;
    o.pg_prewarm = cache_state_ == "pg-prewarm";
    o.warmup_transactions = o_.warmup_transactions;
    o.fillfactor = o_.fillfactor;
    o.bgwriter_lru_maxpages = o_.bgwriter_lru_maxpages;
    o.bgwriter_lru_multiplier = o_.bgwriter_lru_multiplier;
    o.heap_churn = !hot_only_;
    o_ = o;
    return ParseTraceOnly();
  }

  Status FillOptions() {
    if (scale_option_->count() == 0) return Status::Error("--scale or --scenario is required");
    o_.scale = scale_;
    o_.warm = cache_state_ == "warm";
    o_.pg_prewarm = cache_state_ == "pg-prewarm";
    o_.heap_churn = !hot_only_;
    return ParseTraceOnly(true);
  }

  // The size and duration flags (all of them, or with a scenario only those without a
  // scenario key) and --relations.
  Status ParseTraceOnly(bool all = false) {
    struct {
      const std::string& text;
      int64_t* out;
      const char* name;
    } sizes[] = {{shared_buffers_, &o_.shared_buffers_bytes, "--shared-buffers"},
                 {os_cache_, &o_.os_cache_bytes, "--os-cache"},
                 {readahead_, &o_.readahead_max_bytes, "--readahead"},
                 {checkpoint_wal_, &o_.checkpoint_wal_bytes, "--checkpoint-wal"},
                 {wal_size_, &o_.wal_file_bytes, "--wal-size"}};
    for (auto& size : sizes) {
      if (size.text.empty()) continue;
      if (!all && size.out != &o_.checkpoint_wal_bytes && size.out != &o_.wal_file_bytes) continue;
      StatusOr<int64_t> v = ParseBytes(size.text);
      if (!v.ok()) return v.status().WithContext(size.name);
      *size.out = *v;
    }
    for (auto [text, out, name] :
         {std::tuple{&checkpoint_interval_, &o_.checkpoint_interval_ns, "--checkpoint-interval"},
          std::tuple{&group_commit_, &o_.group_commit_window_ns, "--group-commit"},
          std::tuple{&bgwriter_delay_, &o_.bgwriter_delay_ns, "--bgwriter-delay"}}) {
      if (text->empty()) continue;
      if (!all && out == &o_.checkpoint_interval_ns) continue;
      StatusOr<int64_t> v = ParseDurationNs(*text);
      if (!v.ok()) return v.status().WithContext(name);
      *out = *v;
    }
    if (!relations_path_.empty()) {
      StatusOr<Results> init = LoadResults(relations_path_);
      if (!init.ok()) return init.status().WithContext("--relations");
      if (!init->sections.contains("relations")) {
        return Status::Error("--relations " + relations_path_ + ": no sections.relations");
      }
      o_.measured_relations = init->sections["relations"];
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
