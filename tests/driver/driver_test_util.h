// Helpers for the driver's tests: spawning the pgstorsim binary (and pgbench) without a
// shell, and fresh per-test databases on the PGSTORSIM_TEST_DB server.
#ifndef PGSTORSIM_TESTS_DRIVER_DRIVER_TEST_UTIL_H_
#define PGSTORSIM_TESTS_DRIVER_DRIVER_TEST_UTIL_H_

#include <fcntl.h>
#include <glob.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pg/server.h"

namespace pgstorsim::testing_util {

inline std::string TempFile(const std::string& name) {
  return "/tmp/pgstorsim-drvtest-" + std::to_string(getpid()) + "-" + name;
}

// Starts argv[0] with stdout+stderr to `log_path`, stdin /dev/null. Returns the pid.
inline pid_t Spawn(const std::vector<std::string>& argv, const std::string& log_path) {
  pid_t pid = fork();
  if (pid == 0) {
    int in = open("/dev/null", O_RDONLY);
    int out = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Exit code, or 128+signal when killed.
inline int WaitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Ran {
  int exit_code;
  std::string output;
};

inline Ran RunTool(std::vector<std::string> argv) {
  std::string log = TempFile("tool.log");
  int code = WaitExit(Spawn(argv, log));
  Ran r{code, Slurp(log)};
  unlink(log.c_str());
  return r;
}

inline Ran RunPgstorsim(std::vector<std::string> args) {
  args.insert(args.begin(), PGSTORSIM_BINARY);
  return RunTool(args);
}

inline std::string PgbenchPath() {
  glob_t g;
  std::string path = "pgbench";
  if (glob("/usr/lib/postgresql/*/bin/pgbench", 0, nullptr, &g) == 0 && g.gl_pathc > 0) {
    path = g.gl_pathv[g.gl_pathc - 1];
  }
  globfree(&g);
  return path;
}

// The database actually used for test database `name`: suffixed with the process id,
// because several build directories may run the same test against the shared server
// at the same time.
inline std::string UniqueDbName(const std::string& name) {
  return name + "_" + std::to_string(getpid());
}

// Drops and creates database UniqueDbName(name) on the test server; returns its
// conninfo, or "" when PGSTORSIM_TEST_DB is unset (the caller skips).
inline std::string FreshDatabase(const std::string& base_name, std::string* error) {
  const std::string name = UniqueDbName(base_name);
  const char* base = std::getenv("PGSTORSIM_TEST_DB");
  if (base == nullptr || *base == '\0') return "";
  auto conn = Connect(base);
  if (!conn.ok()) {
    *error = conn.status().message();
    return "";
  }
  Exec(conn->get(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  Status s = Exec(conn->get(), "CREATE DATABASE " + name);
  if (!s.ok()) {
    *error = s.message();
    return "";
  }
  return std::string(base) + " dbname=" + name;
}

inline void DropDatabase(const std::string& base_name) {
  const std::string name = UniqueDbName(base_name);
  const char* base = std::getenv("PGSTORSIM_TEST_DB");
  if (base == nullptr) return;
  auto conn = Connect(base);
  if (conn.ok()) Exec(conn->get(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
}

inline std::string Value(const std::string& conninfo, const std::string& sql) {
  auto conn = Connect(conninfo);
  if (!conn.ok()) return "<" + conn.status().message() + ">";
  auto v = QueryValue(conn->get(), sql);
  return v.ok() ? *v : "<" + v.status().message() + ">";
}

}  // namespace pgstorsim::testing_util

#define PGSTORSIM_FRESH_DB_OR_SKIP(var, name)                                      \
  std::string var##_error;                                                         \
  std::string var = ::pgstorsim::testing_util::FreshDatabase(name, &var##_error);  \
  if (var.empty() && var##_error.empty())                                          \
    GTEST_SKIP() << "PGSTORSIM_TEST_DB not set (scripts/test.sh starts a server)"; \
  ASSERT_FALSE(var.empty()) << var##_error

#endif  // PGSTORSIM_TESTS_DRIVER_DRIVER_TEST_UTIL_H_
