// Cache helpers of tpcb.h: the warm-cache page order (WarmGroups, WarmOrder) and the
// miss probabilities derived from it (UniformMissProbability, RelationMissProbability).
#include <algorithm>
#include <vector>

#include "workload/tpcb.h"

namespace pgstorsim {

double UniformMissProbability(int64_t cached_pages, int64_t relation_pages) {
  if (relation_pages <= 0) return 0;
  const double cached =
      std::clamp<double>(static_cast<double>(cached_pages), 0, static_cast<double>(relation_pages));
  return 1.0 - cached / static_cast<double>(relation_pages);
}

namespace {

void AppendBlock(Relation relation, int64_t block, std::vector<PageRange>* ranges) {
  if (!ranges->empty()) {
    PageRange& last = ranges->back();
    if (last.relation == relation && last.first_block + last.pages == block) {
      ++last.pages;
      return;
    }
  }
  ranges->push_back({relation, block, 1});
}

// Leaf blocks of an index in key order (every block that is not the metapage or inner).
void AppendLeaves(const DatabaseLayout& layout, Relation index, std::vector<PageRange>* out) {
  std::vector<int64_t> inner = layout.InnerPages(index);
  std::sort(inner.begin(), inner.end());
  const int64_t total = layout.btree(index).total_pages;
  int64_t block = 1;  // After the metapage: the runs of leaves between inner pages.
  for (int64_t next : inner) {
    if (next > block) out->push_back({index, block, next - block});
    block = next + 1;
  }
  if (total > block) out->push_back({index, block, total - block});
}

}  // namespace

std::vector<WarmGroup> WarmGroups(const DatabaseLayout& layout) {
  auto inner = [&](Relation r) { return layout.btree(r).inner_pages; };
  auto leaves = [&](Relation r) { return layout.btree(r).leaf_pages; };
  return {{Relation::kAccountsPkey, true, inner(Relation::kAccountsPkey)},
          {Relation::kTellersPkey, true, inner(Relation::kTellersPkey)},
          {Relation::kBranchesPkey, true, inner(Relation::kBranchesPkey)},
          {Relation::kTellers, false, layout.pages(Relation::kTellers)},
          {Relation::kTellersPkey, false, leaves(Relation::kTellersPkey)},
          {Relation::kBranches, false, layout.pages(Relation::kBranches)},
          {Relation::kBranchesPkey, false, leaves(Relation::kBranchesPkey)},
          {Relation::kAccountsPkey, false, leaves(Relation::kAccountsPkey)},
          {Relation::kAccounts, false, layout.pages(Relation::kAccounts)}};
}

std::vector<PageRange> WarmOrder(const DatabaseLayout& layout) {
  std::vector<PageRange> out;
  for (const WarmGroup& g : WarmGroups(layout)) {
    if (g.inner) {
      for (int64_t block : layout.InnerPages(g.relation)) AppendBlock(g.relation, block, &out);
    } else if (IsIndex(g.relation)) {
      AppendLeaves(layout, g.relation, &out);
    } else {
      out.push_back({g.relation, 0, g.pages});
    }
  }
  return out;
}

double RelationMissProbability(const DatabaseLayout& layout, Relation relation,
                               int64_t cache_pages) {
  if (relation == Relation::kHistory) return 0;  // Appends hit the last page.
  int64_t remaining = std::max<int64_t>(cache_pages, 0);
  int64_t inner_total = 0, inner_cached = 0, other_total = 0, other_cached = 0;
  for (const WarmGroup& g : WarmGroups(layout)) {  // The cache holds a prefix.
    const int64_t cached = std::min(remaining, g.pages);
    remaining -= cached;
    if (g.relation != relation) continue;
    (g.inner ? inner_total : other_total) += g.pages;
    (g.inner ? inner_cached : other_cached) += cached;
  }
  const double leaf_miss = UniformMissProbability(other_cached, other_total);
  if (!IsIndex(relation)) return leaf_miss;
  const int levels = layout.btree(relation).levels;
  const double inner_miss = UniformMissProbability(inner_cached, inner_total);
  return ((levels - 1) * inner_miss + leaf_miss) / levels;
}

}  // namespace pgstorsim
