// `pgstorsim merge R1.json R2.json ... --out R.json`: joins the results of drivers that
// ran together against one server (common/results_merge.h) and prints the combined tps
// and latency percentiles; or, given the shards of one sweep (`predict|simulate --sweep
// ... --shard i/n`), joins them into the whole sweep (common/sweep_shards.h).
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "common/output_path.h"
#include "common/results.h"
#include "common/results_merge.h"
#include "common/sweep_shards.h"
#include "common/units.h"

namespace pgstorsim {
namespace {

class MergeCommand : public Command {
 public:
  void Configure(CLI::App* app) override {
    app->add_option("results", inputs_, "Run results to join (two or more)")->required();
    app->add_option("--out", out_, "Merged results file")->required();
    app->add_flag("--force", force_, "--out may replace an existing file");
  }

  int Run() override {
    if (inputs_.size() < 2) return ReportError("merge", "give two or more results files");
    Status s = CheckOutputPath("--out", out_, inputs_, force_);
    if (!s.ok()) return ReportError("merge", s);
    std::vector<Results> parts;
    for (const std::string& path : inputs_) {
      auto r = LoadResults(path);
      if (!r.ok()) return ReportError("merge", r.status());
      parts.push_back(std::move(r).value());
    }
    if (IsSweepShard(parts[0])) return JoinShards(parts);
    auto merged = MergeResults(parts, inputs_);
    if (!merged.ok()) return ReportError("merge", merged.status());
    for (size_t i = 0; i < parts.size(); ++i) {
      std::printf("%s: %llu transactions, tps = %.3f\n", inputs_[i].c_str(),
                  static_cast<unsigned long long>(parts[i].transactions), parts[i].tps);
    }
    const LatencyHistogram& h = merged->transaction_latency;
    std::printf("combined: %llu transactions, tps = %.3f, %llu failed\n",
                static_cast<unsigned long long>(merged->transactions), merged->tps,
                static_cast<unsigned long long>(merged->failed));
    std::printf("combined latency ms: mean %.3f p50 %.3f p95 %.3f p99 %.3f max %.3f\n",
                h.mean_ns() / kNsPerMs, NsToMs(h.PercentileNs(0.50)),
                NsToMs(h.PercentileNs(0.95)), NsToMs(h.PercentileNs(0.99)), NsToMs(h.max_ns()));
    s = SaveResults(out_, *merged);
    if (!s.ok()) return ReportError("merge", s);
    std::printf("results: %s\n", out_.c_str());
    return 0;
  }

 private:
  int JoinShards(const std::vector<Results>& parts) {
    auto joined = JoinSweepShards(parts, inputs_);
    if (!joined.ok()) return ReportError("merge", joined.status());
    std::printf("joined %zu shards: %zu sweep points\n", parts.size(),
                joined->sections["sweep"].size());
    Status s = SaveResults(out_, *joined);
    if (!s.ok()) return ReportError("merge", s);
    std::printf("results: %s\n", out_.c_str());
    return 0;
  }

  std::vector<std::string> inputs_;
  std::string out_;
  bool force_ = false;
};

PGSTORSIM_REGISTER_COMMAND(MergeCommand, "merge",
                           "Join run results of drivers that ran together against one server, "
                           "or the shards of one sweep");

}  // namespace
}  // namespace pgstorsim
