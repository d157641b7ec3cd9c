#include "driver/cache_control.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "driver/residency.h"
#include "driver/schema.h"
#include "pg/process.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

const char* const kTables[] = {"pgbench_accounts", "pgbench_branches", "pgbench_tellers"};
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
  void Print(const std::string& line) {
    if (print_) print_("cache: " + line);
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
  auto files = PgbenchRelationFiles(conn);
  if (!files.ok()) return files.status();
  std::vector<char> buf(1 << 20);
  int64_t total = 0;
  for (const RelationFile& file : files->files) {
    for (int seg = 0;; ++seg) {
      std::string p = SegmentPath(file.path, seg);
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

// "" when extension `name` is installed in the database, or was created because
// `create_extension` allows it; else why it cannot be used. `instead` says what is done
// without it.
std::string EnsureExtension(PGconn* conn, const std::string& name, bool create_extension,
                            const std::string& instead, Actions* act) {
  auto installed =
      QueryValue(conn, "SELECT count(*) FROM pg_extension WHERE extname = '" + name + "'");
  if (installed.ok() && *installed != "0") return "";
  if (!create_extension) {
    const std::string why = name +
                            " is not installed in this database (--create-extension "
                            "allows CREATE EXTENSION " +
                            name + ")";
    act->Done(why + "; " + instead);
    return why;
  }
  Status s = Exec(conn, "CREATE EXTENSION IF NOT EXISTS " + name);
  act->Step(s, "CREATE EXTENSION " + name +
                   " (allowed by --create-extension, or the "
                   "embedded cluster's own database)");
  return s.ok() ? "" : "CREATE EXTENSION " + name + ": " + s.message();
}

// pg_prewarm when installed or allowed; false when it was not used.
bool PrewarmWithExtension(PGconn* conn, bool create_extension, Actions* act) {
  if (!EnsureExtension(conn, "pg_prewarm", create_extension,
                       "reading the relations with SQL instead", act)
           .empty()) {
    return false;
  }
  int64_t blocks = 0;
  for (const std::string& rel : PgbenchRelationNames()) {
    auto n = QueryValue(conn, "SELECT pg_prewarm('" + rel + "')");
    if (!n.ok()) {
      act->NotDone("pg_prewarm('" + rel + "'): " + n.status().message());
      return false;
    }
    blocks += std::stoll(*n);
  }
  act->Done("pg_prewarm: " + std::to_string(blocks) +
            " blocks of the pgbench relations into "
            "shared_buffers");
  return true;
}

// Index scans of each table: every heap page and primary-key page through shared_buffers.
void PrewarmWithSql(PGconn* conn, Actions* act) {
  Status s = Exec(conn,
                  "SET enable_seqscan = off; SET enable_bitmapscan = off; "
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

// What the caches hold after the preparation (printed here for warm; a cold run's
// check prints it).
void MeasureAfter(const CacheOptions& o, const std::string& conninfo, Actions* act,
                  CacheReport* report) {
  const std::string taken = "after the " + report->mode + " preparation";
  auto conn = Connect(conninfo);
  if (conn.ok()) {
    const std::string no_buffercache = EnsureExtension(
        conn->get(), "pg_buffercache", o.create_extension, "shared_buffers' contents unknown", act);
    report->residency = MeasureResidency(conn->get(), no_buffercache, taken);
  } else {
    report->residency.taken = taken;
    report->residency.os_note = report->residency.shared_note = conn.status().message();
  }
  report->has_residency = true;
  if (o.mode == CacheMode::kWarm) act->Print(report->residency.Describe());
}

}  // namespace

nlohmann::json CacheReport::ToJson() const {
  nlohmann::json j = {{"mode", mode}, {"done", done}, {"not_done", not_done}};
  if (has_residency) j.update(residency.ToJson());
  return j;
}

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
  if (options.mode != CacheMode::kAsIs) MeasureAfter(options, conninfo, &act, &report);
  return report;
}

}  // namespace pgstorsim
