// The cache model against PostgreSQL's own counters: `pgstorsim init --scale 20` (the
// accounts heap, 256 MiB, is twice shared_buffers) into a fresh database of the shared
// test cluster (shared_buffers = 128MB; the model gets the server's value), then `pgstorsim run
// --cache warm --keys-log` (pg_prewarm of every relation, so the start state is known), and the
// trace generator fed the same keys log, the measured relation sizes, 128 MiB of shared buffers and
// the same start (--cache pg-prewarm). The pg_statio heap and index hit ratios of the
// run and of the model must agree within 5 percentage points.
// Needs PGSTORSIM_TEST_DB (scripts/test.sh) and the pg_prewarm extension.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/units.h"
#include "support/shell.h"
#include "trace/trace_generator.h"

namespace pgstorsim {
namespace {

using Conn = std::unique_ptr<PGconn, decltype(&PQfinish)>;
using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

constexpr int kScale = 20;
constexpr int64_t kAccountsHeapBytes = 256LL << 20;  // About, at scale 20.

// Single-quoted for the shell.
std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string QueryOne(PGconn* conn, const std::string& sql) {
  Result r(PQexec(conn, sql.c_str()), &PQclear);
  if (PQresultStatus(r.get()) != PGRES_TUPLES_OK || PQntuples(r.get()) < 1) return "";
  return PQgetvalue(r.get(), 0, 0);
}

bool Exec(PGconn* conn, const std::string& sql) {
  Result r(PQexec(conn, sql.c_str()), &PQclear);
  return PQresultStatus(r.get()) == PGRES_COMMAND_OK || PQresultStatus(r.get()) == PGRES_TUPLES_OK;
}

nlohmann::json LoadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in, nullptr, false);
}

class CacheStatioPgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* conninfo = std::getenv("PGSTORSIM_TEST_DB");
    if (conninfo == nullptr || *conninfo == '\0') {
      GTEST_SKIP() << "PGSTORSIM_TEST_DB is not set (scripts/test.sh starts a test cluster)";
    }
    base_ = conninfo;
    Conn admin(PQconnectdb(base_.c_str()), &PQfinish);
    ASSERT_EQ(PQstatus(admin.get()), CONNECTION_OK) << PQerrorMessage(admin.get());
    if (QueryOne(admin.get(), "SELECT 1 FROM pg_available_extensions WHERE name = 'pg_prewarm'")
            .empty()) {
      GTEST_SKIP() << "the pg_prewarm extension is not installed on the test server";
    }
    shared_buffers_bytes_ = std::atoll(
        QueryOne(admin.get(),
                 "SELECT setting::bigint * 8192 FROM pg_settings WHERE name = 'shared_buffers'")
            .c_str());
    if (shared_buffers_bytes_ <= 0 || shared_buffers_bytes_ > kAccountsHeapBytes / 2) {
      GTEST_SKIP() << "needs shared_buffers well below the scale-20 accounts heap (the test "
                      "cluster has 128MB); got "
                   << shared_buffers_bytes_ << " bytes";
    }
    dbname_ = "pgstorsim_cache_statio_" + std::to_string(::getpid());
    PQsetNoticeProcessor(
        admin.get(), [](void*, const char*) {}, nullptr);
    Exec(admin.get(), "DROP DATABASE IF EXISTS " + dbname_);
    ASSERT_TRUE(Exec(admin.get(), "CREATE DATABASE " + dbname_)) << PQerrorMessage(admin.get());
    created_ = true;
    char dir_template[] = "/tmp/pgstorsim-statio-XXXXXX";
    ASSERT_NE(::mkdtemp(dir_template), nullptr);
    dir_ = dir_template;
  }

  void TearDown() override {
    if (!dir_.empty()) RunShell("rm -rf " + ShellQuote(dir_));
    if (!created_) return;
    Conn admin(PQconnectdb(base_.c_str()), &PQfinish);
    if (PQstatus(admin.get()) == CONNECTION_OK) {
      Exec(admin.get(), "DROP DATABASE IF EXISTS " + dbname_ + " WITH (FORCE)");
    }
  }

  std::string Db() const { return ShellQuote(base_ + " dbname=" + dbname_); }

  std::string base_, dbname_, dir_;
  int64_t shared_buffers_bytes_ = 0;
  bool created_ = false;
};

TEST_F(CacheStatioPgTest, ModelHitRatiosMatchPgStatio) {
  const std::string init_json = dir_ + "/init.json", run_json = dir_ + "/run.json";
  const std::string keys = dir_ + "/keys.log";
  ShellResult init = RunPgstorsim("init --scale " + std::to_string(kScale) + " --db " + Db() +
                                  " --out " + init_json);
  ASSERT_EQ(init.exit_code, 0) << init.output;
  ShellResult run = RunPgstorsim("run --db " + Db() +
                                 " --clients 4 --threads 2 --transactions 4000 --cache warm"
                                 " --keys-log " +
                                 keys + " --out " + run_json);
  ASSERT_EQ(run.exit_code, 0) << run.output;

  const nlohmann::json measured = LoadJson(run_json);
  ASSERT_FALSE(measured.is_discarded()) << run_json;
  ASSERT_EQ(measured["sections"]["cache"]["mode"], "warm");
  ASSERT_TRUE(measured["sections"]["cache"]["not_done"].empty())
      << measured["sections"]["cache"].dump();
  const nlohmann::json& tables = measured["sections"]["server_stats"]["delta"]["tables"];
  const nlohmann::json& indexes = measured["sections"]["server_stats"]["delta"]["indexes"];
  ASSERT_TRUE(tables.contains("heap_hit_ratio")) << measured["sections"]["server_stats"].dump();
  ASSERT_TRUE(indexes.contains("idx_hit_ratio")) << measured["sections"]["server_stats"].dump();
  // The run must really have gone to disk (accounts exceed shared_buffers).
  ASSERT_GT(tables["heap_blks_read"].get<double>(), 1000.0);
  const double pg_heap = tables["heap_hit_ratio"].get<double>();
  const double pg_index = indexes["idx_hit_ratio"].get<double>();

  const nlohmann::json init_results = LoadJson(init_json);
  ASSERT_FALSE(init_results.is_discarded()) << init_json;
  GeneratorOptions o;
  o.host.scale = kScale;
  o.keys_log_path = keys;
  o.host.cache.shared_buffers_pages = shared_buffers_bytes_ / kPageBytes;
  o.host.cache.os_cache_pages = 0;  // pg_statio counts shared_buffers hits only.
  o.host.start = pgmodel::CacheStart::kPgPrewarm;
  o.host.measured_relations = init_results["sections"]["relations"];
  GeneratorSummary model;
  ASSERT_TRUE(GenerateTrace(
                  o, [](const TraceRecord&) { return Status::Ok(); }, &model)
                  .ok());
  ASSERT_EQ(model.transactions, 16000u);
  const double model_heap = model.StatioHitRatio(false);
  const double model_index = model.StatioHitRatio(true);
  std::cout << "pg_statio heap " << pg_heap << " model " << model_heap << "; index " << pg_index
            << " model " << model_index << "\n";
  EXPECT_LE(std::fabs(model_heap - pg_heap), 0.05)
      << "heap: pg " << pg_heap << " model " << model_heap;
  EXPECT_LE(std::fabs(model_index - pg_index), 0.05)
      << "index: pg " << pg_index << " model " << model_index;
}

}  // namespace
}  // namespace pgstorsim
