// scripts/lab/lab-pg.sh on this machine: PostgreSQL on a throttled lab disk, started
// inside the memory and blkio cgroups, answering queries, with the scenario TOML written
// from the throttles; `down` unmounts and removes everything. Skips when not root, or
// without cgroup v1 blkio/memory, loop devices or PostgreSQL 15.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/lab_requirements.h"
#include "support/shell.h"

namespace pgstorsim {
namespace {

constexpr const char* kPgBin = "/usr/lib/postgresql/15/bin";

using Outcome = ShellResult;

Outcome Shell(const std::string& cmd) { return RunShell(cmd); }

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Value of KEY="value" in an env file written by the lab scripts.
std::string EnvValue(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + "=\"", 0) == 0)
      return line.substr(key.size() + 2, line.size() - key.size() - 3);
  }
  return "";
}

class LabPg : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = LabMissing({kLabMemoryLimit, kLabPgCtl});
    if (!missing.empty()) GTEST_SKIP() << "lab: skipped: " << missing;
    name_ = "pgstorsim-labpg-test-" + std::to_string(::getpid());
    state_ = (std::filesystem::is_directory("/dev/shm") ? "/dev/shm/" : "/tmp/") + name_;
    scenario_ = "/tmp/" + name_ + "-scenario.toml";
  }
  void TearDown() override {
    if (name_.empty()) return;
    Lab("lab-pg.sh", "down");
    Lab("lab-disks.sh", "down");
    std::filesystem::remove(scenario_);
  }
  Outcome Lab(const std::string& script, const std::string& args) {
    return Shell("PGSTORSIM_LAB_NAME=" + name_ + " PGSTORSIM_LAB_STATE=" + state_ + " " +
                 PGSTORSIM_SOURCE_DIR + "/scripts/lab/" + script + " " + args);
  }
  std::string name_, state_, scenario_;
};

TEST_F(LabPg, ServerRunsInsideTheCgroupsAndScenarioMatchesTheThrottles) {
  Outcome disks = Lab("lab-disks.sh", "up 1 256M 2000 100");
  if (disks.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << disks.output;
  ASSERT_EQ(disks.exit_code, 0) << disks.output;
  Outcome pg =
      Lab("lab-pg.sh", "up --mem 96M --shared-buffers 16M --port 5497 --scenario " + scenario_);
  if (pg.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << pg.output;
  ASSERT_EQ(pg.exit_code, 0) << pg.output;

  std::string env = state_ + "/pg.env";
  std::string data = EnvValue(env, "LAB_PG_DATA");
  std::string conninfo = EnvValue(env, "LAB_PG_CONNINFO");
  ASSERT_FALSE(data.empty()) << Slurp(env);
  Outcome q = Shell(std::string(kPgBin) + "/psql -Atc 'select 6*7' '" + conninfo + "'");
  EXPECT_EQ(q.exit_code, 0) << q.output;
  EXPECT_EQ(q.output, "42\n");

  std::string pid = Slurp(data + "/postmaster.pid");
  pid = pid.substr(0, pid.find('\n'));
  std::string cgroups = Slurp("/proc/" + pid + "/cgroup");
  EXPECT_NE(cgroups.find(":memory:/" + name_ + "-pg\n"), std::string::npos) << cgroups;
  EXPECT_NE(cgroups.find(":blkio:/" + name_ + "\n"), std::string::npos) << cgroups;
  EXPECT_EQ(Slurp("/sys/fs/cgroup/memory/" + name_ + "-pg/memory.limit_in_bytes"),
            std::to_string(96 << 20) + "\n");

  std::string toml = Slurp(scenario_);
  EXPECT_NE(toml.find("ram = \"" + std::to_string(96 << 20) + "\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("read_iops = 2000"), std::string::npos) << toml;
  EXPECT_NE(toml.find("read_bandwidth = \"100MiB\""), std::string::npos);
  EXPECT_NE(toml.find("shared_buffers = \"" + std::to_string(16 << 20) + "\""), std::string::npos);
  // The device's own latency, probed unthrottled at `up` (fio is part of the lab's set-up).
  const std::string read_us = EnvValue(env, "LAB_PG_READ_LATENCY_US");
  const std::string write_us = EnvValue(env, "LAB_PG_WRITE_LATENCY_US");
  EXPECT_NE(toml.find("read_latency = \"" + read_us + "us\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("write_latency = \"" + write_us + "us\""), std::string::npos) << toml;
  if (Shell("command -v fio").exit_code == 0) {
    EXPECT_NE(toml.find("measured by fio on the lab filesystem"), std::string::npos) << toml;
    EXPECT_GT(std::stol(read_us), 0);
    EXPECT_GT(std::stol(write_us), 0);
  }

  std::string mount = EnvValue(env, "LAB_PG_MOUNT");
  Outcome down = Lab("lab-pg.sh", "down");
  EXPECT_EQ(down.exit_code, 0) << down.output;
  EXPECT_NE(Shell("mountpoint -q " + mount).exit_code, 0) << "still mounted";
  EXPECT_FALSE(std::filesystem::exists("/sys/fs/cgroup/memory/" + name_ + "-pg"));
  EXPECT_EQ(Lab("lab-disks.sh", "down").exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(state_));
}

TEST_F(LabPg, RestartScenarioAndExecKeepTheServerInTheLab) {
  Outcome disks = Lab("lab-disks.sh", "up 1 256M 2000 100");
  if (disks.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << disks.output;
  ASSERT_EQ(disks.exit_code, 0) << disks.output;
  Outcome pg = Lab("lab-pg.sh", "up --mem 96M --shared-buffers 16M --port 5497");
  if (pg.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << pg.output;
  ASSERT_EQ(pg.exit_code, 0) << pg.output;
  const std::string env = state_ + "/pg.env";
  const std::string conninfo = EnvValue(env, "LAB_PG_CONNINFO");
  const std::string psql = std::string(kPgBin) + "/psql -Atc ";
  // Data pages are written back by the kernel, not by sync_file_range (docs/lab.md).
  Outcome flush = Shell(psql + "'show bgwriter_flush_after' '" + conninfo + "'");
  EXPECT_EQ(flush.output, "0\n");

  Outcome exec = Lab("lab-pg.sh", "exec cat /proc/self/cgroup");
  EXPECT_EQ(exec.exit_code, 0) << exec.output;
  EXPECT_NE(exec.output.find(":memory:/" + name_ + "-pg\n"), std::string::npos) << exec.output;

  std::string data = EnvValue(env, "LAB_PG_DATA");
  std::string before = Slurp(data + "/postmaster.pid");
  Outcome restart = Lab("lab-pg.sh", "restart");
  ASSERT_EQ(restart.exit_code, 0) << restart.output;
  std::string pid = Slurp(data + "/postmaster.pid");
  EXPECT_NE(pid.substr(0, pid.find('\n')), before.substr(0, before.find('\n')));
  pid = pid.substr(0, pid.find('\n'));
  EXPECT_NE(Slurp("/proc/" + pid + "/cgroup").find(":memory:/" + name_ + "-pg\n"),
            std::string::npos);
  EXPECT_EQ(Shell(psql + "'select 6*7' '" + conninfo + "'").output, "42\n");

  ASSERT_EQ(Lab("lab-disks.sh", "set-limits 500 20").exit_code, 0);
  Outcome sc = Lab("lab-pg.sh", "scenario " + scenario_ + " --scale 3");
  ASSERT_EQ(sc.exit_code, 0) << sc.output;
  std::string toml = Slurp(scenario_);
  EXPECT_NE(toml.find("read_iops = 500"), std::string::npos) << toml;
  EXPECT_NE(toml.find("read_bandwidth = \"20MiB\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("scale = 3\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("ram = \"" + std::to_string(96 << 20) + "\""), std::string::npos);
  EXPECT_NE(Lab("lab-pg.sh", "scenario " + scenario_ + " --scale 0").exit_code, 0);
}

TEST_F(LabPg, RefusesWithoutLabDisks) {
  Outcome pg = Lab("lab-pg.sh", "up --mem 96M");
  if (pg.output.find("lab: skipped:") != std::string::npos) GTEST_SKIP() << pg.output;
  EXPECT_NE(pg.exit_code, 0);
  EXPECT_NE(pg.output.find("no lab disks"), std::string::npos) << pg.output;
}

}  // namespace
}  // namespace pgstorsim
