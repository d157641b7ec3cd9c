// Servers named only by libpq's conventions: a service file entry (PGSERVICE alone) and
// a password file (PGPASSFILE) for a scram role over TCP. pgstorsim must use that
// server, say so, and never start its embedded cluster or print the password.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <regex>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;

// The last `key=value` of a conninfo (FreshDatabase appends dbname to the base's).
std::string Field(const std::string& conninfo, const std::string& key) {
  std::string value;
  const std::regex re("(^| )" + key + "=([^ ]+)");
  for (auto it = std::sregex_iterator(conninfo.begin(), conninfo.end(), re);
       it != std::sregex_iterator(); ++it) {
    value = (*it)[2].str();
  }
  return value;
}

class ServicePgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"PGSTORSIM_DB", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE",
                          "PGUSER", "PGSERVICE", "PGSERVICEFILE", "PGPASSFILE"}) {
      unsetenv(v);
    }
    // No embedded cluster may be started by these tests: point it somewhere visible.
    home_ = "/tmp/pgstorsim-service-home-" + std::to_string(getpid());
    setenv("PGSTORSIM_HOME", home_.c_str(), 1);
  }
  void TearDown() override {
    struct stat st {};
    EXPECT_NE(stat((home_ + "/data").c_str(), &st), 0) << "the embedded cluster was started";
    unsetenv("PGSERVICE");
    unsetenv("PGSERVICEFILE");
    unsetenv("PGPASSFILE");
  }
  std::string home_;
};

TEST_F(ServicePgTest, ServiceFileAloneNamesTheServer) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_service");
  const std::string file = testing_util::TempFile("pg_service.conf");
  std::ofstream(file) << "[pgst_test]\nhost=" << Field(db, "host") << "\nport="
                      << Field(db, "port") << "\ndbname=" << Field(db, "dbname")
                      << "\nuser=" << Field(db, "user") << "\n";
  setenv("PGSERVICEFILE", file.c_str(), 1);
  setenv("PGSERVICE", "pgst_test", 1);
  auto init = RunPgstorsim({"init", "-s", "1", "--out", testing_util::TempFile("svc-init.json")});
  ASSERT_EQ(init.exit_code, 0) << init.output;
  EXPECT_NE(init.output.find("(from libpq environment (PGSERVICE))"), std::string::npos)
      << init.output;
  EXPECT_NE(init.output.find("dbname=" + Field(db, "dbname")), std::string::npos);
  auto run = RunPgstorsim({"run", "-T", "1", "-n", "--out", testing_util::TempFile("svc-run.json")});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  unlink(testing_util::TempFile("svc-init.json").c_str());
  unlink(testing_util::TempFile("svc-run.json").c_str());
  unsetenv("PGSERVICE");  // Before the file goes: libpq would refuse a missing service.
  unsetenv("PGSERVICEFILE");
  unlink(file.c_str());
  testing_util::DropDatabase("pgst_drv_service");
}

TEST_F(ServicePgTest, PasswordFileForScramOverTcp) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_pgpass");
  const std::string dbname = Field(db, "dbname");
  const std::string role = dbname + "_u";
  const std::string password = "PassFile-Only-93kd";
  {
    auto admin = Connect(std::getenv("PGSTORSIM_TEST_DB"));
    ASSERT_TRUE(admin.ok());
    Exec(admin->get(), "DROP ROLE IF EXISTS " + role);
    ASSERT_TRUE(Exec(admin->get(), "CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'").ok());
    ASSERT_TRUE(Exec(admin->get(), "ALTER DATABASE " + dbname + " OWNER TO " + role).ok());
    auto in_db = Connect(db);
    ASSERT_TRUE(in_db.ok());
    ASSERT_TRUE(Exec(in_db->get(), "ALTER SCHEMA public OWNER TO " + role).ok());
  }
  const std::string passfile = testing_util::TempFile("pgpass");
  std::ofstream(passfile) << "127.0.0.1:" << Field(db, "port") << ":" << dbname << ":" << role
                          << ":" << password << "\n";
  chmod(passfile.c_str(), 0600);
  setenv("PGPASSFILE", passfile.c_str(), 1);
  const std::string out = testing_util::TempFile("r.json");
  auto init = RunPgstorsim({"init", "-s", "1", "-h", "127.0.0.1", "-p", Field(db, "port"), "-U",
                            role, dbname, "--out", testing_util::TempFile("pass-init.json")});
  if (init.output.find("refused") != std::string::npos) {
    GTEST_SKIP() << "test server does not listen on TCP 127.0.0.1 (restart it with "
                    "scripts/pg-test-cluster.sh)";
  }
  ASSERT_EQ(init.exit_code, 0) << init.output;
  auto run = RunPgstorsim({"run", "-h", "127.0.0.1", "-p", Field(db, "port"), "-U", role, dbname,
                           "-T", "1", "--out", out});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("server: host=127.0.0.1"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find(password), std::string::npos);
  EXPECT_EQ(testing_util::Slurp(out).find(password), std::string::npos);
  unlink(passfile.c_str());
  unlink(out.c_str());
  unlink(testing_util::TempFile("pass-init.json").c_str());
  auto admin = Connect(std::getenv("PGSTORSIM_TEST_DB"));
  testing_util::DropDatabase("pgst_drv_pgpass");
  if (admin.ok()) Exec(admin->get(), "DROP ROLE IF EXISTS " + role);
}

}  // namespace
}  // namespace pgstorsim
