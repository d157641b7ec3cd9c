// The embedded cluster: created, started, reachable over its socket, stopped, destroyed.
// Needs the PostgreSQL server binaries (and, as root, the `postgres` user).
#include <glob.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pg/local_cluster.h"
#include "pg/process.h"
#include "pg/server.h"

namespace pgstorsim {
namespace {

bool ServerBinariesPresent() {
  glob_t g;
  bool found = glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &g) == 0 && g.gl_pathc > 0;
  globfree(&g);
  return found;
}

TEST(LocalClusterPgTest, LifecycleInPrivateHome) {
  if (!ServerBinariesPresent()) GTEST_SKIP() << "no /usr/lib/postgresql/*/bin/initdb";
  if (geteuid() == 0 && getpwnam("postgres") == nullptr) GTEST_SKIP() << "no postgres user";
  LocalClusterConfig config;
  config.home = "/tmp/pgstorsim-lc-test-" + std::to_string(getpid());
  config.port = 56000 + getpid() % 1000;
  auto cluster = NewLocalCluster(config);
  EXPECT_FALSE(cluster->Initialized());
  EXPECT_FALSE(cluster->Running());
  Status s = cluster->Start();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(cluster->Initialized());
  EXPECT_TRUE(cluster->Running());
  EXPECT_TRUE(cluster->Start().ok());  // Idempotent.
  {
    auto conn = Connect(cluster->Conninfo("postgres"));
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    EXPECT_EQ(*QueryValue(conn->get(), "SHOW port"), std::to_string(config.port));
    EXPECT_EQ(*QueryValue(conn->get(), "SHOW listen_addresses"), "");
    EXPECT_EQ(*QueryValue(conn->get(), "SHOW shared_preload_libraries"), "");
  }
  ASSERT_TRUE(cluster->Stop().ok());
  EXPECT_FALSE(cluster->Running());
  EXPECT_TRUE(cluster->Initialized());  // Kept between invocations.
  struct stat st;
  EXPECT_EQ(stat((cluster->DataDir() + "/pgstorsim-cluster.created").c_str(), &st), 0);
  // Destroy stops a running server first.
  ASSERT_TRUE(cluster->Start().ok());
  s = cluster->Destroy();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(cluster->Initialized());
  EXPECT_FALSE(cluster->Created());
  EXPECT_FALSE(cluster->Running());
  RunProcess({"rm", "-rf", config.home});
}

}  // namespace
}  // namespace pgstorsim
