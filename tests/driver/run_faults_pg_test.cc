// `pgstorsim run` when things go wrong for good: a server that does not come back
// (modelled on the shared test server by refusing new connections to the run's
// database and terminating its sessions) and stop signals sent the way GNU timeout
// and service managers send them (to the process and its whole group).
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "common/file_util.h"
#include "driver_test_util.h"
#include "support/shell.h"
#include "support/signal_group.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;

void InitScale1(const std::string& db) {
  const std::string out = testing_util::TempFile("faults-init.json");
  auto r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", out, "--force"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  unlink(out.c_str());
}

bool HasFlag(const nlohmann::json& doc, const std::string& flag) {
  for (const auto& f : doc["flags"]) {
    if (f == flag) return true;
  }
  return false;
}

std::string RunCommand(const std::string& db, const std::string& mode, const std::string& out) {
  return std::string(PGSTORSIM_BINARY) + " run --db '" + db + "' -c 2 -P 1s " + mode +
         " --max-reconnect-wait 2s --out " + out;
}

// The server goes away mid-run and never returns: the run ends within
// --max-reconnect-wait (+ backoff), exit 3, one line on stderr, results with
// complete=false, flag server-lost, and tps over the time the server was up.
// A lost server ends -T and -t runs with an error, complete=false and flag server-lost.
void ExpectServerLost(const std::string& base_name, const std::string& mode) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, base_name);
  InitScale1(db);
  const std::string out = testing_util::TempFile(base_name + ".json");
  const std::string log = testing_util::TempFile(base_name + ".log");
  unlink(log.c_str());
  double up_s = 0;  // An upper bound of the time the server was up for the run.
  {
    const auto start = std::chrono::steady_clock::now();
    GroupProcess p(RunCommand(db, mode, out), log);
    ASSERT_TRUE(p.LogContains("progress:", 60)) << p.Log();
    {
      // From the server's maintenance database: a session cannot bar its own database.
      auto conn = Connect(std::getenv("PGSTORSIM_TEST_DB"));
      ASSERT_TRUE(conn.ok()) << conn.status().message();
      const std::string name = testing_util::UniqueDbName(base_name);
      Status barred = Exec(conn->get(), "ALTER DATABASE " + name + " ALLOW_CONNECTIONS false");
      ASSERT_TRUE(barred.ok()) << barred.message();
      auto killed = QueryValue(conn->get(),
                               "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE datname = '" +
                                   name + "'");
      ASSERT_TRUE(killed.ok()) << killed.status().message();
      EXPECT_NE(*killed, "0");
    }
    up_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const int code = p.WaitExit(60);
    const std::string output = p.Log();
    EXPECT_EQ(code, 3) << output;
    const auto lines = std::count(output.begin(), output.end(), '\n');
    const auto lost = output.find("pgstorsim run: server lost: no connection to the server for");
    EXPECT_NE(lost, std::string::npos) << output;
    if (lost != std::string::npos) {
      EXPECT_EQ(output.find('\n', lost), output.size() - 1) << "not one last line:\n" << output;
    }
    EXPECT_GT(lines, 1);
  }
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_FALSE((*doc)["complete"].get<bool>());
  EXPECT_TRUE(HasFlag(*doc, "server-lost")) << (*doc)["flags"];
  const double duration = (*doc)["summary"]["duration_s"].get<double>();
  const double transactions = (*doc)["summary"]["transactions"].get<double>();
  EXPECT_GT(transactions, 0);
  EXPECT_GT(duration, 0);
  EXPECT_LT(duration, up_s) << "tps must cover only the time the server was up";
  EXPECT_NEAR((*doc)["summary"]["tps"].get<double>(), transactions / duration,
              transactions / duration * 0.05);
  unlink(out.c_str());
  unlink(log.c_str());
  testing_util::DropDatabase(base_name);
}

TEST(RunFaultsPgTest, ServerLostEndsADurationRunWithExit3) {
  ExpectServerLost("pgst_drv_lost_dur", "-T 120s");
}

TEST(RunFaultsPgTest, ServerLostEndsATransactionsRunWithExit3) {
  ExpectServerLost("pgst_drv_lost_txn", "-t 100000000");
}

// GNU timeout sends SIGTERM to the command and to its own process group: two signals.
// A run stopped by `timeout 4` saves its partial results, every time.
TEST(RunFaultsPgTest, UnderTimeoutPartialResultsAreSaved) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_timeout");
  InitScale1(db);
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string out = testing_util::TempFile("timeout" + std::to_string(attempt) + ".json");
    ShellResult r =
        RunShell("timeout --preserve-status -s TERM 4 " + std::string(PGSTORSIM_BINARY) +
                 " run --db '" + db + "' -c 2 -j 2 -T 60s --out " + out);
    EXPECT_EQ(r.exit_code, 130) << r.output;
    auto doc = ReadJsonFile(out);
    ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << r.output;
    EXPECT_FALSE((*doc)["complete"].get<bool>());
    EXPECT_TRUE(HasFlag(*doc, "interrupted"));
    unlink(out.c_str());
  }
  testing_util::DropDatabase("pgst_drv_timeout");
}

// SIGTERM to the whole group, then SIGTERM and SIGINT again while the run is saving.
TEST(RunFaultsPgTest, RepeatedGroupSignalsAreIgnoredWhileSaving) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_group_sig");
  InitScale1(db);
  const std::string out = testing_util::TempFile("group.json");
  const std::string log = testing_util::TempFile("group.log");
  unlink(log.c_str());
  {
    GroupProcess p(std::string(PGSTORSIM_BINARY) + " run --db '" + db +
                       "' -c 2 -j 2 -P 1s -T 120s --out " + out,
                   log);
    ASSERT_TRUE(p.LogContains("progress:", 60)) << p.Log();
    p.SignalGroup(SIGTERM);
    ASSERT_TRUE(p.LogContains("further signals are ignored", 10)) << p.Log();
    p.SignalGroup(SIGTERM);
    p.SignalGroup(SIGINT);
    EXPECT_EQ(p.WaitExit(60), 130) << p.Log();
  }
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_FALSE((*doc)["complete"].get<bool>());
  EXPECT_GT((*doc)["summary"]["transactions"].get<uint64_t>(), 0u);
  unlink(out.c_str());
  unlink(log.c_str());
  testing_util::DropDatabase("pgst_drv_group_sig");
}

}  // namespace
}  // namespace pgstorsim
