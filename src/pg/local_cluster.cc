#include "pg/local_cluster.h"

#include <glob.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "common/file_util.h"
#include "pg/process.h"

namespace pgstorsim {
namespace {

constexpr const char* kCreatedMarker = "pgstorsim-cluster.created";

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// Newest /usr/lib/postgresql/<v>/bin with initdb, else `pg_config --bindir`.
std::string DiscoverBinDir() {
  glob_t g;
  std::vector<std::string> dirs;
  if (glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &g) == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      std::string p = g.gl_pathv[i];
      dirs.push_back(p.substr(0, p.size() - std::string("/initdb").size()));
    }
  }
  globfree(&g);
  auto version_of = [](const std::string& d) {
    return std::atoi(d.c_str() + std::string("/usr/lib/postgresql/").size());
  };
  std::sort(dirs.begin(), dirs.end(), [&](const std::string& a, const std::string& b) {
    return version_of(a) < version_of(b);
  });
  if (!dirs.empty()) return dirs.back();
  auto r = RunProcess({"pg_config", "--bindir"});
  if (r.ok() && r->exit_code == 0) {
    std::string out = r->output.substr(0, r->output.find('\n'));
    if (FileExists(out + "/initdb")) return out;
  }
  return "";
}

std::string CurrentUserName() {
  struct passwd* pw = getpwuid(geteuid());
  return pw != nullptr ? pw->pw_name : "postgres";
}

class LocalClusterImpl : public LocalCluster {
 public:
  explicit LocalClusterImpl(LocalClusterConfig config) : config_(std::move(config)) {
    if (config_.bin_dir.empty()) config_.bin_dir = DiscoverBinDir();
    if (config_.run_user.empty() && geteuid() == 0) config_.run_user = "postgres";
  }

  Status Start() override {
    if (config_.bin_dir.empty()) {
      return Status::Error(
          "no PostgreSQL server binaries (initdb) under /usr/lib/postgresql/*/bin "
          "or pg_config --bindir; install postgresql");
    }
    if (!Initialized()) {
      Status s = InitDb();
      if (!s.ok()) return s;
    }
    if (Running()) return Status::Ok();
    return RunTool(
        {"pg_ctl", "-D", DataDir(), "-w", "-t", "60", "-l", config_.home + "/server.log", "start"},
        "pg_ctl start (see " + config_.home + "/server.log)");
  }

  Status Stop() override {
    if (!Running()) return Status::Ok();
    return RunTool({"pg_ctl", "-D", DataDir(), "-w", "-m", "fast", "stop"}, "pg_ctl stop");
  }

  Status Restart() override {
    Status s = Stop();
    return s.ok() ? Start() : s;
  }

  Status Destroy() override {
    const std::string why = NotOursReason();
    if (!why.empty()) return Status::Error("refusing to remove " + DataDir() + ": " + why);
    Status s = Stop();
    if (!s.ok()) return s.WithContext("not removed: the server did not stop");
    std::error_code ec;
    std::filesystem::remove_all(DataDir(), ec);
    if (ec) return Status::Error("cannot remove " + DataDir() + ": " + ec.message());
    return Status::Ok();
  }

  bool Initialized() const override { return FileExists(DataDir() + "/PG_VERSION"); }

  bool Created() const override {
    struct stat st;
    return lstat(DataDir().c_str(), &st) == 0;
  }

  bool Running() const override {
    if (!Initialized() || config_.bin_dir.empty()) return false;
    auto r = RunProcess(Command({"pg_ctl", "-D", DataDir(), "status"}));
    return r.ok() && r->exit_code == 0;
  }

  std::string Conninfo(const std::string& dbname) const override {
    return "host=" + config_.home + " port=" + std::to_string(config_.port) + " dbname=" + dbname +
           " user=" + SuperUser();
  }
  std::string DataDir() const override { return config_.home + "/data"; }
  const LocalClusterConfig& config() const override { return config_; }

 private:
  std::string SuperUser() const {
    return config_.run_user.empty() ? CurrentUserName() : config_.run_user;
  }

  std::vector<std::string> Command(std::vector<std::string> tool_argv) const {
    tool_argv[0] = config_.bin_dir + "/" + tool_argv[0];
    if (config_.run_user.empty() || config_.run_user == CurrentUserName()) return tool_argv;
    std::vector<std::string> argv = {"runuser", "-u", config_.run_user, "--"};
    argv.insert(argv.end(), tool_argv.begin(), tool_argv.end());
    return argv;
  }

  Status RunTool(const std::vector<std::string>& tool_argv, const std::string& what) const {
    auto r = RunProcess(Command(tool_argv));
    if (!r.ok()) return r.status().WithContext(what);
    if (r->exit_code != 0) {
      std::string out = r->output;
      while (!out.empty() && out.back() == '\n') out.pop_back();
      std::replace(out.begin(), out.end(), '\n', ' ');
      return Status::Error(what + " failed (exit " + std::to_string(r->exit_code) + "): " + out);
    }
    return Status::Ok();
  }

  std::string MarkerPath() const { return DataDir() + "/" + kCreatedMarker; }

  // "" when DataDir() is a real directory that initdb filled (PG_VERSION) and this
  // class marked after it; else why it may not be removed.
  std::string NotOursReason() const {
    struct stat st;
    if (lstat(DataDir().c_str(), &st) != 0) return "it does not exist";
    if (S_ISLNK(st.st_mode)) return "it is a symbolic link, not a directory pgstorsim created";
    if (!S_ISDIR(st.st_mode)) return "it is not a directory";
    if (!FileExists(DataDir() + "/PG_VERSION")) {
      return "it is not a PostgreSQL data directory (no PG_VERSION); remove it yourself if "
             "it is not needed";
    }
    if (lstat(MarkerPath().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      return "`pgstorsim cluster` did not create it (no " + MarkerPath() +
             "); remove it yourself if it is not needed";
    }
    return "";
  }

  Status InitDb() {
    Status s = MakeDirectories(config_.home);
    if (!s.ok()) return s;
    if (!config_.run_user.empty() && geteuid() == 0) {
      struct passwd* pw = getpwnam(config_.run_user.c_str());
      if (pw == nullptr) return Status::Error("user '" + config_.run_user + "' does not exist");
      if (chown(config_.home.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        return Status::Error("cannot chown " + config_.home + " to " + config_.run_user);
      }
    }
    s = RunTool({"initdb", "-D", DataDir(), "-A", "trust", "-U", SuperUser(), "-E", "UTF8"},
                "initdb " + DataDir());
    if (!s.ok()) return s;
    std::ofstream conf(DataDir() + "/postgresql.conf", std::ios::app);
    conf << "\n# pgstorsim embedded cluster\n"
         << "listen_addresses = ''\n"
         << "unix_socket_directories = '" << config_.home << "'\n"
         << "port = " << config_.port << "\n"
         << "shared_preload_libraries = ''\n";
    if (!conf.good()) return Status::Error("cannot append to " + DataDir() + "/postgresql.conf");
    // Written last: only a directory initdb created for us carries it (Destroy checks).
    std::ofstream marker(MarkerPath());
    marker << "created by pgstorsim (cluster start / embedded server); "
           << "`pgstorsim cluster destroy` may remove this directory\n";
    if (!marker.good()) return Status::Error("cannot write " + MarkerPath());
    return Status::Ok();
  }

  LocalClusterConfig config_;
};

}  // namespace

LocalClusterConfig DefaultLocalClusterConfig() {
  LocalClusterConfig config;
  const char* home = std::getenv("PGSTORSIM_HOME");
  config.home = home != nullptr && *home != '\0' ? home : "/var/tmp/pgstorsim-cluster";
  const char* port = std::getenv("PGSTORSIM_CLUSTER_PORT");
  if (port != nullptr && std::atoi(port) > 0) config.port = std::atoi(port);
  return config;
}

std::unique_ptr<LocalCluster> NewLocalCluster(const LocalClusterConfig& config) {
  return std::make_unique<LocalClusterImpl>(config);
}

}  // namespace pgstorsim
