#include "driver/cache_check.h"

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "pg/server.h"

namespace pgstorsim {
namespace {

constexpr double kPageBytes = 8192;

double Get(const StatCounters& c, const std::string& key) {
  auto it = c.find(key);
  return it == c.end() ? 0.0 : it->second;
}

double Ratio(double hit, double read) { return hit + read > 0 ? hit / (hit + read) : -1; }

double ReadBytesOf(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/io");
  std::string key;
  double value = 0;
  while (f >> key >> value) {
    if (key == "read_bytes:") return value;
  }
  return -1;
}

int ParentOf(const std::string& pid) {
  std::ifstream f("/proc/" + pid + "/stat");
  std::string line;
  std::getline(f, line);
  size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(line.substr(close + 2));
  char state;
  int ppid = -1;
  rest >> state >> ppid;
  return ppid;
}

}  // namespace

double ServerStorageReadBytes(int postmaster_pid) {
  double total = ReadBytesOf(postmaster_pid);
  if (total < 0) return -1;
  DIR* d = opendir("/proc");
  if (d == nullptr) return -1;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    if (ParentOf(e->d_name) != postmaster_pid) continue;
    double b = ReadBytesOf(std::atoi(e->d_name));
    if (b > 0) total += b;
  }
  closedir(d);
  return total;
}

bool CacheCheck::StartedWarm() const {
  const bool held = has_at_start && (at_start.AccountsOsFraction() >= 0.5 ||
                                     at_start.AccountsSharedFraction() >= 0.5);
  return held || accounts_hit_ratio >= 0.95 || os_hit_ratio >= 0.9;
}

std::string CacheCheck::Describe() const {
  char head[64];
  std::snprintf(head, sizeof head, "cold check (first %.1f s): ", window_s);
  const std::string start =
      has_at_start ? "cold check at start: " + at_start.Describe() + "\n" : "";
  if (!error.empty()) return start + head + "not measured: " + error;
  std::string s = start + head + "shared hit ratio " + RatioText(shared_hit_ratio) +
                  " (pgbench_accounts " + RatioText(accounts_hit_ratio) + "), OS hit ratio " +
                  RatioText(os_hit_ratio);
  if (os_hit_ratio < 0 && !os_note.empty()) s += " (" + os_note + ")";
  s += ", PostgreSQL's count of the blocks it asked for";
  char blocks[96];
  std::snprintf(blocks, sizeof blocks, "; %.0f blocks read by PostgreSQL", blocks_read);
  s += blocks;
  if (reads_per_transaction >= 0) {
    std::snprintf(blocks, sizeof blocks, " (%.2f per transaction)", reads_per_transaction);
    s += blocks;
  }
  if (StartedWarm()) s += "; WARNING: this cold run started warm";
  return s;
}

nlohmann::json CacheCheck::ToJson() const {
  return {{"window_s", window_s},
          {"shared_hit_ratio", KnownOrNull(shared_hit_ratio)},
          {"accounts_hit_ratio", KnownOrNull(accounts_hit_ratio)},
          {"os_hit_ratio", KnownOrNull(os_hit_ratio)},
          {"blocks_read", blocks_read},
          {"reads_per_transaction", KnownOrNull(reads_per_transaction)},
          {"storage_read_bytes", KnownOrNull(storage_read_bytes)},
          {"os_note", os_note},
          {"error", error},
          {"started_warm", StartedWarm()}};
}

CacheCheck ComputeCacheCheck(const StatCounters& before, const StatCounters& after,
                             double storage_read_bytes, const std::string& os_note,
                             double window_s) {
  StatCounters d = StatsDelta(before, after);
  CacheCheck c;
  c.window_s = window_s;
  const double hit = Get(d, "tables.heap_blks_hit") + Get(d, "tables.idx_blks_hit");
  const double read = Get(d, "tables.heap_blks_read") + Get(d, "tables.idx_blks_read");
  c.shared_hit_ratio = Ratio(hit, read);
  c.accounts_hit_ratio = Ratio(Get(d, "tables.pgbench_accounts.heap_blks_hit") +
                                   Get(d, "tables.pgbench_accounts.idx_blks_hit"),
                               Get(d, "tables.pgbench_accounts.heap_blks_read") +
                                   Get(d, "tables.pgbench_accounts.idx_blks_read"));
  c.blocks_read = read;
  const double commits = Get(d, "database.xact_commit");
  if (commits > 0) c.reads_per_transaction = read / commits;
  c.storage_read_bytes = storage_read_bytes;
  c.os_note = os_note;
  if (storage_read_bytes >= 0 && read > 0) {
    c.os_hit_ratio = std::clamp(1.0 - storage_read_bytes / (read * kPageBytes), 0.0, 1.0);
  } else if (storage_read_bytes >= 0) {
    c.os_note = "PostgreSQL read no block";
  }
  return c;
}

std::unique_ptr<ColdCheck> StartColdCheck(const std::string& conninfo, LocalCluster* cluster,
                                          const Residency* at_start, double window_s) {
  std::unique_ptr<ColdCheck> check(new ColdCheck());
  check->at_start_ = at_start;
  check->conninfo_ = conninfo;
  check->window_s_ = window_s;
  std::string data_dir;
  if (cluster != nullptr) {
    data_dir = cluster->DataDir();
  } else if (auto conn = Connect(conninfo); conn.ok()) {
    auto dir = QueryValue(conn->get(), "SHOW data_directory");
    if (dir.ok()) data_dir = *dir;
    if (!dir.ok()) check->os_note_ = "data_directory not readable: " + dir.status().message();
  }
  if (!data_dir.empty()) check->postmaster_pid_ = LocalPostmasterPid(data_dir, &check->os_note_);
  check->before_ = TakeSnapshot(conninfo);
  if (check->postmaster_pid_ > 0) {
    check->io_before_ = ServerStorageReadBytes(check->postmaster_pid_);
  }
  check->thread_ = std::thread([c = check.get()] { c->TakeSecond(); });
  return check;
}

void ColdCheck::TakeSecond() {
  std::this_thread::sleep_for(std::chrono::duration<double>(window_s_));
  if (postmaster_pid_ > 0) io_after_ = ServerStorageReadBytes(postmaster_pid_);
  after_ = TakeSnapshot(conninfo_);
}

ColdCheck::~ColdCheck() {
  if (thread_.joinable()) thread_.join();
}

CacheCheck ColdCheck::Finish() {
  if (thread_.joinable()) thread_.join();
  CacheCheck c;
  if (!before_.ok() || !after_.ok()) {
    c.window_s = window_s_;
    c.error = (before_.ok() ? after_.status() : before_.status()).message();
  } else {
    double io = io_before_ >= 0 && io_after_ >= 0 ? io_after_ - io_before_ : -1;
    c = ComputeCacheCheck(before_->counters, after_->counters, io, os_note_, window_s_);
  }
  c.has_at_start = at_start_ != nullptr;
  if (at_start_ != nullptr) c.at_start = *at_start_;
  return c;
}

}  // namespace pgstorsim
