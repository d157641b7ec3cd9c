// MeasureResidency and its system side: mincore() over the relation files, the
// pg_buffercache count, and whether the server's files are this machine's.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>

#include "common/units.h"
#include "driver/residency.h"
#include "driver/schema.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

// "ARRAY['pgbench_accounts', ...]::text[]" (the names are constants).
std::string NamesArray() {
  std::string sql = "ARRAY[";
  for (const std::string& n : PgbenchRelationNames()) {
    sql += (sql.size() > 6 ? ",'" : "'") + n + "'";
  }
  return sql + "]::text[]";
}

// Blocks of each relation (pg_relation_size / 8 KiB); -1 for a missing one.
Status FillBlocks(PGconn* conn, std::vector<RelationResidency>* rels) {
  auto rows = QueryRows(
      conn, "SELECT n, pg_relation_size(to_regclass(n)) FROM unnest(" + NamesArray() + ") n");
  if (!rows.ok()) return rows.status();
  for (int i = 0; i < PQntuples(rows->get()); ++i) {
    RelationResidency r;
    r.name = PQgetvalue(rows->get(), i, 0);
    if (!PQgetisnull(rows->get(), i, 1)) {
      r.blocks = std::stoll(PQgetvalue(rows->get(), i, 1)) / kPageBytes;
    }
    rels->push_back(r);
  }
  return Status::Ok();
}

// Shared buffers holding a main-fork block of each relation, in one pass over the
// buffer headers.
Status FillShared(PGconn* conn, std::vector<RelationResidency>* rels) {
  auto rows = QueryRows(
      conn,
      "WITH b AS (SELECT relfilenode, count(*) AS c FROM pg_buffercache WHERE relforknumber = 0 "
      "AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database()) "
      "GROUP BY relfilenode) SELECT n, coalesce(b.c, 0) FROM unnest(" +
          NamesArray() + ") n LEFT JOIN b ON b.relfilenode = pg_relation_filenode(to_regclass(n))");
  if (!rows.ok()) return rows.status();
  for (int i = 0; i < PQntuples(rows->get()); ++i) {
    for (RelationResidency& r : *rels) {
      if (r.name == PQgetvalue(rows->get(), i, 0)) {
        r.shared_buffers = std::stoll(PQgetvalue(rows->get(), i, 1));
      }
    }
  }
  return Status::Ok();
}

// Adds every segment of `base` to `r`.
Status AddFileSegments(const std::string& base, RelationResidency* r) {
  r->os_file_blocks = 0;
  r->os_resident_blocks = 0;
  for (int seg = 0;; ++seg) {
    const std::string path = SegmentPath(base, seg);
    struct stat st;
    if (seg > 0 && stat(path.c_str(), &st) != 0 && errno == ENOENT) return Status::Ok();
    int64_t bytes = 0;
    auto resident = OsResidentBlocks(path, &bytes);
    if (!resident.ok()) return resident.status();
    AddSegment(r, FileBlocks(bytes, kPageBytes), *resident);
  }
}

// The OS figures of every relation, or why they are unknown.
std::string FillOs(PGconn* conn, std::vector<RelationResidency>* rels) {
  auto files = PgbenchRelationFiles(conn);
  if (!files.ok()) return "relation files not found: " + files.status().message();
  std::string note;
  if (LocalPostmasterPid(files->data_dir, &note) == 0) return note;
  for (RelationResidency& r : *rels) {
    for (const RelationFile& f : files->files) {
      if (f.name != r.name) continue;
      Status s = AddFileSegments(f.path, &r);
      if (!s.ok()) return s.message();
      // The files can only have grown since the server gave its size.
      if (r.name == "pgbench_accounts" && r.os_file_blocks < r.blocks) {
        return f.path + " holds " + std::to_string(r.os_file_blocks) + " blocks, the server " +
               std::to_string(r.blocks) + " (another server's files?)";
      }
    }
  }
  return "";
}

}  // namespace

StatusOr<RelationFiles> PgbenchRelationFiles(PGconn* conn) {
  RelationFiles out;
  auto dir = QueryValue(conn, "SHOW data_directory");
  if (!dir.ok()) return dir.status();
  out.data_dir = *dir;
  for (const std::string& rel : PgbenchRelationNames()) {
    auto file = QueryValue(conn, "SELECT pg_relation_filepath('" + rel + "')");
    if (!file.ok()) return file.status();
    out.files.push_back({rel, out.data_dir + "/" + *file});
  }
  return out;
}

int LocalPostmasterPid(const std::string& data_dir, std::string* note) {
  std::ifstream f(data_dir + "/postmaster.pid");
  int pid = 0;
  if (!(f >> pid) || pid <= 0 || kill(pid, 0) != 0) {
    *note = "postmaster.pid in " + data_dir + " not readable here (server not local?)";
    return 0;
  }
  return pid;
}

StatusOr<int64_t> OsResidentBlocks(const std::string& path, int64_t* file_bytes) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open " + path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    Status s = ErrnoError("cannot stat " + path);
    close(fd);
    return s;
  }
  *file_bytes = st.st_size;
  if (st.st_size == 0) {
    close(fd);
    return int64_t{0};
  }
  void* map = mmap(nullptr, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return ErrnoError("cannot map " + path);
  const int64_t page = sysconf(_SC_PAGESIZE);
  std::vector<unsigned char> vec((st.st_size + page - 1) / page);
  const bool ok = mincore(map, st.st_size, vec.data()) == 0;
  Status err = ok ? Status::Ok() : ErrnoError("mincore " + path);
  munmap(map, st.st_size);
  if (!ok) return err;
  return ResidentBlocks(vec, st.st_size, page, kPageBytes);
}

Residency MeasureResidency(PGconn* conn, const std::string& no_buffercache,
                           const std::string& taken) {
  Residency res;
  res.taken = taken;
  Status blocks = FillBlocks(conn, &res.relations);
  if (!blocks.ok()) {
    res.os_note = res.shared_note = "relation sizes: " + blocks.message();
    return res;
  }
  res.shared_note = no_buffercache;
  if (res.shared_note.empty()) {
    Status s = FillShared(conn, &res.relations);
    if (!s.ok()) res.shared_note = "pg_buffercache: " + s.message();
  }
  res.os_note = FillOs(conn, &res.relations);
  if (!res.os_note.empty()) {
    for (RelationResidency& r : res.relations) r.os_file_blocks = r.os_resident_blocks = -1;
  }
  return res;
}

}  // namespace pgstorsim
