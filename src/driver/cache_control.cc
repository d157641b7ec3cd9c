#include "driver/cache_control.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "pg/process.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

const char* const kTables[] = {"pgbench_accounts", "pgbench_branches", "pgbench_tellers"};
const char* const kRelations[] = {
    "pgbench_accounts",      "pgbench_branches",      "pgbench_tellers",     "pgbench_history",
    "pgbench_accounts_pkey", "pgbench_branches_pkey", "pgbench_tellers_pkey"};
constexpr int kServerBackSeconds = 120;

class Actions {
 public:
  Actions(CacheReport* report, const PrintFn& print) : report_(report), print_(print) {}
  void Done(const std::string& what) {
    report_->done.push_back(what);
    if (print_) print_("cache: " + what);
  }
  void NotDone(const std::string& what) {
    report_->not_done.push_back(what);
    if (print_) print_("cache: not done: " + what);
  }
  void Step(const Status& s, const std::string& what) {
    if (s.ok()) {
      Done(what);
    } else {
      NotDone(what + ": " + s.message());
    }
  }

 private:
  CacheReport* report_;
  const PrintFn& print_;
};

// Reads every segment of each pgbench relation's main fork (local, readable files
// only); returns the bytes read.
StatusOr<int64_t> ReadRelationFiles(PGconn* conn) {
  auto dir = QueryValue(conn, "SHOW data_directory");
  if (!dir.ok()) return dir.status();
  std::vector<char> buf(1 << 20);
  int64_t total = 0;
  for (const char* rel : kRelations) {
    auto file = QueryValue(conn, std::string("SELECT pg_relation_filepath('") + rel + "')");
    if (!file.ok()) return file.status();
    for (int seg = 0;; ++seg) {
      std::string p = *dir + "/" + *file + (seg == 0 ? "" : "." + std::to_string(seg));
      int fd = open(p.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        if (seg > 0 && errno == ENOENT) break;
        return ErrnoError("cannot open " + p);
      }
      ssize_t r;
      int64_t off = 0;
      while ((r = pread(fd, buf.data(), buf.size(), off)) > 0) off += r;
      close(fd);
      total += off;
    }
  }
  return total;
}

Status DropOsCaches() {
  if (geteuid() != 0) return Status::Error("not root");
  sync();
  std::ofstream f("/proc/sys/vm/drop_caches");
  f << "3\n";
  f.flush();
  if (!f.good()) return Status::Error(std::string("write failed: ") + std::strerror(errno));
  return Status::Ok();
}

Status WaitForServer(const std::string& conninfo) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kServerBackSeconds);
  while (true) {
    auto conn = Connect(conninfo);
    if (conn.ok()) return Status::Ok();
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Error("server not back after " + std::to_string(kServerBackSeconds) +
                           " s: " + conn.status().message());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

Status Cold(const CacheOptions& o, const std::string& conninfo, LocalCluster* cluster,
            Actions* act) {
  Status plan = CheckCachePlan(o, cluster != nullptr);
  if (!plan.ok()) return plan;
  auto conn = Connect(conninfo);
  if (!conn.ok()) return conn.status();
  act->Step(Exec(conn->get(), "CHECKPOINT"), "CHECKPOINT");
  conn.value().reset();
  if (cluster == nullptr) {
    act->Done("running --cold-command: " + o.cold_command);
    auto r = RunProcess({"/bin/sh", "-c", o.cold_command});
    if (!r.ok()) return r.status().WithContext("--cold-command");
    if (r->exit_code != 0) {
      std::string out = r->output.substr(0, 300);
      return Status::Error("--cold-command exited with " + std::to_string(r->exit_code) + ": " +
                           out);
    }
    Status back = WaitForServer(conninfo);
    if (!back.ok()) return back.WithContext("after --cold-command");
    act->Done("server accepts connections again");
    return Status::Ok();
  }
  Status stop = cluster->Stop();
  if (!stop.ok()) return stop.WithContext("stopping the embedded cluster");
  act->Done("stopped the embedded cluster (empties shared_buffers)");
  act->Step(DropOsCaches(),
            "sync; echo 3 > /proc/sys/vm/drop_caches (this machine hosts the embedded cluster)");
  Status start = cluster->Start();
  if (!start.ok()) return start.WithContext("starting the embedded cluster");
  act->Done("started the embedded cluster");
  return Status::Ok();
}

// pg_prewarm when installed or allowed; false when it was not used.
bool PrewarmWithExtension(PGconn* conn, bool create_extension, Actions* act) {
  auto installed = QueryValue(conn, "SELECT count(*) FROM pg_extension WHERE extname = 'pg_prewarm'");
  if (!installed.ok() || *installed == "0") {
    if (!create_extension) {
      act->Done("pg_prewarm is not installed in this database (--create-extension allows "
                "CREATE EXTENSION pg_prewarm); reading the relations with SQL instead");
      return false;
    }
    Status s = Exec(conn, "CREATE EXTENSION IF NOT EXISTS pg_prewarm");
    act->Step(s, "CREATE EXTENSION pg_prewarm (allowed by --create-extension, or the embedded "
                 "cluster's own database)");
    if (!s.ok()) return false;
  }
  int64_t blocks = 0;
  for (const char* rel : kRelations) {
    auto n = QueryValue(conn, std::string("SELECT pg_prewarm('") + rel + "')");
    if (!n.ok()) {
      act->NotDone(std::string("pg_prewarm('") + rel + "'): " + n.status().message());
      return false;
    }
    blocks += std::stoll(*n);
  }
  act->Done("pg_prewarm: " + std::to_string(blocks) + " blocks of the pgbench relations into "
            "shared_buffers");
  return true;
}

// Index scans of each table: every heap page and primary-key page through shared_buffers.
void PrewarmWithSql(PGconn* conn, Actions* act) {
  Status s = Exec(conn, "SET enable_seqscan = off; SET enable_bitmapscan = off; "
                        "SET enable_indexonlyscan = off");
  const char* keys[] = {"aid", "bid", "tid"};
  for (size_t i = 0; s.ok() && i < 3; ++i) {
    std::string sql = std::string("SELECT count(*), sum(length(filler)) FROM ") + kTables[i] +
                      " WHERE " + keys[i] + " > 0";
    s = Exec(conn, sql);
    act->Step(s, std::string("read ") + kTables[i] + " and its primary key by index scan");
  }
  Exec(conn, "RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_indexonlyscan");
}

Status Warm(const CacheOptions& o, const std::string& conninfo, Actions* act) {
  auto conn = Connect(conninfo);
  if (!conn.ok()) return conn.status();
  auto bytes = ReadRelationFiles(conn->get());
  if (bytes.ok()) {
    act->Done("read " + std::to_string(*bytes) +
              " bytes of the pgbench relation files (OS page cache)");
  } else {
    act->NotDone("reading the relation files into the OS cache: " + bytes.status().message());
  }
  if (!PrewarmWithExtension(conn->get(), o.create_extension, act)) {
    PrewarmWithSql(conn->get(), act);
  }
  return Status::Ok();
}

}  // namespace

Status CheckCachePlan(const CacheOptions& o, bool managed) {
  if (o.mode != CacheMode::kCold || managed || !o.cold_command.empty()) return Status::Ok();
  return Status::Error(
      "--cache cold: this server is not managed by pgstorsim, so pgstorsim cannot empty its "
      "caches; give --cold-command \"CMD\" (e.g. an ssh that restarts it and drops its OS "
      "cache) or use --cache as-is");
}

StatusOr<CacheReport> PrepareCache(const CacheOptions& options, const std::string& conninfo,
                                   LocalCluster* cluster, const PrintFn& print) {
  CacheReport report;
  report.mode = CacheModeName(options.mode);
  Actions act(&report, print);
  Status s = Status::Ok();
  if (options.mode == CacheMode::kCold) s = Cold(options, conninfo, cluster, &act);
  if (options.mode == CacheMode::kWarm) s = Warm(options, conninfo, &act);
  if (!s.ok()) return s;
  return report;
}

}  // namespace pgstorsim
