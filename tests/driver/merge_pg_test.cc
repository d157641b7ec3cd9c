// Two drivers started together with --start-at against one server, joined by
// `pgstorsim merge`: counts and tps add, the server is checked.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;

TEST(MergePgTest, TwoDriversStartedTogetherMerge) {
  PGSTORSIM_FRESH_DB_OR_SKIP(db, "pgst_drv_merge");
  const std::string i = testing_util::TempFile("merge-init.json");
  auto init = RunPgstorsim({"init", "-s", "1", "--db", db, "--out", i});
  ASSERT_EQ(init.exit_code, 0) << init.output;
  const std::string a = testing_util::TempFile("a.json"), b = testing_util::TempFile("b.json");
  const std::string la = testing_util::TempFile("a.log"), lb = testing_util::TempFile("b.log");
  // Both start at the same wall-clock second, 3 s from now (connections first).
  const std::string at = "@" + std::to_string(time(nullptr) + 3);
  pid_t pa = testing_util::Spawn({PGSTORSIM_BINARY, "run", "--db", db, "-c", "2", "-T", "2", "-n",
                                  "--start-at", at, "--per-second", "--out", a},
                                 la);
  pid_t pb = testing_util::Spawn({PGSTORSIM_BINARY, "run", "--db", db, "-c", "1", "-T", "2", "-n",
                                  "--start-at", at, "--per-second", "--out", b},
                                 lb);
  ASSERT_EQ(testing_util::WaitExit(pa), 0) << testing_util::Slurp(la);
  ASSERT_EQ(testing_util::WaitExit(pb), 0) << testing_util::Slurp(lb);
  EXPECT_NE(testing_util::Slurp(la).find("then start at"), std::string::npos);
  const std::string m = testing_util::TempFile("m.json");
  auto merge = RunPgstorsim({"merge", a, b, "--out", m});
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_NE(merge.output.find("combined: "), std::string::npos) << merge.output;
  auto ja = nlohmann::json::parse(testing_util::Slurp(a));
  auto jb = nlohmann::json::parse(testing_util::Slurp(b));
  auto jm = nlohmann::json::parse(testing_util::Slurp(m));
  EXPECT_EQ(jm["summary"]["transactions"].get<uint64_t>(),
            ja["summary"]["transactions"].get<uint64_t>() +
                jb["summary"]["transactions"].get<uint64_t>());
  EXPECT_NEAR(jm["summary"]["tps"].get<double>(),
              ja["summary"]["tps"].get<double>() + jb["summary"]["tps"].get<double>(), 1e-6);
  EXPECT_FALSE(jm["config"].contains("clients"));  // Stated once, under config.scenario.
  EXPECT_EQ(jm["config"]["scenario"]["workload.clients"], 3);
  EXPECT_EQ(jm["transaction_latency"]["count"].get<uint64_t>(),
            jm["summary"]["transactions"].get<uint64_t>());
  // The same file twice is refused as an output over an input; another --out is fine.
  auto clash = RunPgstorsim({"merge", a, b, "--out", a});
  EXPECT_NE(clash.exit_code, 0);
  for (const std::string& f : {a, b, m, la, lb, i}) unlink(f.c_str());
  testing_util::DropDatabase("pgst_drv_merge");
}

}  // namespace
}  // namespace pgstorsim
