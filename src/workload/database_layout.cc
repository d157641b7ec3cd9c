#include "workload/database_layout.h"

#include <algorithm>

#include "common/units.h"

namespace pgstorsim {
namespace {

constexpr int64_t kPageHeaderBytes = 24;    // SizeOfPageHeaderData.
constexpr int64_t kLinePointerBytes = 4;    // sizeof(ItemIdData).
constexpr int64_t kTupleHeaderBytes = 23;   // SizeofHeapTupleHeader.
constexpr int64_t kBtreeSpecialBytes = 16;  // sizeof(BTPageOpaqueData).
constexpr int64_t kIndexTupleBytes = 8;     // sizeof(IndexTupleData).
constexpr int kBtreeLeafFillfactor = 90;    // BTREE_DEFAULT_FILLFACTOR.
constexpr int kBtreeInnerFillfactor = 70;   // BTREE_NONLEAF_FILLFACTOR.

int64_t MaxAlign(int64_t n) { return (n + 7) & ~int64_t{7}; }

// MAXALIGNed heap tuple: header (+ null bitmap when a column is NULL) + data.
int64_t HeapTupleBytes(int columns, bool has_null, int64_t data_bytes) {
  const int64_t bitmap = has_null ? (columns + 7) / 8 : 0;
  return MaxAlign(MaxAlign(kTupleHeaderBytes + bitmap) + data_bytes);
}

// Free bytes PageGetFreeSpace() reports on a B-tree page being built with
// `items` line pointers (the P_HIKEY slot is reserved) and `item_bytes` of tuples.
int64_t BtreeFreeBytes(int64_t items, int64_t item_bytes) {
  const int64_t lower = kPageHeaderBytes + kLinePointerBytes * (items + 1);
  const int64_t upper = kPageBytes - kBtreeSpecialBytes - item_bytes;
  return upper - lower - kLinePointerBytes;
}

// Items _bt_buildadd() places on a page before starting the next one; the last of
// them moves to the next page, so a finished page keeps one fewer (plus a high key).
// Inner pages start with a "minus infinity" item that has no key.
int64_t BtreeItemsBeforeSplit(bool leaf) {
  const int64_t tuple = MaxAlign(kIndexTupleBytes + 4);  // int4 key.
  const int fillfactor = leaf ? kBtreeLeafFillfactor : kBtreeInnerFillfactor;
  const int64_t full = kPageBytes * (100 - fillfactor) / 100;
  int64_t items = 0;
  int64_t bytes = 0;
  while (true) {
    const int64_t free = BtreeFreeBytes(items, bytes);
    const int64_t size = (!leaf && items == 0) ? kIndexTupleBytes : tuple;
    if (free < size + (leaf ? 8 : 0) || (free < full && items > 1)) break;
    bytes += size;
    ++items;
  }
  return items;
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Index blocks are stored as int32_t (half the cache footprint of the leaf level for
// the per-lookup path): 2^37 int4 keys need about 2^29 leaves, well below 2^31 pages.
constexpr int64_t kMaxIndexKeys = int64_t{1} << 37;

}  // namespace

int64_t HeapTuplesPerPage(int64_t tuple_bytes, int fillfactor) {
  const int64_t save = kPageBytes * (100 - fillfactor) / 100;
  int64_t n = 0;
  while (true) {
    const int64_t space = kPageBytes - kPageHeaderBytes - n * (tuple_bytes + kLinePointerBytes);
    const int64_t free = space - kLinePointerBytes;
    if (free < tuple_bytes + save && n > 0) break;
    if (free < tuple_bytes) break;
    ++n;
  }
  return n;
}

const char* RelationName(Relation relation) {
  switch (relation) {
    case Relation::kAccounts:
      return "pgbench_accounts";
    case Relation::kAccountsPkey:
      return "pgbench_accounts_pkey";
    case Relation::kTellers:
      return "pgbench_tellers";
    case Relation::kTellersPkey:
      return "pgbench_tellers_pkey";
    case Relation::kBranches:
      return "pgbench_branches";
    case Relation::kBranchesPkey:
      return "pgbench_branches_pkey";
    case Relation::kHistory:
      return "pgbench_history";
  }
  return "?";
}

StatusOr<Relation> ParseRelationName(const std::string& name) {
  for (int i = 0; i < kRelationCount; ++i) {
    const Relation r = static_cast<Relation>(i);
    if (name == RelationName(r)) return r;
  }
  return Status::Error("unknown relation '" + name + "'");
}

bool IsIndex(Relation relation) {
  return relation == Relation::kAccountsPkey || relation == Relation::kTellersPkey ||
         relation == Relation::kBranchesPkey;
}

namespace {

// Pages a level needs for `items`: each page but the last keeps cap - 1 of them.
int64_t PagesFor(int64_t items, int64_t cap) {
  if (items <= cap) return 1;
  return CeilDiv(items - cap, cap - 1) + 1;
}

// The page numbering of a primary key of `keys` int4 keys (nbtsort.c's order).
BtreeNumbering NumberingFor(int64_t keys) {
  return BtreeNumbering(PagesFor(keys, BtreeItemsBeforeSplit(true)), BtreeItemsBeforeSplit(false));
}

BtreeShape ShapeOf(const BtreeNumbering& numbering) {
  BtreeShape shape;
  shape.levels = numbering.levels();
  shape.leaf_pages = numbering.leaves();
  shape.inner_pages = numbering.total_blocks() - 1 - numbering.leaves();
  shape.total_pages = numbering.total_blocks();
  shape.leaf_keys_per_page = BtreeItemsBeforeSplit(true) - 1;
  shape.inner_downlinks_per_page = BtreeItemsBeforeSplit(false) - 1;
  return shape;
}

RelationLayout HeapLayout(int64_t rows, int64_t tuple_bytes, int fillfactor) {
  RelationLayout r;
  r.rows = rows;
  r.tuple_bytes = tuple_bytes;
  r.tuples_per_page = HeapTuplesPerPage(tuple_bytes, fillfactor);
  r.pages = CeilDiv(rows, r.tuples_per_page);
  r.page_hole_bytes =
      kPageBytes - kPageHeaderBytes - r.tuples_per_page * (tuple_bytes + kLinePointerBytes);
  return r;
}

}  // namespace

StatusOr<DatabaseLayout> DatabaseLayout::Create(const LayoutOptions& options) {
  if (options.scale < 1) {
    return Status::Error("--scale must be >= 1 (got " + std::to_string(options.scale) + ")");
  }
  if (options.fillfactor < 10 || options.fillfactor > 100) {
    return Status::Error("--fillfactor must be in [10, 100] (got " +
                         std::to_string(options.fillfactor) + ")");
  }
  DatabaseLayout layout(options);
  const int ff = options.fillfactor;
  layout.relations_[Index(Relation::kAccounts)] =
      HeapLayout(layout.accounts(), HeapTupleBytes(4, false, 12 + 85), ff);
  layout.relations_[Index(Relation::kTellers)] =
      HeapLayout(layout.tellers(), HeapTupleBytes(4, true, 12), ff);
  layout.relations_[Index(Relation::kBranches)] =
      HeapLayout(layout.branches(), HeapTupleBytes(3, true, 8), ff);
  RelationLayout history = HeapLayout(0, HeapTupleBytes(6, true, 24), 100);
  history.pages = 0;
  layout.relations_[Index(Relation::kHistory)] = history;
  const Relation indexes[] = {Relation::kAccountsPkey, Relation::kTellersPkey,
                              Relation::kBranchesPkey};
  const int64_t keys[] = {layout.accounts(), layout.tellers(), layout.branches()};
  for (int i = 0; i < 3; ++i) {
    if (keys[i] > kMaxIndexKeys) {
      return Status::Error("--scale " + std::to_string(options.scale) +
                           " is too large: " + RelationName(indexes[i]) + " would exceed " +
                           std::to_string(kMaxIndexKeys) + " keys");
    }
    layout.btrees_[i] = ShapeOf(NumberingFor(keys[i]));
    if (layout.btrees_[i].levels > kMaxIndexLevels) {
      return Status::Error("--scale " + std::to_string(options.scale) + ": " +
                           RelationName(indexes[i]) + " would need more than " +
                           std::to_string(kMaxIndexLevels) + " B-tree levels");
    }
    RelationLayout& r = layout.relations_[Index(indexes[i])];
    r.rows = keys[i];
    r.pages = layout.btrees_[i].total_pages;
  }
  layout.index_blocks_ = std::make_shared<LazyIndexBlocks>();
  return layout;
}

Status DatabaseLayout::ApplyMeasured(const nlohmann::json& relations) {
  if (!relations.is_object()) return Status::Error("relations: expected an object");
  for (auto it = relations.begin(); it != relations.end(); ++it) {
    StatusOr<Relation> r = ParseRelationName(it.key());
    if (!r.ok()) return r.status().WithContext("relations");
    if (!it.value().is_number_integer() || it.value().get<int64_t>() < 0) {
      return Status::Error("relations." + it.key() + ": expected a page count >= 0");
    }
    RelationLayout& layout = relations_[Index(*r)];
    layout.pages = it.value().get<int64_t>();
    layout.measured = true;
  }
  return Status::Ok();
}

int64_t DatabaseLayout::total_bytes() const {
  int64_t pages = 0;
  for (const RelationLayout& r : relations_) pages += r.pages;
  return pages * kPageBytes;
}

int64_t DatabaseLayout::HeapBlock(Relation heap, int64_t key) const {
  const RelationLayout& r = relations_[Index(heap)];
  const int64_t block = (key - 1) / r.tuples_per_page;
  return r.pages > 0 ? std::min(block, r.pages - 1) : block;
}

std::vector<int64_t> DatabaseLayout::IndexPath(Relation index, int64_t key) const {
  int64_t blocks[kMaxIndexLevels];
  const int levels = IndexPathInto(index, key, blocks);
  return std::vector<int64_t>(blocks, blocks + levels);
}

const DatabaseLayout::IndexBlocks& DatabaseLayout::Blocks(Relation index) const {
  LazyIndexBlocks& lazy = *index_blocks_;
  std::call_once(lazy.once, [&] {
    const int64_t keys[] = {accounts(), tellers(), branches()};
    for (int i = 0; i < 3; ++i) {
      IndexBlocks& blocks = lazy.indexes[i];
      blocks.numbering = NumberingFor(keys[i]);
      blocks.tables.resize(blocks.numbering.levels());
      for (int level = 1; level < blocks.numbering.levels(); ++level) {
        const int64_t pages = blocks.numbering.LevelPages(level);
        if (pages > kTablePages) continue;
        std::vector<int32_t>& table = blocks.tables[level];
        table.reserve(pages);
        for (int64_t page = 0; page < pages; ++page) {
          table.push_back(static_cast<int32_t>(blocks.numbering.InnerBlock(level, page)));
        }
      }
    }
  });
  return lazy.indexes[Index(index) / 2];
}

int64_t DatabaseLayout::IndexBlocks::InnerBlock(int level, int64_t page) const {
  const std::vector<int32_t>& table = tables[level];
  return table.empty() ? numbering.InnerBlock(level, page) : table[page];
}

int64_t DatabaseLayout::LeafBlock(Relation index, int64_t leaf) const {
  return BtreeNumbering::LeafBlockFor(leaf, btree(index).inner_downlinks_per_page);
}

int DatabaseLayout::IndexPathInto(Relation index, int64_t key, int64_t* blocks) const {
  const IndexBlocks& index_blocks = Blocks(index);
  const BtreeShape& shape = btree(index);
  const int n = shape.levels;
  const int64_t last_block = std::max<int64_t>(relations_[Index(index)].pages - 1, 0);
  int64_t position = std::min((key - 1) / shape.leaf_keys_per_page, shape.leaf_pages - 1);
  blocks[n - 1] = std::min<int64_t>(LeafBlock(index, position), last_block);
  for (int level = 1; level < n; ++level) {
    position = std::min(position / shape.inner_downlinks_per_page,
                        index_blocks.numbering.LevelPages(level) - 1);
    blocks[n - 1 - level] = std::min<int64_t>(index_blocks.InnerBlock(level, position), last_block);
  }
  return n;
}

std::vector<int64_t> DatabaseLayout::InnerPages(Relation index) const {
  const IndexBlocks& index_blocks = Blocks(index);
  std::vector<int64_t> out;
  out.reserve(btree(index).inner_pages);
  for (int level = index_blocks.numbering.levels(); level-- > 1;) {
    for (int64_t page = 0; page < index_blocks.numbering.LevelPages(level); ++page) {
      out.push_back(index_blocks.InnerBlock(level, page));
    }
  }
  return out;
}

int64_t DatabaseLayout::history_tuples_per_page() const {
  return relations_[Index(Relation::kHistory)].tuples_per_page;
}

}  // namespace pgstorsim
