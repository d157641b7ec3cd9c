// DatabaseLayout: the on-disk layout of the pgbench tables of PostgreSQL 15 for a scale
// factor and fillfactor, as `pgbench -i` leaves them (docs/workload-model.md).
//
// Computed by arithmetic from the tuple formats: 8192-byte pages with a 24-byte page
// header, 4-byte line pointers, 24-byte (MAXALIGNed) tuple headers, tuples MAXALIGNed
// to 8 bytes; heap pages are filled until the next tuple would leave less than
// (100 - fillfactor) % of the page free. pgbench_accounts rows are 128 bytes + a line
// pointer, so 61 rows fit a page at fillfactor 100 (scale 1 = 1640 pages). Primary keys
// are bulk-built B-trees (int4 keys, leaves 90 % full, inner pages 70 %; block 0 is the
// metapage). Measured relation sizes (`pgstorsim init` results, sections.relations)
// may override the computed page counts; key->block mappings stay computed and are
// clamped to the measured size.
//
// Units: blocks are 0-based 8 KiB page numbers within a relation's file; keys
// (aid, tid, bid) are 1-based as in pgbench. Thread safety: immutable after Create(),
// safe to share.
#ifndef PGSTORSIM_WORKLOAD_DATABASE_LAYOUT_H_
#define PGSTORSIM_WORKLOAD_DATABASE_LAYOUT_H_

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"
#include "workload/btree_numbering.h"

namespace pgstorsim {

// Relation ids; the numeric value is also the file id in generated traces (the WAL is
// file kWalFileId).
enum class Relation : uint8_t {
  kAccounts = 0,
  kAccountsPkey = 1,
  kTellers = 2,
  kTellersPkey = 3,
  kBranches = 4,
  kBranchesPkey = 5,
  kHistory = 6,
};
inline constexpr int kRelationCount = 7;
inline constexpr uint32_t kWalFileId = 7;

// "pgbench_accounts", "pgbench_accounts_pkey", ..., "pgbench_history".
const char* RelationName(Relation relation);
StatusOr<Relation> ParseRelationName(const std::string& name);
bool IsIndex(Relation relation);

inline constexpr int64_t kAccountsPerScale = 100000;
inline constexpr int64_t kTellersPerScale = 10;
inline constexpr int64_t kBranchesPerScale = 1;

struct LayoutOptions {
  int64_t scale = 1;     // pgbench -s; REQUIRES >= 1.
  int fillfactor = 100;  // pgbench -F, for accounts/tellers/branches; 10..100.
};

// Shape of a bulk-built B-tree. Levels are numbered from the leaves (0) up to the root.
struct BtreeShape {
  int levels = 1;  // Root..leaf path length (1 = root is a leaf).
  int64_t leaf_pages = 1;
  int64_t inner_pages = 0;               // All non-leaf pages, root included.
  int64_t total_pages = 2;               // leaf + inner + the metapage.
  int64_t leaf_keys_per_page = 0;        // Data keys on a full (non-rightmost) leaf.
  int64_t inner_downlinks_per_page = 0;  // Downlinks on a full (non-rightmost) inner page.
};

// Per-relation figures.
struct RelationLayout {
  int64_t rows = 0;             // Rows (heap) or keys (index) after init.
  int64_t pages = 0;            // Pages after init (computed or measured).
  int64_t tuple_bytes = 0;      // MAXALIGNed heap tuple incl. header (heap only).
  int64_t tuples_per_page = 0;  // Heap rows per page as loaded (heap only).
  int64_t page_hole_bytes = 0;  // Free bytes in a full page as loaded (heap only).
  bool measured = false;        // pages came from a measured relation size.
};

class DatabaseLayout {
 public:
  // Validates options (scale >= 1, fillfactor in [10, 100]); errors name the option.
  static StatusOr<DatabaseLayout> Create(const LayoutOptions& options);

  // Overrides page counts with measured sizes: {"pgbench_accounts": pages, ...}
  // (unknown names and non-integer or negative values are errors naming the key).
  Status ApplyMeasured(const nlohmann::json& relations);

  int64_t scale() const { return options_.scale; }
  int fillfactor() const { return options_.fillfactor; }
  int64_t accounts() const { return options_.scale * kAccountsPerScale; }
  int64_t tellers() const { return options_.scale * kTellersPerScale; }
  int64_t branches() const { return options_.scale * kBranchesPerScale; }

  const RelationLayout& relation(Relation r) const { return relations_[Index(r)]; }
  int64_t pages(Relation r) const { return relations_[Index(r)].pages; }
  // Sum of all relation pages times 8192 (history at its initial, empty size).
  int64_t total_bytes() const;
  // REQUIRES: IsIndex(index).
  const BtreeShape& btree(Relation index) const { return btrees_[Index(index) / 2]; }

  // Heap block holding the row with this key after init. REQUIRES: 1 <= key <= rows.
  int64_t HeapBlock(Relation heap, int64_t key) const;
  // Blocks of the index pages visited looking up `key`, root first, leaf last
  // (btree(index).levels entries). REQUIRES: IsIndex(index), 1 <= key <= keys.
  std::vector<int64_t> IndexPath(Relation index, int64_t key) const;
  // The same path written to blocks[0 .. levels-1] without allocating; returns
  // btree(index).levels (<= kMaxIndexLevels, checked by Create()).
  static constexpr int kMaxIndexLevels = 16;
  int IndexPathInto(Relation index, int64_t key, int64_t* blocks) const;
  // Block of the `leaf`-th leaf (0-based, key order). REQUIRES: IsIndex(index),
  // 0 <= leaf < btree(index).leaf_pages. O(levels), no allocation.
  int64_t LeafBlock(Relation index, int64_t leaf) const;
  // Block numbers of all inner (non-leaf) pages of an index, root first.
  std::vector<int64_t> InnerPages(Relation index) const;

  // History rows (pgbench_history, filler NULL) per heap page.
  int64_t history_tuples_per_page() const;

 private:
  explicit DatabaseLayout(const LayoutOptions& options) : options_(options) {}
  static int Index(Relation r) { return static_cast<int>(r); }

  LayoutOptions options_;
  std::array<RelationLayout, kRelationCount> relations_{};
  std::array<BtreeShape, 3> btrees_{};  // accounts, tellers, branches pkeys.
  // An index's page numbering and, for each inner level of at most kTablePages pages,
  // the block of each page in key order (tables[0], the leaves, and larger levels stay
  // empty: their blocks are computed per lookup, so the cost does not grow with scale).
  static constexpr int64_t kTablePages = 4096;
  struct IndexBlocks {
    BtreeNumbering numbering;
    std::vector<std::vector<int32_t>> tables;
    int64_t InnerBlock(int level, int64_t page) const;
  };
  // The accounts, tellers and branches pkeys' numbering, built on first use
  // (IndexPath, InnerPages; the shapes and LeafBlock need none), once, thread-safely;
  // shared so copies of a layout are cheap.
  struct LazyIndexBlocks {
    std::once_flag once;
    std::array<IndexBlocks, 3> indexes;
  };
  const IndexBlocks& Blocks(Relation index) const;
  std::shared_ptr<LazyIndexBlocks> index_blocks_;
};

// Heap arithmetic, exposed for tests: rows of `tuple_bytes` (MAXALIGNed) that
// PostgreSQL puts on one page at `fillfactor`.
int64_t HeapTuplesPerPage(int64_t tuple_bytes, int fillfactor);

}  // namespace pgstorsim

#endif  // PGSTORSIM_WORKLOAD_DATABASE_LAYOUT_H_
