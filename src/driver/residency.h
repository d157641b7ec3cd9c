// How much of each pgbench relation the caches hold at one moment: the fraction of its
// 8 KiB blocks that shared_buffers holds (pg_buffercache) and that the OS page cache
// holds (mincore over the relation's files). Each fraction is also the hit ratio of a
// first touch of a uniformly random block of the relation, which is how cold a cache
// is; PostgreSQL's own hit counters cannot say that (a TPC-B transaction touches its
// account page three times).
//
// OS residency: for a server whose data directory is readable here, each segment of
// the relation's main fork (<data_directory>/<pg_relation_filepath>[.N]) is mapped
// read-only (PROT_READ, MAP_SHARED) and given to mincore(); nothing reads or writes
// the files' contents. A block counts as resident when all its OS pages are.
// Shared residency: the shared buffers holding a main-fork block of the relation in
// this database (pg_buffercache) / the relation's blocks (pg_relation_size / 8 KiB).
// Either is unknown (-1, with a note saying why) when it cannot be measured.
// Thread safety: values; MeasureResidency uses `conn` from one thread.
#ifndef PGSTORSIM_DRIVER_RESIDENCY_H_
#define PGSTORSIM_DRIVER_RESIDENCY_H_

#include <libpq-fe.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/status.h"

namespace pgstorsim {

// Segment `segment` (0-based) of a relation file: `base`, `base`.1, `base`.2, ...
std::string SegmentPath(const std::string& base, int segment);

// The main-fork base path of each relation of PgbenchRelationNames() (schema.h), absolute
// (<data_directory>/<pg_relation_filepath>), as the server names them; the files are
// on this machine only when the server is (LocalPostmasterPid).
struct RelationFile {
  std::string name;
  std::string path;
};
struct RelationFiles {
  std::string data_dir;
  std::vector<RelationFile> files;
};
StatusOr<RelationFiles> PgbenchRelationFiles(PGconn* conn);

// The live postmaster of <data_dir>/postmaster.pid on this machine, 0 when there is
// none (`*note` says why: the server is not local, or its files are not readable).
int LocalPostmasterPid(const std::string& data_dir, std::string* note);

// A ratio as "0.412", "unknown" when < 0; a figure as JSON, null when < 0 (unknown).
std::string RatioText(double ratio);
nlohmann::json KnownOrNull(double value);

// Pure: blocks of `block_bytes` in a file of `file_bytes` (the last one may be short),
// and how many of them have every OS page resident according to `page_resident`
// (mincore's vector, one entry per OS page of `os_page_bytes`; bit 0 = resident).
int64_t FileBlocks(int64_t file_bytes, int64_t block_bytes);
int64_t ResidentBlocks(const std::vector<unsigned char>& page_resident, int64_t file_bytes,
                       int64_t os_page_bytes, int64_t block_bytes);

// resident / total; -1 when either is unknown (< 0) or total is 0.
double ResidentFraction(int64_t resident, int64_t total);

struct RelationResidency {
  std::string name;
  int64_t blocks = -1;              // pg_relation_size / 8 KiB; -1 unknown.
  int64_t shared_buffers = -1;      // Shared buffers holding one of its blocks; -1 unknown.
  int64_t os_file_blocks = -1;      // 8 KiB blocks in its files (all segments); -1 unknown.
  int64_t os_resident_blocks = -1;  // Of those, fully in the OS page cache; -1 unknown.
};

struct Residency {
  std::string taken;  // When, e.g. "after the cold preparation, before the first transaction".
  std::vector<RelationResidency> relations;
  std::string os_note;      // Why the OS figures are unknown ("" when known).
  std::string shared_note;  // Why the shared_buffers figures are unknown.

  // Over pgbench_accounts and pgbench_accounts_pkey; -1 unknown.
  double AccountsOsFraction() const;
  double AccountsSharedFraction() const;
  // Over all pgbench relations; -1 unknown.
  double TotalOsFraction() const;
  double TotalSharedFraction() const;
  // "pgbench_accounts (heap + primary key) at start: shared_buffers held 0.0 % of its
  // blocks, the OS page cache 0.4 % of its files (first-touch hit ratios 0.000 and 0.004)".
  std::string Describe() const;
  // Keys: accounts_os_resident_fraction, accounts_shared_resident_fraction,
  // os_resident_fraction, shared_resident_fraction (null = unknown), residency_taken,
  // os_residency_note, shared_residency_note, relations_residency {name: {...}}.
  nlohmann::json ToJson() const;
};

// Adds one segment's blocks to `r`, whose OS counts start at 0 (a resident count < 0,
// unknown, makes the relation's unknown).
void AddSegment(RelationResidency* r, int64_t file_blocks, int64_t resident_blocks);

// The 8 KiB blocks of the file at `path` fully in the OS page cache (mincore); the
// file's size in `*file_bytes`. Errors: the file cannot be opened, mapped or queried.
StatusOr<int64_t> OsResidentBlocks(const std::string& path, int64_t* file_bytes);

// Measures both caches for every pgbench relation through `conn`. `no_buffercache` is
// "" when pg_buffercache is installed in the database, else why not (the shared
// figures are then unknown for that reason; the caller decides whether the extension
// may be created). OS figures need the server's relation files on this machine.
Residency MeasureResidency(PGconn* conn, const std::string& no_buffercache,
                           const std::string& taken);

}  // namespace pgstorsim

#endif  // PGSTORSIM_DRIVER_RESIDENCY_H_
