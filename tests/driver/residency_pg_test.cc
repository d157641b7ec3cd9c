// The caches' residency of pgbench_accounts at the start of a run, measured on an
// embedded cluster in a private home: after `run --cache warm` shared_buffers
// (pg_buffercache, created in the cluster's own database) and the OS page cache
// (mincore) hold more than half of it; after `run --cache cold` less than half.
// The OS figure after a cold preparation needs drop_caches (root): the test skips that
// part, saying so, when the preparation could not drop the caches.
#include <glob.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "driver_test_util.h"

namespace pgstorsim {
namespace {

using testing_util::RunPgstorsim;
using testing_util::Slurp;

bool ServerBinariesPresent() {
  glob_t g;
  bool found = glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &g) == 0 && g.gl_pathc > 0;
  globfree(&g);
  return found;
}

class ResidencyPgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ServerBinariesPresent()) GTEST_SKIP() << "no /usr/lib/postgresql/*/bin/initdb";
    if (geteuid() == 0 && getpwnam("postgres") == nullptr) GTEST_SKIP() << "no postgres user";
    setenv("PGSTORSIM_HOME", home_.c_str(), 1);
    setenv("PGSTORSIM_CLUSTER_PORT", std::to_string(57000 + getpid() % 1000).c_str(), 1);
    for (const char* v :
         {"PGSTORSIM_DB", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"}) {
      unsetenv(v);
    }
    started_ = true;
  }
  void TearDown() override {
    if (!started_) return;
    RunPgstorsim({"cluster", "destroy"});
    testing_util::RunTool({"rm", "-rf", home_});
    unsetenv("PGSTORSIM_HOME");
    unsetenv("PGSTORSIM_CLUSTER_PORT");
  }
  // Runs `run --cache mode` and returns its sections.cache.
  nlohmann::json Run(const std::string& mode, std::string* output) {
    const std::string out = home_ + "-" + mode + ".json";
    auto r = RunPgstorsim({"run", "-c", "1", "-T", "2", "--cache", mode, "--out", out});
    *output = r.output;
    EXPECT_EQ(r.exit_code, 0) << r.output;
    nlohmann::json j = nlohmann::json::parse(Slurp(out), nullptr, false);
    unlink(out.c_str());
    if (j.is_discarded() || !j.contains("sections")) return nlohmann::json::object();
    return j["sections"]["cache"];
  }

  const std::string home_ = "/tmp/pgstorsim-residency-" + std::to_string(getpid());
  bool started_ = false;
};

double Fraction(const nlohmann::json& cache, const char* key) {
  return cache.contains(key) && cache[key].is_number() ? cache[key].get<double>() : -1;
}

TEST_F(ResidencyPgTest, WarmRunStartsResidentColdRunDoesNot) {
  auto init = RunPgstorsim({"init", "-s", "2", "--force", "--out", home_ + "-init.json"});
  ASSERT_EQ(init.exit_code, 0) << init.output;
  unlink((home_ + "-init.json").c_str());

  std::string out;
  nlohmann::json warm = Run("warm", &out);
  EXPECT_NE(out.find("cache: pgbench_accounts (heap + primary key) after the warm preparation: "
                     "shared_buffers held "),
            std::string::npos)
      << out;
  EXPECT_GT(Fraction(warm, "accounts_shared_resident_fraction"), 0.5) << warm.dump();
  EXPECT_GT(Fraction(warm, "accounts_os_resident_fraction"), 0.5) << warm.dump();
  EXPECT_GT(warm["relations_residency"]["pgbench_accounts"]["os_file_blocks"].get<int64_t>(), 0);

  nlohmann::json cold = Run("cold", &out);
  EXPECT_NE(out.find("cold check at start: pgbench_accounts (heap + primary key) after the cold "
                     "preparation: shared_buffers held "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("cold check (first 2.0 s): shared hit ratio "), std::string::npos) << out;
  // A restart empties shared_buffers whether or not the OS cache could be dropped.
  const double shared = Fraction(cold, "accounts_shared_resident_fraction");
  EXPECT_GE(shared, 0) << cold.dump();
  EXPECT_LT(shared, 0.5) << cold.dump();
  if (out.find("cache: not done: sync; echo 3 > /proc/sys/vm/drop_caches") != std::string::npos) {
    GTEST_SKIP() << "the cold preparation could not drop the OS caches (not root?), so the "
                    "OS residency after it is not checked:\n"
                 << out;
  }
  const double os = Fraction(cold, "accounts_os_resident_fraction");
  EXPECT_GE(os, 0) << cold.dump();
  EXPECT_LT(os, 0.5) << cold.dump();
}

}  // namespace
}  // namespace pgstorsim
