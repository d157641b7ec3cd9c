// Password authentication over TCP: a wrong password is one line naming the problem,
// never echoing the password; the right one works and is redacted in the results.
// Needs the test cluster of scripts/pg-test-cluster.sh, which accepts scram-sha-256
// on TCP 127.0.0.1 at the same port as its unix socket.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;

constexpr char kRightPassword[] = "Right-Pass-4242";
constexpr char kWrongPassword[] = "Wrong-Secret-1717";

int Lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// The port of PGSTORSIM_TEST_DB (5432 when it names none).
std::string TestPort() {
  const char* base = std::getenv("PGSTORSIM_TEST_DB");
  std::smatch m;
  std::string s = base != nullptr ? base : "";
  return std::regex_search(s, m, std::regex("port=([0-9]+)")) ? m[1].str() : "5432";
}

// Each test has its own database and role (ctest runs tests in parallel), both named
// after the test and the process, the role owning the database and its public schema.
class AuthPgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::transform(test.begin(), test.end(), test.begin(), ::tolower);
    base_name_ = "pgst_auth_" + test;
    db_ = testing_util::UniqueDbName(base_name_);
    role_ = db_ + "_u";
    PGSTORSIM_FRESH_DB_OR_SKIP(db, base_name_);
    ASSERT_EQ(CreateRole(db), "");
    auto probe = Connect(TcpConninfo(kRightPassword));
    if (!probe.ok() && probe.status().message().find("refused") != std::string::npos) {
      GTEST_SKIP() << "test server does not listen on TCP 127.0.0.1:" << TestPort()
                   << " (restart it with scripts/pg-test-cluster.sh): " << probe.status().message();
    }
    ASSERT_TRUE(probe.ok()) << probe.status().message();
  }

  void TearDown() override {
    testing_util::DropDatabase(base_name_);
    const char* base = std::getenv("PGSTORSIM_TEST_DB");
    if (base == nullptr) return;
    auto conn = Connect(base);
    if (conn.ok()) Exec(conn->get(), "DROP ROLE IF EXISTS " + role_);
  }

  std::string TcpConninfo(const std::string& password) const {
    return "host=127.0.0.1 port=" + TestPort() + " dbname=" + db_ + " user=" + role_ +
           " password=" + password + " connect_timeout=5";
  }

  // Returns "" or why the server cannot be set up for this test.
  std::string CreateRole(const std::string& db) const {
    auto conn = Connect(std::getenv("PGSTORSIM_TEST_DB"));
    if (!conn.ok()) return conn.status().message();
    Exec(conn->get(), "DROP ROLE IF EXISTS " + role_);
    for (const std::string& sql :
         {"CREATE ROLE " + role_ + " LOGIN PASSWORD '" + kRightPassword + "'",
          "ALTER DATABASE " + db_ + " OWNER TO " + role_}) {
      Status s = Exec(conn->get(), sql);
      if (!s.ok()) return s.message();
    }
    auto in_db = Connect(db);
    if (!in_db.ok()) return in_db.status().message();
    Status s = Exec(in_db->get(), "ALTER SCHEMA public OWNER TO " + role_);
    return s.ok() ? "" : s.message();
  }

  std::string base_name_;  // Test database name before UniqueDbName.
  std::string db_;
  std::string role_;
};

TEST_F(AuthPgTest, WrongPasswordIsOneLineWithoutThePassword) {
  const std::string uri =
      "postgresql://" + role_ + ":" + kWrongPassword + "@127.0.0.1:" + TestPort() + "/" + db_;
  for (const std::string& db : {TcpConninfo(kWrongPassword), uri}) {
    for (const char* cmd : {"init", "run"}) {
      auto r = RunPgstorsim({cmd, "--db", db, "--out", testing_util::TempFile("auth.json")});
      EXPECT_EQ(r.exit_code, 1) << cmd << ": " << r.output;
      EXPECT_EQ(Lines(r.output), 1) << cmd << ": " << r.output;
      EXPECT_NE(r.output.find("password authentication failed"), std::string::npos) << r.output;
      EXPECT_NE(r.output.find(role_), std::string::npos) << r.output;  // Names the user.
      EXPECT_EQ(r.output.find(kWrongPassword), std::string::npos) << r.output;
    }
  }
}

TEST_F(AuthPgTest, RightPasswordWorksAndIsRedactedInResults) {
  const std::string init_json = testing_util::TempFile("auth-init.json");
  const std::string run_json = testing_util::TempFile("auth-run.json");
  auto init =
      RunPgstorsim({"init", "-s", "1", "--db", TcpConninfo(kRightPassword), "--out", init_json});
  ASSERT_EQ(init.exit_code, 0) << init.output;
  auto run = RunPgstorsim({"run", "-c", "2", "-t", "20", "-M", "prepared", "--db",
                           TcpConninfo(kRightPassword), "--out", run_json});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("number of transactions actually processed: 40"), std::string::npos)
      << run.output;
  for (const std::string& text :
       {init.output, run.output, testing_util::Slurp(init_json), testing_util::Slurp(run_json)}) {
    EXPECT_EQ(text.find(kRightPassword), std::string::npos) << text.substr(0, 2000);
  }
  std::string results = testing_util::Slurp(run_json);
  EXPECT_NE(results.find("password=***"), std::string::npos) << results.substr(0, 2000);
  unlink(init_json.c_str());
  unlink(run_json.c_str());
}

}  // namespace
}  // namespace pgstorsim
