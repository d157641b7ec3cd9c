// Custom scripts and builtin weights with the transaction log, against a live server.
#include <gtest/gtest.h>
#include <glob.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;

TEST(ScriptsPgTest, CustomScriptMixAndTransactionLog) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_scripts");
  const std::string init_json = testing_util::TempFile("scripts-init.json");
  auto init = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", init_json});
  ASSERT_EQ(init.exit_code, 0) << init.output;
  const std::string script = testing_util::TempFile("s.sql");
  std::ofstream(script) << "\\set aid random_gaussian(1, 100000 * :scale, 3)\n"
                           "\\if :client_id = 0\n"
                           "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
                           "\\else\n"
                           "UPDATE pgbench_accounts SET abalance = abalance + 1\n"
                           "  WHERE aid = :aid;\n"
                           "\\sleep 1 ms\n"
                           "\\endif\n";
  const std::string prefix = testing_util::TempFile("txlog");
  const std::string out = testing_util::TempFile("r.json");
  auto r = RunPgstorsim({"run", "-h", "ignored-by-db", "--db", db, "-c", "2", "-j", "2", "-T", "2",
                         "-M", "prepared", "-f", script + "@3", "-b", "select@1", "-l",
                         "--log-prefix", prefix, "-s", "1", "--out", out});
  // -h overrides --db's host: the run must fail to connect to it, naming it.
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("ignored-by-db"), std::string::npos) << r.output;
  r = RunPgstorsim({"run", "--db", db, "-c", "2", "-j", "2", "-T", "2", "-M", "prepared", "-f",
                    script + "@3", "-b", "select@1", "-l", "--log-prefix", prefix, "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("transaction type: multiple scripts"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("SQL script 2: " + script), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" - weight: 3 (targets 75.0% of total)"), std::string::npos);
  EXPECT_NE(r.output.find("starting vacuum...end."), std::string::npos);
  auto results = nlohmann::json::parse(testing_util::Slurp(out));
  const uint64_t committed = results["summary"]["transactions"].get<uint64_t>();
  EXPECT_GT(committed, 0u);
  // A custom script: no one scenario workload.type; the scripts list says what ran.
  EXPECT_FALSE(results["config"]["scenario"].contains("workload.type"));
  EXPECT_EQ(results["config"]["scenario"]["workload.protocol"], "prepared");
  int custom_scripts = 0;
  for (const auto& s : results["config"]["scripts"]) custom_scripts += !s["builtin"].get<bool>();
  EXPECT_EQ(custom_scripts, 1) << results["config"]["scripts"].dump();
  bool custom_statement = false;
  for (const auto& s : results["statements"]) {
    custom_statement = custom_statement || s["name"].get<std::string>() == script + ":5";
  }
  EXPECT_TRUE(custom_statement) << results["statements"].dump();
  // Two threads: two log files; one line per committed measured transaction.
  glob_t g;
  ASSERT_EQ(glob((prefix + ".*").c_str(), 0, nullptr, &g), 0);
  EXPECT_EQ(g.gl_pathc, 2u);
  uint64_t lines = 0;
  for (size_t i = 0; i < g.gl_pathc; ++i) {
    std::ifstream in(g.gl_pathv[i]);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream f(line);
      std::vector<std::string> fields;
      for (std::string w; f >> w;) fields.push_back(w);
      ASSERT_EQ(fields.size(), 6u) << line;
      EXPECT_TRUE(fields[3] == "0" || fields[3] == "1") << line;
      ++lines;
    }
    unlink(g.gl_pathv[i]);
  }
  globfree(&g);
  EXPECT_EQ(lines, committed);
  unlink(script.c_str());
  unlink(out.c_str());
  unlink(init_json.c_str());
  testing_util::DropDatabase("pgst_drv_scripts");
}

}  // namespace
}  // namespace pgstorsim
