// Host's configuration checks, counts, construction and initial cache fill.
#include "pgmodel/host.h"

#include <algorithm>

namespace pgstorsim::pgmodel {

const char* CacheStartName(CacheStart start) {
  switch (start) {
    case CacheStart::kCold:
      return "cold";
    case CacheStart::kWarm:
      return "warm";
    case CacheStart::kPgPrewarm:
      break;
  }
  return "pg-prewarm";
}

Status ValidateHostConfig(const HostConfig& c) {
  if (c.scale < 1) return Status::Error("workload.scale: must be >= 1");
  if (c.checkpoint_timeout_ns <= 0)
    return Status::Error("postgres.checkpoint_timeout: must be positive");
  if (c.checkpoint_wal_bytes <= 0) return Status::Error("checkpoint WAL volume: must be positive");
  if (!(c.checkpoint_completion_target >= 0 && c.checkpoint_completion_target <= 1))
    return Status::Error("postgres.checkpoint_completion_target: must be in [0, 1]");
  if (c.wal_cache_region_bytes < 0) return Status::Error("WAL cache region: must be >= 0");
  return Status::Ok();
}

nlohmann::json HostCounts::ToJson() const {
  const double n = transactions > 0 ? static_cast<double>(transactions) : 1.0;
  auto per = [n](double x) { return x / n; };
  return {{"transactions", transactions},
          {"read_ios", read_ios},
          {"pages_read", pages_read},
          {"eviction_writes", eviction_writes},
          {"extend_writes", extend_writes},
          {"checkpoint_writes", checkpoint_writes},
          {"bgwriter_writes", bgwriter_writes},
          {"buffers_dirtied", buffers_dirtied},
          {"wal_record_bytes", wal_record_bytes},
          {"wal_lsn_bytes", wal_lsn_bytes},
          {"full_page_images", full_page_images},
          {"full_page_image_bytes", full_page_image_bytes},
          {"checkpoints", checkpoints},
          {"non_hot_updates", non_hot_updates},
          {"prunes", prunes},
          {"per_transaction",
           {{"page_reads", per(static_cast<double>(read_ios))},
            {"page_writes", per(static_cast<double>(page_writes()))},
            {"checkpoint_writes", per(static_cast<double>(checkpoint_writes))},
            {"wal_bytes", per(static_cast<double>(wal_record_bytes))},
            {"full_page_images", per(static_cast<double>(full_page_images))}}}};
}

StatusOr<std::unique_ptr<Host>> Host::Create(const HostConfig& config) {
  Status valid = ValidateHostConfig(config);
  if (!valid.ok()) return valid;
  std::unique_ptr<Host> host(new Host(config));
  Status s = host->Init();
  if (!s.ok()) return s;
  return host;
}

Status Host::Init() {
  StatusOr<DatabaseLayout> layout = DatabaseLayout::Create({config_.scale, config_.fillfactor});
  if (!layout.ok()) return layout.status().WithContext("workload");
  layout_ = std::make_unique<DatabaseLayout>(std::move(layout).value());
  if (!config_.measured_relations.is_null()) {
    Status s = layout_->ApplyMeasured(config_.measured_relations);
    if (!s.ok()) return s.WithContext("measured relations");
  }
  model_ = std::make_unique<TpcbModel>(layout_.get(), config_.workload);
  churn_ = std::make_unique<HeapChurn>(layout_.get());
  StatusOr<std::unique_ptr<BufferCache>> cache = BufferCache::Create(config_.cache);
  if (!cache.ok()) return cache.status().WithContext("postgres.shared_buffers");
  cache_ = std::move(cache).value();
  for (int r = 0; r < kRelationCount; ++r) {
    relation_pages_[r] = layout_->pages(static_cast<Relation>(r));
  }
  history_rows_ = layout_->pages(Relation::kHistory) * layout_->history_tuples_per_page();
  const std::vector<Statement>& script = model_->statements();
  auto runs = [&](Statement s) {
    return std::find(script.begin(), script.end(), s) != script.end();
  };
  inserts_history_row_ = runs(Statement::kInsertHistory);
  updates_accounts_ = runs(Statement::kUpdateAccounts);
  skip_growth_known_ = true;
  for (int r = 0; r < kRelationCount; ++r) {
    if (static_cast<Relation>(r) != Relation::kHistory && relation_pages_[r] <= 0) {
      skip_growth_known_ = false;
    }
  }
  if (config_.start == CacheStart::kPgPrewarm) {
    PgPrewarm();
  } else if (config_.start == CacheStart::kWarm) {
    std::vector<PageSpan> spans;
    for (const PageRange& r : WarmOrder(*layout_)) {
      spans.push_back({static_cast<uint32_t>(r.relation), r.first_block, r.pages});
    }
    cache_->Prewarm(spans);
  }
  cache_->ResetStats();
  return Status::Ok();
}

// What `pgstorsim run --cache warm` does (driver/cache_control.cc).
void Host::PgPrewarm() {
  constexpr Relation kOrder[] = {
      Relation::kAccounts,     Relation::kBranches,     Relation::kTellers,    Relation::kHistory,
      Relation::kAccountsPkey, Relation::kBranchesPkey, Relation::kTellersPkey};
  std::vector<CacheIo> ios;
  for (Relation r : kOrder) {
    for (int64_t b = 0; b < layout_->pages(r); ++b) {
      ios.clear();
      cache_->Touch({static_cast<uint32_t>(r), b}, false, &ios);
    }
  }
}

const HostCounts& Host::counts() const {
  counts_.buffers_dirtied = cache_->stats().buffers_dirtied;
  counts_.wal_record_bytes = wal_.record_bytes() - record_bytes_at_reset_;
  counts_.wal_lsn_bytes = wal_.insert_lsn() - lsn_at_reset_;
  return counts_;
}

void Host::ResetCounts() {
  counts_ = HostCounts();
  cache_->ResetStats();
  lsn_at_reset_ = wal_.insert_lsn();
  record_bytes_at_reset_ = wal_.record_bytes();
}

}  // namespace pgstorsim::pgmodel
