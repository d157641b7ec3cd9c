// `cluster destroy` removes only a directory `cluster start` created: a user's data/
// folder, a foreign PostgreSQL data directory or a symlink are refused, untouched.
// Needs no server binaries: the refusals come before any pg_ctl call.
#include "pg/local_cluster.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "support/shell.h"

namespace pgstorsim {
namespace {

class Home {
 public:
  Home() {
    char tmpl[] = "/tmp/pgstorsim-home-XXXXXX";
    path_ = mkdtemp(tmpl) ? tmpl : "";
  }
  ~Home() { RunShell("rm -rf '" + path_ + "'"); }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(File(name)) << text;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

std::unique_ptr<LocalCluster> ClusterIn(const Home& home) {
  LocalClusterConfig config;
  config.home = home.path();
  return NewLocalCluster(config);
}

// PGSTORSIM_HOME=DIR pgstorsim cluster destroy never removes a DIR/data it did not create.
TEST(LocalClusterTest, DestroyRefusesAUsersFolder) {
  Home home;
  ASSERT_EQ(mkdir(home.File("data").c_str(), 0755), 0);
  home.Write("data/thesis.tex", "years of work\n");
  ShellResult r =
      RunShell("PGSTORSIM_HOME=" + home.path() + " " + PGSTORSIM_BINARY + " cluster destroy");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("pgstorsim cluster: refusing to remove " + home.File("data"), 0), 0)
      << r.output;
  EXPECT_NE(r.output.find("no PG_VERSION"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_TRUE(Exists(home.File("data/thesis.tex")));
}

TEST(LocalClusterTest, DestroyRefusesADataDirectoryItDidNotCreate) {
  Home home;
  ASSERT_EQ(mkdir(home.File("data").c_str(), 0700), 0);
  home.Write("data/PG_VERSION", "15\n");
  Status s = ClusterIn(home)->Destroy();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("did not create it"), std::string::npos) << s.message();
  EXPECT_TRUE(Exists(home.File("data/PG_VERSION")));
}

TEST(LocalClusterTest, DestroyRefusesASymlink) {
  Home home, other;
  ASSERT_EQ(mkdir(other.File("real").c_str(), 0700), 0);
  other.Write("real/PG_VERSION", "15\n");
  other.Write("real/pgstorsim-cluster.created", "x\n");
  ASSERT_EQ(symlink(other.File("real").c_str(), home.File("data").c_str()), 0);
  Status s = ClusterIn(home)->Destroy();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("symbolic link"), std::string::npos) << s.message();
  EXPECT_TRUE(Exists(other.File("real/PG_VERSION")));
}

TEST(LocalClusterTest, DestroyOfNothingSaysSo) {
  Home home;
  EXPECT_FALSE(ClusterIn(home)->Created());
  ShellResult r =
      RunShell("PGSTORSIM_HOME=" + home.path() + " " + PGSTORSIM_BINARY + " cluster destroy");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("nothing to destroy"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace pgstorsim
