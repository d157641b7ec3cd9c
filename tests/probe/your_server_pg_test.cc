// The README's "your server" path end to end: probe, run (warm and cold), calibrate on
// the warm run, predict a change, report; on the embedded cluster (its own
// PGSTORSIM_HOME, nothing naming a server) and on the test server reached over TCP
// with scram-sha-256 and a password, which must appear in no output and no file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <regex>

#include "driver/driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;
using testing_util::Slurp;
using testing_util::TempFile;

constexpr char kPassword[] = "Scram-Only-7Q4x";

// The port of PGSTORSIM_TEST_DB (5432 when it names none).
std::string TestPort() {
  const char* base = std::getenv("PGSTORSIM_TEST_DB");
  std::smatch m;
  std::string s = base != nullptr ? base : "";
  return std::regex_search(s, m, std::regex("port=([0-9]+)")) ? m[1].str() : "5432";
}

class YourServerPath {
 public:
  // `server` holds the server arguments (e.g. {"--db", "..."}; empty: embedded).
  explicit YourServerPath(std::vector<std::string> server) : server_(std::move(server)) {}

  // Runs pgstorsim with the server arguments appended (after the subcommand's own).
  testing_util::Ran Run(std::vector<std::string> args, bool with_server = true) {
    if (with_server) args.insert(args.end(), server_.begin(), server_.end());
    testing_util::Ran r = RunPgstorsim(args);
    outputs_ += r.output;
    return r;
  }
  std::string File(const std::string& name) {
    files_.push_back(TempFile(name));
    return files_.back();
  }
  const std::vector<std::string>& files() const { return files_; }
  const std::string& outputs() const { return outputs_; }
  ~YourServerPath() {
    for (const std::string& f : files_) unlink(f.c_str());
  }

  // init, probe, warm run, calibrate, predict, report: every step exits 0.
  void Walk() {
    // --force: the embedded cluster keeps its tables between runs (init refuses to drop
    // tables holding rows without it).
    auto init = Run({"init", "-s", "1", "--force", "--out", File("init.json")});
    ASSERT_EQ(init.exit_code, 0) << init.output;
    const std::string scenario = File("probe.toml");
    auto probe = Run({"probe", "-c", "2", "--out", scenario});
    ASSERT_EQ(probe.exit_code, 0) << probe.output;
    std::string toml = Slurp(scenario);
    EXPECT_NE(toml.find("scale = 1  # detected: count(*) FROM pgbench_branches"), std::string::npos)
        << toml;
    EXPECT_NE(toml.find("clients = 2  # detected: --clients"), std::string::npos);
    EXPECT_NE(toml.find("shared_buffers = \"128MiB\"  # detected: pg_settings"), std::string::npos);
    EXPECT_NE(toml.find("checkpoint_completion_target = 0.9  # detected: pg_settings"),
              std::string::npos);
    // The summary counts what the file says: keys nobody probed are assumed defaults.
    EXPECT_NE(probe.output.find(" at their defaults (assumed)"), std::string::npos) << probe.output;
    const std::string warm = File("warm.json");
    auto run = Run({"run", "-c", "2", "-T", "3", "--cache", "warm", "--out", warm});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("cache: "), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("server statistics during the run"), std::string::npos);
    EXPECT_NE(run.output.find("WAL per transaction: "), std::string::npos);
    auto results = nlohmann::json::parse(Slurp(warm));
    EXPECT_FALSE(results["environment"]["server"]["port"].get<std::string>().empty());
    EXPECT_FALSE(results["environment"]["server"]["system_identifier"].get<std::string>().empty());
    const std::string calibrated = File("cal.toml");
    // The probed scenario assumes what it cannot see (disk mechanics, controller), so on
    // a VM the fit is poor and calibrate says so; the path goes on with the fit written.
    auto cal = Run({"calibrate", "--scenario", scenario, "--measured", warm, "--out", calibrated,
                    "--accept-poor-fit"},
                   false);
    ASSERT_EQ(cal.exit_code, 0) << cal.output;
    EXPECT_NE(cal.output.find("rms relative error"), std::string::npos) << cal.output;
    const std::string predicted = File("pred.json");
    auto pred = Run({"predict", "--scenario", calibrated, "--sweep",
                     "postgres.shared_buffers=128MiB,1GiB", "--out", predicted},
                    false);
    ASSERT_EQ(pred.exit_code, 0) << pred.output;
    const std::string html = File("report.html");
    File("report.md");
    auto report = Run({"report", warm, predicted, "--out", html}, false);
    ASSERT_EQ(report.exit_code, 0) << report.output;
    struct stat st {};
    EXPECT_EQ(stat(html.c_str(), &st), 0);
  }

 private:
  std::vector<std::string> server_;
  std::vector<std::string> files_;
  std::string outputs_;
};

TEST(YourServerPgTest, EmbeddedCluster) {
  if (std::getenv("PGSTORSIM_TEST_DB") == nullptr) {
    GTEST_SKIP() << "PGSTORSIM_TEST_DB not set (scripts/test.sh starts a server)";
  }
  const std::string home = "/tmp/pgstorsim-yourserver-" + std::to_string(getpid());
  setenv("PGSTORSIM_HOME", home.c_str(), 1);
  setenv("PGSTORSIM_CLUSTER_PORT", std::to_string(56000 + getpid() % 1000).c_str(), 1);
  for (const char* v :
       {"PGSTORSIM_DB", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"}) {
    unsetenv(v);
  }
  {
    YourServerPath path({});
    path.Walk();
    EXPECT_NE(path.outputs().find("server: embedded cluster in " + home), std::string::npos)
        << path.outputs();
    EXPECT_NE(path.outputs().find("nothing named a server"), std::string::npos);
    auto cold =
        path.Run({"run", "-c", "1", "-T", "3", "--cache", "cold", "--out", path.File("cold.json")});
    ASSERT_EQ(cold.exit_code, 0) << cold.output;
    for (const char* step : {"cache: stopped the embedded cluster",
                             "cache: started the embedded "
                             "cluster",
                             "cold check (first 2.0 s): shared hit ratio "}) {
      EXPECT_NE(cold.output.find(step), std::string::npos) << step << "\n" << cold.output;
    }
  }
  RunPgstorsim({"cluster", "destroy"});
  unsetenv("PGSTORSIM_HOME");
}

// A role with a password, its own database, TCP to 127.0.0.1 only.
TEST(YourServerPgTest, ScramServerLeavesNoPasswordAnywhere) {
  const std::string base_name = "pgst_yours_" + std::to_string(getpid());
  PGSTORSIM_FRESH_DB_OR_SKIP(db, base_name);
  const std::string dbname = testing_util::UniqueDbName(base_name);
  const std::string role = dbname + "_u";
  {
    auto admin = Connect(std::getenv("PGSTORSIM_TEST_DB"));
    ASSERT_TRUE(admin.ok());
    Exec(admin->get(), "DROP ROLE IF EXISTS " + role);
    ASSERT_TRUE(
        Exec(admin->get(), "CREATE ROLE " + role + " LOGIN PASSWORD '" + kPassword + "'").ok());
    ASSERT_TRUE(Exec(admin->get(), "ALTER DATABASE " + dbname + " OWNER TO " + role).ok());
    auto in_db = Connect(db);
    ASSERT_TRUE(in_db.ok());
    ASSERT_TRUE(Exec(in_db->get(), "ALTER SCHEMA public OWNER TO " + role).ok());
  }
  const std::string conninfo = "host=127.0.0.1 port=" + TestPort() + " dbname=" + dbname +
                               " user=" + role + " password=" + kPassword;
  auto probe = Connect(conninfo);
  if (!probe.ok() && probe.status().message().find("refused") != std::string::npos) {
    GTEST_SKIP() << "test server does not listen on TCP 127.0.0.1 (restart it with "
                    "scripts/pg-test-cluster.sh)";
  }
  ASSERT_TRUE(probe.ok()) << probe.status().message();
  probe.value().reset();
  {
    YourServerPath path({"--db", conninfo});
    path.Walk();
    auto cold = path.Run({"run", "-T", "1", "--cache", "cold", "--out", path.File("cold.json")});
    EXPECT_NE(cold.exit_code, 0);
    EXPECT_NE(cold.output.find("--cache cold: this server is not managed by pgstorsim"),
              std::string::npos)
        << cold.output;
    EXPECT_NE(path.outputs().find("server: host=127.0.0.1"), std::string::npos) << path.outputs();
    EXPECT_EQ(path.outputs().find(kPassword), std::string::npos) << path.outputs();
    for (const std::string& f : path.files()) {
      EXPECT_EQ(Slurp(f).find(kPassword), std::string::npos) << f;
    }
  }
  auto admin = Connect(std::getenv("PGSTORSIM_TEST_DB"));
  testing_util::DropDatabase(base_name);
  if (admin.ok()) Exec(admin->get(), "DROP ROLE IF EXISTS " + role);
}

}  // namespace
}  // namespace pgstorsim
