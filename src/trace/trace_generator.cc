#include "trace/trace_generator.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <unordered_set>

#include "cache/buffer_cache.h"
#include "common/units.h"
#include "trace/generator_core.h"
#include "workload/keys_log.h"
#include "workload/tpcb.h"

namespace pgstorsim {
namespace {

using pgmodel::kWalSegmentBytes;
constexpr uint8_t kNoStatement = 255;

using Txn = GeneratorTxn;

int64_t RoundUp(int64_t n, int64_t unit) { return (n + unit - 1) / unit * unit; }

StatusOr<DatabaseLayout> MakeLayout(const pgmodel::HostConfig& h) {
  StatusOr<DatabaseLayout> layout = DatabaseLayout::Create({h.scale, h.fillfactor});
  if (!layout.ok()) return layout;
  if (!h.measured_relations.is_null()) {
    Status s = layout.value().ApplyMeasured(h.measured_relations);
    if (!s.ok()) return s.WithContext("--relations");
  }
  return layout;
}

Status ValidateOptions(const GeneratorOptions& o) {
  const pgmodel::HostConfig& h = o.host;
  const CacheConfig& c = h.cache;
  if (o.transactions < 0) return Status::Error("--transactions must be at least 0");
  if (o.warmup_transactions < 0) return Status::Error("--warmup-transactions must be at least 0");
  if (o.clients < 1) return Status::Error("--clients must be at least 1");
  if (o.rate_tps <= 0) return Status::Error("--rate must be more than 0 tps");
  if (h.checkpoint_timeout_ns <= 0)
    return Status::Error("--checkpoint-interval must be more than 0 s");
  if (h.checkpoint_wal_bytes <= 0)
    return Status::Error("--checkpoint-wal must be more than 0 bytes");
  if (o.group_commit_window_ns < 0) return Status::Error("--group-commit must be at least 0 s");
  if (c.bgwriter_lru_maxpages < 0)
    return Status::Error("--bgwriter-lru-maxpages must be at least 0");
  if (!(c.bgwriter_lru_multiplier >= 0 && c.bgwriter_lru_multiplier <= 10)) {
    return Status::Error("--bgwriter-lru-multiplier must be between 0 and 10");
  }
  if (c.bgwriter_delay_ms < 1) return Status::Error("--bgwriter-delay must be at least 1ms");
  if (h.wal_cache_region_bytes < kWalSegmentBytes)
    return Status::Error("--wal-size must be at least 16MiB");
  if (c.os_cache_pages < 0 || c.readahead_max_pages < 0) {
    return Status::Error("--os-cache and --readahead must be at least 0 bytes");
  }
  // The pgbench workloads only (not io).
  StatusOr<WorkloadKind> kind = ParseWorkloadKind(WorkloadKindName(h.workload));
  return kind.ok() ? Status::Ok() : kind.status().WithContext("--workload");
}

StatusOr<std::vector<Txn>> LoadTransactions(const GeneratorOptions& o, uint64_t* skipped) {
  std::vector<Txn> out;
  *skipped = 0;
  if (o.keys_log_path.empty()) {
    // Round robin over the clients, each drawing from its own stream (ClientKeys).
    std::vector<KeyGenerator> keys;
    for (int c = 0; c < o.clients; ++c) {
      keys.push_back(ClientKeys(o.host.scale, o.seed, static_cast<uint32_t>(c)));
    }
    for (int64_t i = 0; i < o.warmup_transactions + o.transactions; ++i) {
      const auto client = static_cast<uint32_t>(i % o.clients);
      out.push_back({client, keys[client].Next()});
    }
    return out;
  }
  StatusOr<std::vector<KeysLogRecord>> log = ReadKeysLog(o.keys_log_path);
  if (!log.ok()) return log.status();
  std::vector<KeysLogRecord> records = std::move(log).value();
  std::stable_sort(
      records.begin(), records.end(),
      [](const KeysLogRecord& a, const KeysLogRecord& b) { return a.end_ns < b.end_ns; });
  const int64_t scale = o.host.scale;
  for (const KeysLogRecord& e : records) {
    if (!e.committed) {
      ++*skipped;
      continue;
    }
    if (e.aid < 1 || e.aid > scale * kAccountsPerScale || e.tid > scale * kTellersPerScale ||
        e.bid > scale * kBranchesPerScale) {
      return Status::Error(o.keys_log_path + ": client " + std::to_string(e.client) + " txn " +
                           std::to_string(e.txn_seq) + ": keys out of range for scale " +
                           std::to_string(scale));
    }
    TxnKeys keys{e.aid, std::max<int64_t>(e.tid, 1), std::max<int64_t>(e.bid, 1), e.delta};
    out.push_back({static_cast<uint32_t>(e.client), keys, std::max<int64_t>(e.start_ns, 0),
                   std::max(e.end_ns, e.start_ns)});
  }
  if (o.warmup_transactions > 0 && static_cast<int64_t>(out.size()) <= o.warmup_transactions) {
    return Status::Error(o.keys_log_path + ": " + std::to_string(out.size()) +
                         " committed transactions, not more than --warmup-transactions " +
                         std::to_string(o.warmup_transactions));
  }
  // A log without times (all zero) keeps the nominal spacing.
  const bool timed = std::any_of(out.begin(), out.end(), [](const Txn& t) { return t.end_ns > 0; });
  if (!timed) {
    for (Txn& t : out) t.start_ns = t.end_ns = -1;
  }
  return out;
}

int64_t HistoryPagesNeeded(const DatabaseLayout& layout, int64_t transactions) {
  const int64_t initial = layout.pages(Relation::kHistory);
  return initial + transactions / layout.history_tuples_per_page() + 1;
}

}  // namespace

double GeneratorSummary::shared_hit_ratio() const {
  const uint64_t t = shared_hits + os_hits + misses;
  return t ? static_cast<double>(shared_hits) / static_cast<double>(t) : 0;
}
double GeneratorSummary::os_hit_ratio() const {
  const uint64_t t = shared_hits + os_hits + misses;
  return t ? static_cast<double>(os_hits) / static_cast<double>(t) : 0;
}
double GeneratorSummary::overall_hit_ratio() const {
  const uint64_t t = shared_hits + os_hits + misses;
  return t ? static_cast<double>(shared_hits + os_hits) / static_cast<double>(t) : 0;
}

double GeneratorSummary::StatioHitRatio(bool indexes) const {
  uint64_t hits = 0, fetches = 0;
  for (size_t i = 0; i < relations.size(); ++i) {
    if (IsIndex(static_cast<Relation>(i)) != indexes) continue;
    hits += relations[i].shared_hits;
    fetches += relations[i].fetches();
  }
  return fetches ? static_cast<double>(hits) / static_cast<double>(fetches) : 0;
}

nlohmann::json GeneratorSummary::ToJson() const {
  nlohmann::json by_relation = nlohmann::json::object();
  for (size_t i = 0; i < relations.size(); ++i) {
    const RelationCacheCounts& c = relations[i];
    by_relation[RelationName(static_cast<Relation>(i))] = {{"shared_hits", c.shared_hits},
                                                           {"os_hits", c.os_hits},
                                                           {"misses", c.misses},
                                                           {"extends", c.extends}};
  }
  return {{"transactions", transactions},
          {"skipped_transactions", skipped_transactions},
          {"records", records},
          {"data_reads", data_reads},
          {"data_writes", data_writes},
          {"wal_writes", wal_writes},
          {"fsyncs", fsyncs},
          {"checkpoints", checkpoints},
          {"full_page_images", full_page_images},
          {"bytes_read", bytes_read},
          {"bytes_written", bytes_written},
          {"wal_bytes", wal_bytes},
          {"shared_hits", shared_hits},
          {"os_hits", os_hits},
          {"misses", misses},
          {"non_hot_updates", non_hot_updates},
          {"prunes", prunes},
          {"buffers_checkpoint", buffers_checkpoint},
          {"buffers_clean", buffers_clean},
          {"maxwritten_clean", maxwritten_clean},
          {"buffers_backend", buffers_backend},
          {"buffers_alloc", buffers_alloc},
          {"shared_hit_ratio", shared_hit_ratio()},
          {"os_hit_ratio", os_hit_ratio()},
          {"overall_hit_ratio", overall_hit_ratio()},
          {"heap_statio_hit_ratio", StatioHitRatio(false)},
          {"index_statio_hit_ratio", StatioHitRatio(true)},
          {"relations", by_relation},
          {"host", host.ToJson()}};
}

pgmodel::HostConfig DefaultGeneratorHost() {
  pgmodel::HostConfig h;
  h.wal_cache_region_bytes = 1LL << 30;
  return h;
}

namespace {

// `transactions`: all the generator runs, warm-up included (the files cover their growth).
TraceHeader MakeHeader(const GeneratorOptions& o, const DatabaseLayout* layout,
                       int64_t transactions, bool timed) {
  TraceHeader h;
  for (int i = 0; i < kRelationCount; ++i) {
    const Relation r = static_cast<Relation>(i);
    int64_t pages = std::max<int64_t>(layout->pages(r), 1);
    if (r == Relation::kHistory) pages = HistoryPagesNeeded(*layout, transactions);
    if (r == Relation::kAccounts && o.host.heap_churn) {  // Non-HOT updates append rows.
      pages += transactions / layout->relation(r).tuples_per_page + 1;
    }
    h.files.push_back(
        {static_cast<uint32_t>(i), RelationName(r), IoStream::kData, pages * kPageBytes});
  }
  h.files.push_back({kWalFileId, "wal", IoStream::kWal,
                     RoundUp(o.host.wal_cache_region_bytes, kWalSegmentBytes)});
  nlohmann::json statements = nlohmann::json::array();
  for (int i = 0; i < kStatementCount; ++i)
    statements.push_back(StatementName(static_cast<Statement>(i)));
  const pgmodel::HostConfig& host = o.host;
  h.meta = {{"generator", "pgstorsim trace"},
            {"scale", host.scale},
            {"fillfactor", host.fillfactor},
            {"workload", WorkloadKindName(host.workload)},
            {"seed", o.seed},
            {"clients", o.clients},
            {"transactions", transactions - o.warmup_transactions},
            {"keys_log", o.keys_log_path},
            {"shared_buffers_bytes", host.cache.shared_buffers_pages * kPageBytes},
            {"os_cache_bytes", host.cache.os_cache_pages * kPageBytes},
            {"cache", pgmodel::CacheStartName(host.start)},
            {"readahead_max_bytes", host.cache.readahead_max_pages * kPageBytes},
            {"checkpoint_interval_ns", host.checkpoint_timeout_ns},
            {"checkpoint_wal_bytes", host.checkpoint_wal_bytes},
            {"rate_tps", o.rate_tps},
            {"times", timed ? "keys-log" : "nominal"},
            {"group_commit_window_ns", o.group_commit_window_ns},
            {"heap_churn", host.heap_churn},
            {"statements", statements},
            {"background_client", o.clients},
            {"no_statement", kNoStatement},
            {"database_bytes", layout->total_bytes()}};
  if (o.warmup_transactions > 0) h.meta["warmup_transactions"] = o.warmup_transactions;
  if (host.cache.bgwriter_lru_maxpages > 0) {  // Absent when off: older traces keep their header.
    h.meta["bgwriter_lru_maxpages"] = host.cache.bgwriter_lru_maxpages;
    h.meta["bgwriter_lru_multiplier"] = host.cache.bgwriter_lru_multiplier;
    h.meta["bgwriter_delay_ns"] = host.cache.bgwriter_delay_ms * 1000000;
  }
  return h;
}

// Everything a run needs, loaded once.
class TraceGeneratorImpl : public TraceGenerator {
 public:
  explicit TraceGeneratorImpl(const GeneratorOptions& o) : o_(o) {}

  Status Prepare() {
    Status valid = ValidateOptions(o_);
    if (!valid.ok()) return valid;
    StatusOr<DatabaseLayout> layout = MakeLayout(o_.host);
    if (!layout.ok()) return layout.status();
    layout_ = std::make_unique<DatabaseLayout>(std::move(layout).value());
    StatusOr<std::vector<Txn>> txns = LoadTransactions(o_, &skipped_);
    if (!txns.ok()) return txns.status();
    txns_ = std::move(txns).value();
    // Keys-log client ids may exceed --clients; the background client comes after all.
    for (const Txn& t : txns_) o_.clients = std::max(o_.clients, static_cast<int>(t.client) + 1);
    const bool timed = !txns_.empty() && txns_.front().start_ns >= 0;
    header_ = MakeHeader(o_, layout_.get(), static_cast<int64_t>(txns_.size()), timed);
    return SizeWal();
  }

  const TraceHeader& header() const override { return header_; }

  Status Run(const TraceSink& sink, GeneratorSummary* summary) override {
    *summary = GeneratorSummary();
    summary->skipped_transactions = skipped_;
    return RunGeneratorCore(o_, header_, txns_, sink, summary);
  }

 private:
  // A dry run with an unbounded WAL file finds the WAL extent the trace needs.
  Status SizeWal() {
    TraceFile& wal = header_.files[kWalFileId];
    const int64_t limit = wal.size_bytes;
    wal.size_bytes = INT64_MAX / 2;
    int64_t end = 0;
    GeneratorSummary dry;
    Status s = Run(
        [&end](const TraceRecord& r) {
          if (r.stream == IoStream::kWal) end = std::max(end, r.offset_bytes + r.length_bytes);
          return Status::Ok();
        },
        &dry);
    wal.size_bytes = std::min(limit, std::max(RoundUp(end, kWalSegmentBytes), kWalSegmentBytes));
    return s;
  }

  GeneratorOptions o_;
  std::unique_ptr<DatabaseLayout> layout_;
  std::vector<Txn> txns_;
  uint64_t skipped_ = 0;
  TraceHeader header_;
};

}  // namespace

StatusOr<std::unique_ptr<TraceGenerator>> TraceGenerator::Create(const GeneratorOptions& options) {
  auto generator = std::make_unique<TraceGeneratorImpl>(options);
  Status s = generator->Prepare();
  if (!s.ok()) return s;
  return std::unique_ptr<TraceGenerator>(std::move(generator));
}

StatusOr<TraceHeader> BuildTraceHeader(const GeneratorOptions& options) {
  StatusOr<std::unique_ptr<TraceGenerator>> g = TraceGenerator::Create(options);
  if (!g.ok()) return g.status();
  return (*g)->header();
}

Status GenerateTrace(const GeneratorOptions& options, const TraceSink& sink,
                     GeneratorSummary* summary) {
  StatusOr<std::unique_ptr<TraceGenerator>> g = TraceGenerator::Create(options);
  if (!g.ok()) return g.status();
  return (*g)->Run(sink, summary);
}

}  // namespace pgstorsim
