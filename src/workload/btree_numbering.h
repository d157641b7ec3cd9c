// BtreeNumbering: the block number of every page of a bulk-built B-tree, computed
// from nbtsort.c's allocation order without a list of pages.
//
// Allocation order (PostgreSQL's _bt_buildadd): block 0 is the metapage, the first
// leaf is block 1; when a page fills, its right sibling is allocated, then (if the
// level has no page yet) the parent, then the old page's downlink is added to the
// parent (recursively). At the end each level's last page gets its downlink, from the
// leaves up; the top level's single page is the root. An inner page takes `inner_cap`
// items before it splits, keeping cap - 1 downlinks (the last item moves to the new
// page).
//
// Pages allocated while leaves are added (all but at most a few per level) follow from
// their position: the page's chain of splits starts at one leaf, and its block is that
// leaf's block + its level. The pages the final downlinks allocate are counted once at
// construction. Costs: O(levels^2) to construct, O(levels) a leaf's block, O(levels^2)
// an inner page's; no allocation per page. Thread safety: immutable after
// construction.
#ifndef PGSTORSIM_WORKLOAD_BTREE_NUMBERING_H_
#define PGSTORSIM_WORKLOAD_BTREE_NUMBERING_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgstorsim {

class BtreeNumbering {
 public:
  // A single leaf (the root), no inner pages.
  BtreeNumbering() : BtreeNumbering(1, 3) {}
  // REQUIRES: leaves >= 1, inner_cap >= 3.
  BtreeNumbering(int64_t leaves, int64_t inner_cap);

  // Levels from the leaves (0) to the root; 1 when the root is a leaf.
  int levels() const { return static_cast<int>(level_pages_.size()); }
  int64_t leaves() const { return leaves_; }
  // Blocks of the whole index: the metapage, the leaves and the inner pages.
  int64_t total_blocks() const { return total_blocks_; }
  // Pages on `level`. REQUIRES: 0 <= level < levels().
  int64_t LevelPages(int level) const { return level_pages_[level]; }

  // Block of the `leaf`-th leaf (0-based, key order). REQUIRES: 0 <= leaf < leaves().
  int64_t LeafBlock(int64_t leaf) const { return LeafBlockFor(leaf, inner_cap_ - 1); }
  // Block of the `page`-th page (key order) of inner level `level`.
  // REQUIRES: 1 <= level < levels(), 0 <= page < LevelPages(level).
  int64_t InnerBlock(int level, int64_t page) const;

  // Block of leaf `leaf` in a tree whose inner pages keep `downlinks` (inner_cap - 1)
  // each: 1 + leaf + the inner pages allocated before it. O(levels).
  static int64_t LeafBlockFor(int64_t leaf, int64_t downlinks);

 private:
  void AddFinalDownlinks(std::vector<int64_t>* items, int64_t* next_block);
  void AddDownlink(size_t level, std::vector<int64_t>* items, int64_t* next_block);

  int64_t leaves_;
  int64_t inner_cap_;
  int64_t total_blocks_ = 0;
  std::vector<int64_t> level_pages_;  // All pages per level ([0]: the leaves).
  std::vector<int64_t> main_pages_;   // Per level, the pages allocated while leaves are added.
  std::vector<std::vector<int64_t>> final_blocks_;  // Per level, the final downlinks' pages.
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_BTREE_NUMBERING_H_
