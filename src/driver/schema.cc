#include "driver/schema.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "pg/server.h"
#include "workload/database_layout.h"

namespace pgstorsim {
namespace {

constexpr int kBigintScaleThreshold = 20000;  // pgbench's SCALE_32BIT_THRESHOLD.
constexpr size_t kCopyChunkBytes = 256 * 1024;

struct TableDdl {
  const char* name;
  const char* columns_int;
  const char* columns_bigint;
  bool fillfactor;
};

const TableDdl kTables[] = {
    {"pgbench_history", "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
     "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)", false},
    {"pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)",
     "tid int not null,bid int,tbalance int,filler char(84)", true},
    {"pgbench_accounts", "aid    int not null,bid int,abalance int,filler char(84)",
     "aid bigint not null,bid int,abalance int,filler char(84)", true},
    {"pgbench_branches", "bid int not null,bbalance int,filler char(88)",
     "bid int not null,bbalance int,filler char(88)", true},
};

Status CreateTables(PGconn* conn, const InitOptions& o) {
  Status s = Exec(conn,
                  "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, "
                  "pgbench_history, pgbench_tellers");
  for (const TableDdl& t : kTables) {
    if (!s.ok()) return s;
    std::string sql = std::string("CREATE") + (o.unlogged ? " UNLOGGED" : "") + " TABLE " + t.name +
                      "(" + (o.scale >= kBigintScaleThreshold ? t.columns_bigint : t.columns_int) +
                      ")";
    if (t.fillfactor) sql += " WITH (fillfactor=" + std::to_string(o.fillfactor) + ")";
    s = Exec(conn, sql);
  }
  return s;
}

// Row progress of a long COPY in pgbench -q's form, every kProgressSeconds.
class RowProgress {
 public:
  RowProgress(const ProgressFn& progress, int64_t rows)
      : progress_(progress), rows_(rows), start_(std::chrono::steady_clock::now()) {}
  void At(int64_t done) {
    if (!progress_) return;
    double elapsed = Elapsed();
    if (done < rows_ && elapsed < next_s_) return;
    if (done == rows_ && next_s_ == kProgressSeconds) return;  // Short: no line at all.
    next_s_ = elapsed + kProgressSeconds;
    double remaining = done > 0 ? elapsed * static_cast<double>(rows_ - done) / done : 0;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "%lld of %lld tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)",
                  static_cast<long long>(done), static_cast<long long>(rows_),
                  static_cast<int>(100 * done / rows_), elapsed, remaining);
    progress_(buf);
  }

 private:
  static constexpr double kProgressSeconds = 5.0;
  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  const ProgressFn& progress_;
  int64_t rows_;
  std::chrono::steady_clock::time_point start_;
  double next_s_ = kProgressSeconds;
};

// Streams `rows` lines produced by `line(i, buf)` (i from 1) into COPY <table>.
template <typename LineFn>
Status CopyRows(PGconn* conn, const std::string& table, int64_t rows, LineFn line,
                const ProgressFn& progress = nullptr) {
  RowProgress shown(progress, rows);
  PGresult* res = PQexec(conn, ("COPY " + table + " FROM STDIN WITH (FREEZE ON)").c_str());
  bool ok = PQresultStatus(res) == PGRES_COPY_IN;
  std::string err = PQresultErrorMessage(res);
  PQclear(res);
  if (!ok) return Status::Error("COPY " + table + ": " + err);
  std::string buf;
  buf.reserve(kCopyChunkBytes + 128);
  char tmp[96];
  for (int64_t i = 1; i <= rows; ++i) {
    buf.append(tmp, line(i, tmp));
    if (buf.size() >= kCopyChunkBytes || i == rows) {
      if (PQputCopyData(conn, buf.data(), static_cast<int>(buf.size())) != 1) {
        return Status::Error("COPY " + table + ": " + PQerrorMessage(conn));
      }
      buf.clear();
      shown.At(i);
    }
  }
  if (PQputCopyEnd(conn, nullptr) != 1)
    return Status::Error("COPY end: " + std::string(PQerrorMessage(conn)));
  Status out = Status::Ok();
  while ((res = PQgetResult(conn)) != nullptr) {
    if (PQresultStatus(res) != PGRES_COMMAND_OK) {
      out = Status::Error("COPY " + table + ": " + PQresultErrorMessage(res));
    }
    PQclear(res);
  }
  return out;
}

Status LoadData(PGconn* conn, int scale, const ProgressFn& progress) {
  Status s = Exec(conn, "BEGIN");
  if (s.ok()) {
    s = Exec(conn, "TRUNCATE pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers");
  }
  if (s.ok()) {
    s = CopyRows(conn, "pgbench_branches", kBranchesPerScale * scale, [](int64_t i, char* b) {
      return std::snprintf(b, 96, "%lld\t0\t\\N\n", static_cast<long long>(i));
    });
  }
  if (s.ok()) {
    s = CopyRows(conn, "pgbench_tellers", kTellersPerScale * scale, [](int64_t i, char* b) {
      return std::snprintf(b, 96, "%lld\t%lld\t0\t\\N\n", static_cast<long long>(i),
                           static_cast<long long>((i - 1) / kTellersPerScale + 1));
    });
  }
  if (s.ok()) {
    s = CopyRows(
        conn, "pgbench_accounts", kAccountsPerScale * scale,
        [](int64_t i, char* b) {
          return std::snprintf(b, 96, "%lld\t%lld\t0\t\n", static_cast<long long>(i),
                               static_cast<long long>((i - 1) / kAccountsPerScale + 1));
        },
        progress);
  }
  if (!s.ok()) {
    Exec(conn, "ROLLBACK");
    return s;
  }
  return Exec(conn, "COMMIT");
}

}  // namespace

Status ValidateInitOptions(const InitOptions& o) {
  if (o.scale < 1)
    return Status::Error("--scale must be at least 1 (got " + std::to_string(o.scale) + ")");
  if (o.fillfactor < 10 || o.fillfactor > 100) {
    return Status::Error("--fillfactor must be between 10 and 100 (got " +
                         std::to_string(o.fillfactor) + ")");
  }
  return Status::Ok();
}

Status CreateAndLoadPgbenchTables(PGconn* conn, const InitOptions& options,
                                  const ProgressFn& progress, nlohmann::json* step_seconds) {
  auto step = [&](const char* name, const std::string& message, const auto& fn) {
    if (progress) progress(message);
    auto t0 = std::chrono::steady_clock::now();
    Status s = fn();
    if (step_seconds != nullptr) {
      (*step_seconds)[name] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    return s;
  };
  Exec(conn, "SET client_min_messages = warning");
  Status s = step("create_tables", "dropping old tables and creating tables...",
                  [&] { return CreateTables(conn, options); });
  if (!s.ok()) return s;
  s = step("generate",
           "generating data (client-side, COPY) for scale " + std::to_string(options.scale) + "...",
           [&] { return LoadData(conn, options.scale, progress); });
  if (!s.ok()) return s;
  s = step("vacuum", "vacuuming...", [&] {
    for (const char* t :
         {"pgbench_branches", "pgbench_tellers", "pgbench_accounts", "pgbench_history"}) {
      Status v = Exec(conn, std::string("VACUUM ANALYZE ") + t);
      if (!v.ok()) return v;
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return step("primary_keys", "creating primary keys...", [&] {
    for (const char* pk :
         {"pgbench_branches ADD PRIMARY KEY (bid)", "pgbench_tellers ADD PRIMARY KEY (tid)",
          "pgbench_accounts ADD PRIMARY KEY (aid)"}) {
      Status k = Exec(conn, std::string("ALTER TABLE ") + pk);
      if (!k.ok()) return k;
    }
    return Status::Ok();
  });
}

std::vector<PgbenchTableColumns> PgbenchTables() {
  std::vector<PgbenchTableColumns> out;
  for (const TableDdl& t : kTables) {
    PgbenchTableColumns table{t.name, {}};
    const std::string ddl = t.columns_int;
    for (size_t pos = 0; pos < ddl.size();) {
      const size_t end = std::min(ddl.find(',', pos), ddl.size());
      table.columns.push_back(ddl.substr(pos, ddl.find(' ', pos) - pos));
      pos = end + 1;
    }
    out.push_back(table);
  }
  return out;
}

std::vector<std::string> PgbenchRelationNames() {
  std::vector<std::string> names;
  for (int i = 0; i < kRelationCount; ++i) names.push_back(RelationName(Relation(i)));
  return names;
}

StatusOr<nlohmann::json> RelationSizesPages(PGconn* conn) {
  nlohmann::json sizes = nlohmann::json::object();
  for (const std::string& rel : PgbenchRelationNames()) {
    auto bytes = QueryValue(conn, "SELECT pg_relation_size('" + rel + "')");
    if (!bytes.ok()) return bytes.status();
    sizes[rel] = std::stoll(*bytes) / 8192;
  }
  return sizes;
}

StatusOr<int> DetectScale(PGconn* conn) {
  auto exists = QueryValue(conn,
                           "SELECT to_regclass('pgbench_branches') IS NOT NULL "
                           "AND to_regclass('pgbench_accounts') IS NOT NULL "
                           "AND to_regclass('pgbench_tellers') IS NOT NULL "
                           "AND to_regclass('pgbench_history') IS NOT NULL");
  if (!exists.ok()) return exists.status();
  if (*exists != "t") {
    return Status::Error("pgbench tables are missing in this database; run `pgstorsim init` first");
  }
  auto count = QueryValue(conn, "SELECT count(*) FROM pgbench_branches");
  if (!count.ok()) return count.status();
  int scale = std::stoi(*count);
  if (scale < 1) return Status::Error("pgbench_branches is empty; run `pgstorsim init` again");
  return scale;
}

std::vector<std::string> PreRunVacuum(PGconn* conn) {
  std::vector<std::string> failures;
  for (const char* sql :
       {"VACUUM pgbench_branches", "VACUUM pgbench_tellers", "TRUNCATE pgbench_history"}) {
    Status s = Exec(conn, sql);
    if (!s.ok()) failures.push_back(s.message());
  }
  return failures;
}

}  // namespace pgstorsim
