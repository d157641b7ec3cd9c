// `pgstorsim run` against a live server: bookkeeping invariants, pgbench compatibility,
// lost connections and Ctrl-C.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

#include "common/file_util.h"
#include "common/results.h"
#include "driver_test_util.h"
#include "support/poll.h"
#include "workload/keys_log.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;
using testing_util::Value;

void InitScale1(const std::string& db) {
  auto r = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", testing_util::TempFile("i.json")});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  unlink(testing_util::TempFile("i.json").c_str());
}

// Polls (every 50 ms, for at most 30 s) until `pgstorsim run` has committed at least
// `transactions` into pgbench_history of `db`; false at the deadline.
bool WaitForCommits(const std::string& db, int transactions) {
  return testing_util::PollUntil(
      [&] {
        const std::string n = Value(db, "SELECT count(*) FROM pgbench_history");
        return !n.empty() && std::stoll(n) >= transactions;
      },
      30, std::chrono::milliseconds(50));
}

bool HasFlag(const nlohmann::json& doc, const std::string& flag) {
  for (const auto& f : doc["flags"]) {
    if (f == flag) return true;
  }
  return false;
}

TEST(RunPgTest, CommittedTransactionsMatchTheDatabase) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_invariant");
  InitScale1(db);
  std::string out = testing_util::TempFile("run.json");
  std::string keys = testing_util::TempFile("keys.log");
  auto r = RunPgstorsim({"run", "--db", db, "-c", "4", "-j", "2", "-T", "3s", "-M", "prepared",
                         "--keys-log", keys, "--out", out, "--per-second"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("tps = "), std::string::npos);
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  uint64_t txns = (*doc)["summary"]["transactions"];
  EXPECT_GT(txns, 0u);
  auto loaded = LoadResults(out);  // The shared schema's own validation.
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(loaded->kind, "run");
  EXPECT_EQ(loaded->transaction_latency.count(), txns);
  EXPECT_TRUE((*doc)["complete"].get<bool>());
  // No warm-up: every committed transaction is measured, so the database agrees exactly.
  auto log = ReadKeysLog(keys);
  ASSERT_TRUE(log.ok()) << log.status().message();
  uint64_t committed = 0;
  int64_t delta_sum = 0;
  for (const auto& k : *log) {
    if (!k.committed) continue;
    ++committed;
    delta_sum += k.delta;
    EXPECT_GE(k.start_ns, 0);
    EXPECT_GE(k.end_ns, k.start_ns);
  }
  EXPECT_EQ(committed, txns);
  EXPECT_EQ(Value(db, "SELECT count(*) FROM pgbench_history"), std::to_string(txns));
  std::string total = Value(db, "SELECT coalesce(sum(delta), 0) FROM pgbench_history");
  EXPECT_EQ(Value(db, "SELECT sum(abalance) FROM pgbench_accounts"), total);
  EXPECT_EQ(Value(db, "SELECT sum(bbalance) FROM pgbench_branches"), total);
  EXPECT_EQ(Value(db, "SELECT sum(tbalance) FROM pgbench_tellers"), total);
  // Statements and server statistics are recorded under the shared names.
  const auto& st = (*doc)["statements"];
  ASSERT_EQ(st.size(), 7u);
  EXPECT_EQ(st[1]["name"], "UPDATE accounts");
  EXPECT_EQ(st[1]["latency"]["count"].get<uint64_t>(), txns);
  EXPECT_GT((*doc)["sections"]["server_stats"]["delta"]["wal"]["wal_records"].get<double>(), 0);
  EXPECT_EQ((*doc)["sections"]["settings"]["block_size"], "8192");
  EXPECT_GE((*doc)["series"].size(), 3u);
  // Client CPU: without warm-up it covers exactly the measured transactions; each one
  // waits for the server at least once per statement, so the process slept.
  const auto& cpu = (*doc)["sections"]["client_cpu"];
  EXPECT_EQ(cpu["committed"].get<uint64_t>(), txns);
  EXPECT_GT(cpu["user_s"].get<double>() + cpu["sys_s"].get<double>(), 0.0);
  EXPECT_GT(cpu["us_per_transaction"].get<double>(), 0.0);
  EXPECT_GE(cpu["voluntary_switches"].get<int64_t>(), static_cast<int64_t>(txns));
  EXPECT_NE(r.output.find("client CPU per transaction: "), std::string::npos) << r.output;
  unlink(out.c_str());
  unlink(keys.c_str());
  testing_util::DropDatabase("pgst_drv_run_invariant");
}

TEST(RunPgTest, TransactionsModeRunsExactlyThatMany) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_count");
  InitScale1(db);
  std::string out = testing_util::TempFile("count.json");
  std::string keys = testing_util::TempFile("count.log");
  auto r = RunPgstorsim({"run", "--db", db, "-c", "3", "-t", "40", "--warmup", "1s", "--workload",
                         "simple-update", "--keys-log", keys, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Warm-up transactions run before the 40 measured ones of each client.
  int64_t history = std::stoll(Value(db, "SELECT count(*) FROM pgbench_history"));
  EXPECT_GT(history, 120);
  auto log = ReadKeysLog(keys);
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->size(), 120u);
  unlink(keys.c_str());
  EXPECT_NE(r.output.find("number of transactions actually processed: 120\n"), std::string::npos)
      << r.output;
  // The client CPU span includes the warm-up: it counts every committed transaction.
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ((*doc)["sections"]["client_cpu"]["committed"].get<int64_t>(), history);
  unlink(out.c_str());
  testing_util::DropDatabase("pgst_drv_run_count");
}

TEST(RunPgTest, SerializationFailuresAreRetriedAndCounted) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_serial");
  InitScale1(db);
  // Scale 1 has one branch row: concurrent SERIALIZABLE transactions conflict on it.
  std::string serializable = db + " options='-c default_transaction_isolation=serializable'";
  std::string out = testing_util::TempFile("serial.json");
  auto r = RunPgstorsim({"run", "--db", serializable, "-c", "4", "-j", "2", "-T", "2s",
                         "--max-tries", "50", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("total number of retries: "), std::string::npos) << r.output;
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  uint64_t txns = (*doc)["summary"]["transactions"];
  EXPECT_GT((*doc)["summary"]["retried"].get<uint64_t>(), 0u) << r.output;
  EXPECT_GE((*doc)["sections"]["retries"]["total_retries"].get<uint64_t>(),
            (*doc)["summary"]["retried"].get<uint64_t>());
  // Retried transactions commit once: the database agrees with the committed count.
  EXPECT_EQ(Value(db, "SELECT count(*) FROM pgbench_history"), std::to_string(txns));
  std::string total = Value(db, "SELECT coalesce(sum(delta), 0) FROM pgbench_history");
  EXPECT_EQ(Value(db, "SELECT sum(bbalance) FROM pgbench_branches"), total);
  unlink(out.c_str());
  testing_util::DropDatabase("pgst_drv_run_serial");
}

TEST(RunPgTest, PgbenchRunsOnOurTables) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_pgbench");
  InitScale1(db);
  auto p = testing_util::RunTool({testing_util::PgbenchPath(), "-n", "-T", "2", "-c", "2", db});
  EXPECT_EQ(p.exit_code, 0) << p.output;
  EXPECT_NE(p.output.find("scaling factor: 1"), std::string::npos) << p.output;
  testing_util::DropDatabase("pgst_drv_run_pgbench");
}

// Lines that report an error ("pgstorsim run: ..."); progress lines ("server: ...",
// "starting vacuum...end.") are not errors.
int ErrorLines(const std::string& output) {
  int n = 0;
  for (size_t at = output.find("pgstorsim run: "); at != std::string::npos;
       at = output.find("pgstorsim run: ", at + 1)) {
    ++n;
  }
  return n;
}

TEST(RunPgTest, MissingTablesIsOneClearLine) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_missing");
  auto r = RunPgstorsim({"run", "--db", db, "-T", "1s"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("pgstorsim init"), std::string::npos) << r.output;
  // The "server: ..." line, then the error as the one last line.
  EXPECT_EQ(ErrorLines(r.output), 1) << r.output;
  EXPECT_EQ(r.output.rfind("pgstorsim run: "), r.output.rfind('\n', r.output.size() - 2) + 1)
      << r.output;
  testing_util::DropDatabase("pgst_drv_run_missing");
}

TEST(RunPgTest, TerminatedBackendsReconnectAndRunCompletes) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_restart");
  InitScale1(db);
  std::string out = testing_util::TempFile("restart.json");
  std::string log = testing_util::TempFile("restart.log");
  pid_t pid = testing_util::Spawn(
      {PGSTORSIM_BINARY, "run", "--db", db, "-c", "3", "-T", "4s", "--out", out}, log);
  EXPECT_TRUE(WaitForCommits(db, 10)) << testing_util::Slurp(log);
  std::string killed = Value(db,
                             "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                             "WHERE datname = current_database() AND application_name = "
                             "'pgstorsim' AND pid <> pg_backend_pid()");
  int code = testing_util::WaitExit(pid);
  ASSERT_EQ(code, 0) << testing_util::Slurp(log);
  EXPECT_NE(killed, "0");
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_TRUE(HasFlag(*doc, "server-restarted")) << (*doc)["flags"];
  EXPECT_TRUE((*doc)["complete"].get<bool>());
  EXPECT_GE((*doc)["sections"]["connections"]["connection_losses"].get<int>(), 1);
  EXPECT_GE((*doc)["sections"]["connections"]["reconnects"].get<int>(), 1);
  EXPECT_GT((*doc)["summary"]["transactions"].get<uint64_t>(), 0u);
  unlink(out.c_str());
  unlink(log.c_str());
  testing_util::DropDatabase("pgst_drv_run_restart");
}

TEST(RunPgTest, SqlErrorMidRunStopsEveryThreadWithOneLine) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_fatal");
  InitScale1(db);
  std::string log = testing_util::TempFile("fatal.log");
  pid_t pid = testing_util::Spawn({PGSTORSIM_BINARY, "run", "--db", db, "-c", "4", "-j", "2", "-T",
                                   "60s", "--out", testing_util::TempFile("fatal.json")},
                                  log);
  EXPECT_TRUE(WaitForCommits(db, 10)) << testing_util::Slurp(log);
  {
    auto conn = Connect(db);
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    Status renamed =
        Exec(conn->get(), "ALTER TABLE pgbench_tellers RENAME TO pgbench_tellers_gone");
    EXPECT_TRUE(renamed.ok()) << renamed.message();
  }
  // The failing thread must stop the others too: well before the 60 s duration.
  const int code = testing_util::WaitExitWithin(pid, 20);
  std::string output = testing_util::Slurp(log);
  EXPECT_EQ(code, 1) << output;
  EXPECT_NE(output.find("pgbench_tellers"), std::string::npos) << output;
  EXPECT_EQ(ErrorLines(output), 1) << output;
  unlink(log.c_str());
  testing_util::DropDatabase("pgst_drv_run_fatal");
}

TEST(RunPgTest, SigintWritesPartialResultsAndExits130) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_run_sigint");
  InitScale1(db);
  std::string out = testing_util::TempFile("sigint.json");
  std::string log = testing_util::TempFile("sigint.log");
  pid_t pid = testing_util::Spawn(
      {PGSTORSIM_BINARY, "run", "--db", db, "-c", "2", "-T", "60s", "--out", out}, log);
  EXPECT_TRUE(WaitForCommits(db, 10)) << testing_util::Slurp(log);
  kill(pid, SIGINT);
  int code = testing_util::WaitExit(pid);
  EXPECT_EQ(code, 130) << testing_util::Slurp(log);
  auto doc = ReadJsonFile(out);
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_FALSE((*doc)["complete"].get<bool>());
  EXPECT_TRUE(HasFlag(*doc, "interrupted"));
  EXPECT_LT((*doc)["summary"]["duration_s"].get<double>(), 30.0);
  unlink(out.c_str());
  unlink(log.c_str());
  testing_util::DropDatabase("pgst_drv_run_sigint");
}

}  // namespace
}  // namespace pgstorsim
