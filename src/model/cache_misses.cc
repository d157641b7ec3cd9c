#include "model/cache_misses.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>

#include "cache/buffer_cache.h"
#include "common/units.h"
#include "workload/database_layout.h"
#include "workload/tpcb.h"

namespace pgstorsim {

MissModel::MissModel(const Scenario& s, double cache_pages, double database_bytes,
                     double heap_pages, double leaf_pages, double warm_misses)
    : cold_(s.workload.cache == CacheState::kCold),
      cache_pages_(cache_pages),
      pages_per_block_(1),  // Page-level warming: docs/model.md, "Honesty".
      database_bytes_(database_bytes),
      heap_pages_(heap_pages),
      leaf_pages_(leaf_pages),
      warm_misses_(warm_misses) {}

double MissModel::ReadsAfter(double transactions) const {
  if (!cold_) return warm_misses_;
  const double heap_blocks = heap_pages_ / pages_per_block_;
  const double leaf_blocks = leaf_pages_ / pages_per_block_;
  const double leaf_cached = 1 - std::exp(-transactions / leaf_blocks);
  double heap_cached = 1 - std::exp(-transactions / heap_blocks);
  const double leaf_pages_cached = leaf_cached * leaf_pages_;
  if (leaf_pages_cached + heap_cached * heap_pages_ > cache_pages_) {
    heap_cached = std::max(0.0, (cache_pages_ - leaf_pages_cached) / heap_pages_);
  }
  return (1 - leaf_cached) + (1 - heap_cached);
}

StatusOr<std::shared_ptr<const DatabaseLayout>> LayoutForScale(int64_t scale) {
  static std::mutex mu;
  static std::map<int64_t, std::shared_ptr<const DatabaseLayout>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(scale);
  if (it != cache.end()) return it->second;
  LayoutOptions options;
  options.scale = scale;
  auto layout = DatabaseLayout::Create(options);
  if (!layout.ok()) return layout.status().WithContext("workload.scale");
  auto shared = std::make_shared<const DatabaseLayout>(std::move(layout).value());
  cache[scale] = shared;
  return shared;
}

namespace {

// Misses per transaction with a warm cache of `cache_pages`; memoised (WarmOrder is
// costly at large scales and sweeps repeat the same sizes).
double WarmMisses(const DatabaseLayout& layout, int64_t cache_pages) {
  static std::mutex mu;
  static std::map<std::pair<int64_t, int64_t>, double> memo;
  const std::pair<int64_t, int64_t> key(layout.scale(), cache_pages);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
  }
  // RelationMissProbability is per page touched; a pkey lookup touches one page per
  // level of the tree (the inner ones first in the warm order, so mostly cached).
  const double pkey_touches = layout.btree(Relation::kAccountsPkey).levels;
  const double misses =
      RelationMissProbability(layout, Relation::kAccounts, cache_pages) +
      pkey_touches * RelationMissProbability(layout, Relation::kAccountsPkey, cache_pages);
  std::lock_guard<std::mutex> lock(mu);
  memo[key] = misses;
  return misses;
}

}  // namespace

StatusOr<MissModel> MakeMissModel(const Scenario& s, double cache_fraction) {
  auto shared = LayoutForScale(s.workload.scale);
  if (!shared.ok()) return shared.status();
  const DatabaseLayout* layout = shared->get();
  const int64_t shared_pages = s.postgres.shared_buffers_bytes / kPageBytes;
  // host.os_cache given: shared buffers + that page cache (the OS copies of pages hot in
  // shared buffers age out of it, as in the simulator); else cache_fraction x RAM.
  const int64_t fraction_pages =
      s.host.os_cache_bytes > 0
          ? shared_pages + s.host.os_cache_bytes / kPageBytes
          : static_cast<int64_t>(cache_fraction * static_cast<double>(s.host.ram_bytes) /
                                 kPageBytes);
  const int ratio = OsActiveRatio(std::max<int64_t>(0, fraction_pages - shared_pages),
                                  UsesLinuxPageCache(s.filesystem));
  const int64_t cache_pages =
      ReusableCachePages(fraction_pages, shared_pages, layout->total_bytes() / kPageBytes, ratio);
  const double warm = WarmMisses(*layout, cache_pages);
  const BtreeShape& tree = layout->btree(Relation::kAccountsPkey);
  return MissModel(s, static_cast<double>(cache_pages), static_cast<double>(layout->total_bytes()),
                   static_cast<double>(layout->pages(Relation::kAccounts)),
                   static_cast<double>(tree.leaf_pages), warm);
}

StatusOr<double> SharedBufferMisses(const Scenario& s) {
  auto shared = LayoutForScale(s.workload.scale);
  if (!shared.ok()) return shared.status();
  return WarmMisses(**shared, s.postgres.shared_buffers_bytes / kPageBytes);
}

}  // namespace pgstorsim
