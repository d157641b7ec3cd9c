#include "driver/cache_control.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "pg/server.h"

namespace pgstorsim {
namespace {

const char* const kRelations[] = {
    "pgbench_accounts",      "pgbench_branches",      "pgbench_tellers",     "pgbench_history",
    "pgbench_accounts_pkey", "pgbench_branches_pkey", "pgbench_tellers_pkey"};

// Absolute paths of the first segment of each relation's main fork.
StatusOr<std::vector<std::string>> RelationFiles(PGconn* conn) {
  auto dir = QueryValue(conn, "SELECT current_setting('data_directory')");
  if (!dir.ok()) return dir.status();
  std::vector<std::string> files;
  for (const char* rel : kRelations) {
    auto path = QueryValue(conn, std::string("SELECT pg_relation_filepath('") + rel + "')");
    if (!path.ok()) return path.status();
    files.push_back(*dir + "/" + *path);
  }
  return files;
}

// Applies `fn(fd)` to every segment (path, path.1, ...); returns bytes covered or error.
template <typename Fn>
StatusOr<int64_t> ForEachSegment(const std::string& path, Fn fn) {
  int64_t bytes = 0;
  for (int seg = 0;; ++seg) {
    std::string p = seg == 0 ? path : path + "." + std::to_string(seg);
    int fd = open(p.c_str(), O_RDONLY);
    if (fd < 0) {
      if (seg > 0 && errno == ENOENT) return bytes;
      return ErrnoError("cannot open " + p);
    }
    bytes += fn(fd);
    close(fd);
  }
}

void FileCacheAction(PGconn* conn, bool evict, CacheReport* report) {
  auto files = RelationFiles(conn);
  if (!files.ok()) {
    report->not_done.push_back("relation files: " + files.status().message());
    return;
  }
  int64_t total = 0;
  for (const std::string& f : *files) {
    auto bytes = ForEachSegment(f, [&](int fd) -> int64_t {
      off_t size = lseek(fd, 0, SEEK_END);
      if (evict) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        return size;
      }
      std::vector<char> buf(1 << 20);
      int64_t n = 0;
      ssize_t r;
      while ((r = pread(fd, buf.data(), buf.size(), n)) > 0) n += r;
      return n;
    });
    if (!bytes.ok()) {
      report->not_done.push_back(std::string(evict ? "posix_fadvise DONTNEED" : "read") + ": " +
                                 bytes.status().message());
      return;
    }
    total += *bytes;
  }
  report->done.push_back(std::string(evict ? "posix_fadvise(DONTNEED) on " : "read ") +
                         std::to_string(total) + " bytes of pgbench relation files");
}

void DropOsCaches(CacheReport* report) {
  if (geteuid() != 0) {
    report->not_done.push_back("/proc/sys/vm/drop_caches: not root");
    return;
  }
  sync();
  std::ofstream f("/proc/sys/vm/drop_caches");
  f << "3\n";
  f.flush();
  if (!f.good()) {
    report->not_done.push_back(std::string("/proc/sys/vm/drop_caches: write failed: ") +
                               std::strerror(errno));
  } else {
    report->done.push_back("sync + echo 3 > /proc/sys/vm/drop_caches");
  }
}

void Prewarm(PGconn* conn, CacheReport* report) {
  Status s = Exec(conn, "CREATE EXTENSION IF NOT EXISTS pg_prewarm");
  int64_t blocks = 0;
  for (const char* rel : kRelations) {
    if (!s.ok()) break;
    auto n = QueryValue(conn, std::string("SELECT pg_prewarm('") + rel + "')");
    if (n.ok()) blocks += std::stoll(*n);
    s = n.status();
  }
  if (s.ok()) {
    report->done.push_back("pg_prewarm: " + std::to_string(blocks) + " blocks into shared_buffers");
    return;
  }
  report->not_done.push_back("pg_prewarm: " + s.message());
  Status scan = Exec(conn, "SELECT count(*), sum(abalance) FROM pgbench_accounts");
  if (scan.ok()) {
    scan = Exec(conn,
                "SET enable_seqscan = off; SELECT count(*) FROM pgbench_accounts WHERE aid > 0; "
                "RESET enable_seqscan");
  }
  (scan.ok() ? report->done : report->not_done)
      .push_back(scan.ok() ? "select-only warm-up: heap and index scan of pgbench_accounts"
                           : "select-only warm-up: " + scan.message());
}

void Cold(const std::string& conninfo, LocalCluster* cluster, CacheReport* report) {
  auto conn = Connect(conninfo);
  if (!conn.ok()) {
    report->not_done.push_back("connect: " + conn.status().message());
    return;
  }
  Status s = Exec(conn->get(), "CHECKPOINT");
  if (s.ok()) {
    report->done.push_back("CHECKPOINT");
  } else {
    report->not_done.push_back("CHECKPOINT: " + s.message());
  }
  if (cluster == nullptr) {
    report->not_done.push_back(
        "server restart: server not managed by pgstorsim, "
        "shared_buffers keep their pages");
    FileCacheAction(conn->get(), /*evict=*/true, report);
    conn.value().reset();
    DropOsCaches(report);
    return;
  }
  auto files_conn = std::move(conn).value();
  Status stop = cluster->Stop();
  if (!stop.ok()) {
    report->not_done.push_back("server stop: " + stop.message());
  }
  files_conn.reset();
  DropOsCaches(report);
  Status start = cluster->Start();
  if (stop.ok() && start.ok()) {
    report->done.push_back("restarted the managed server (shared_buffers emptied)");
  } else if (!start.ok()) {
    report->not_done.push_back("server start: " + start.message());
  }
  auto again = Connect(conninfo);
  if (again.ok()) FileCacheAction(again->get(), /*evict=*/true, report);
}

void Warm(const std::string& conninfo, CacheReport* report) {
  auto conn = Connect(conninfo);
  if (!conn.ok()) {
    report->not_done.push_back("connect: " + conn.status().message());
    return;
  }
  FileCacheAction(conn->get(), /*evict=*/false, report);
  Prewarm(conn->get(), report);
}

}  // namespace

CacheReport PrepareCache(CacheMode mode, const std::string& conninfo, LocalCluster* cluster) {
  CacheReport report;
  report.mode = CacheModeName(mode);
  if (mode == CacheMode::kCold) Cold(conninfo, cluster, &report);
  if (mode == CacheMode::kWarm) Warm(conninfo, &report);
  return report;
}

}  // namespace pgstorsim
