#include "workload/btree_numbering.h"

namespace pgstorsim {
namespace {

// Pages of a level after `calls` downlinks were added to it: the first page comes with
// the first downlink, the k-th (k >= 1) with downlink 2 + k x downlinks.
int64_t PagesAfterCalls(int64_t calls, int64_t downlinks) {
  if (calls < 1) return 0;
  return 1 + (calls >= 2 ? (calls - 2) / downlinks : 0);
}

// Items on a level's last page after `calls` (>= 1) downlinks: a split leaves 2.
int64_t ItemsAfterCalls(int64_t calls, int64_t downlinks) {
  return calls == 1 ? 1 : 2 + (calls - 2) % downlinks;
}

}  // namespace

int64_t BtreeNumbering::LeafBlockFor(int64_t leaf, int64_t downlinks) {
  // Leaves 1..leaf-1 each added a downlink at level 1; each split at a level (a page
  // after its first) added a downlink one level up.
  int64_t inner = 0;
  for (int64_t calls = leaf - 1; calls >= 1;) {
    const int64_t pages = PagesAfterCalls(calls, downlinks);
    inner += pages;
    calls = pages - 1;
  }
  return 1 + leaf + inner;
}

BtreeNumbering::BtreeNumbering(int64_t leaves, int64_t inner_cap)
    : leaves_(leaves), inner_cap_(inner_cap) {
  const int64_t downlinks = inner_cap - 1;
  // While leaves 1..leaves-1 are added: leaf j's downlink is level 1's call j, and a
  // level's page k >= 1 (a split) is the next level's call k.
  main_pages_.push_back(leaves);
  std::vector<int64_t> items{0};
  int64_t next_block = 1 + leaves;
  for (int64_t calls = leaves - 1; calls >= 1;) {
    const int64_t pages = PagesAfterCalls(calls, downlinks);
    main_pages_.push_back(pages);
    items.push_back(ItemsAfterCalls(calls, downlinks));
    next_block += pages;
    calls = pages - 1;
  }
  final_blocks_.resize(main_pages_.size());
  AddFinalDownlinks(&items, &next_block);
  main_pages_.resize(items.size(), 0);
  level_pages_.resize(items.size());
  for (size_t level = 0; level < items.size(); ++level) {
    level_pages_[level] = main_pages_[level] + static_cast<int64_t>(final_blocks_[level].size());
  }
  total_blocks_ = next_block;
}

// Each level's last page gets its downlink, from the leaves up (a root split adds a
// level, whose page then gets its own).
void BtreeNumbering::AddFinalDownlinks(std::vector<int64_t>* items, int64_t* next_block) {
  for (size_t level = 0; level + 1 < items->size(); ++level) {
    AddDownlink(level + 1, items, next_block);
  }
}

void BtreeNumbering::AddDownlink(size_t level, std::vector<int64_t>* items, int64_t* next_block) {
  if (level == items->size()) {
    final_blocks_.emplace_back(1, (*next_block)++);
    items->push_back(0);
  }
  if ((*items)[level] < inner_cap_) {
    ++(*items)[level];
    return;
  }
  final_blocks_[level].push_back((*next_block)++);
  AddDownlink(level + 1, items, next_block);
  (*items)[level] = 2;  // The moved last item + the new one.
}

int64_t BtreeNumbering::InnerBlock(int level, int64_t page) const {
  if (page >= main_pages_[level]) return final_blocks_[level][page - main_pages_[level]];
  // The leaf whose downlink started the splits that allocated this page: page k of a
  // level came with that level's call c(k) (1, or 2 + k x downlinks), which is page
  // c(k) of the level below; one block per level follows the leaf.
  const int64_t downlinks = inner_cap_ - 1;
  int64_t position = page;
  for (int l = level; l >= 1; --l) position = position == 0 ? 1 : 2 + position * downlinks;
  return LeafBlock(position) + level;
}

}  // namespace pgstorsim
