// ProbeHostFacts: what this machine tells about the storage under a data directory
// (probe.h).
#include <signal.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <sstream>

#include "common/file_util.h"
#include "probe/probe.h"

namespace pgstorsim {
namespace {

std::string Trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n");
  size_t e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The file's text trimmed, "" when unreadable.
std::string Slurp(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? Trimmed(*text) : "";
}

Fact Detected(const std::string& key, const std::string& value, const std::string& source) {
  return {key, value, FactOrigin::kDetected, source};
}
Fact Unknown(const std::string& key, const std::string& why) {
  return {key, "", FactOrigin::kUnknown, why};
}

struct Mount {
  std::string point;
  std::string fstype;
  std::string source;
};

// The mount holding `path` (longest mount point that prefixes it) from mountinfo.
bool FindMount(const std::string& mountinfo, const std::string& path, Mount* out) {
  std::istringstream in(mountinfo);
  std::string line;
  size_t best = 0;
  bool found = false;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string id, parent, devno, root, point, field;
    f >> id >> parent >> devno >> root >> point;
    while (f >> field && field != "-") {
    }
    Mount m;
    m.point = point;
    f >> m.fstype >> m.source;
    const bool prefix = path.compare(0, point.size(), point) == 0 &&
                        (path.size() == point.size() || point == "/" || path[point.size()] == '/');
    if (prefix && point.size() >= best) {
      best = point.size();
      *out = m;
      found = true;
    }
  }
  return found;
}

std::string Real(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) != nullptr ? buf : path;
}

void AddMemoryAndCpus(const HostPaths& p, std::vector<Fact>* facts) {
  std::istringstream mem(Slurp(p.proc + "/meminfo"));
  std::string key;
  long long kb = 0;
  std::string unit;
  while (mem >> key >> kb >> unit) {
    if (key == "MemTotal:") {
      facts->push_back(Detected("host.ram", std::to_string(kb * 1024), p.proc + "/meminfo MemTotal"));
      break;
    }
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores > 0) {
    facts->push_back(Detected("host.cpu_cores", std::to_string(cores),
                              "sysconf(_SC_NPROCESSORS_ONLN)"));
  }
}

// The kernel's dirty thresholds now (/proc/vmstat, in pages): the sysctls' ratios of
// the memory the page cache can use, or their *_bytes settings.
void AddDirtyThresholds(const HostPaths& p, std::vector<Fact>* facts) {
  std::istringstream vmstat(Slurp(p.proc + "/vmstat"));
  const long page = sysconf(_SC_PAGESIZE);
  std::string key;
  long long pages = 0;
  while (vmstat >> key >> pages) {
    const char* scenario_key = key == "nr_dirty_background_threshold" ? "host.dirty_background"
                               : key == "nr_dirty_threshold"          ? "host.dirty_limit"
                                                                      : nullptr;
    if (scenario_key == nullptr || pages <= 0 || page <= 0) continue;
    facts->push_back(Detected(scenario_key, std::to_string(pages * page),
                              p.proc + "/vmstat " + key + " x " + std::to_string(page) + " B"));
  }
}

// Queue facts of whole disk `disk` (e.g. "vda", "md0").
void AddQueue(const HostPaths& p, const std::string& disk, std::vector<Fact>* facts) {
  const std::string q = p.sys + "/block/" + disk + "/queue/";
  std::string ra = Slurp(q + "read_ahead_kb");
  if (!ra.empty()) {
    facts->push_back(Detected("filesystem.os_readahead", std::to_string(std::atoll(ra.c_str()) * 1024),
                              q + "read_ahead_kb = " + ra));
  }
  std::string sched = Slurp(q + "scheduler");
  if (!sched.empty()) facts->push_back(Detected("io.scheduler", SelectedScheduler(sched), q + "scheduler"));
  std::string depth = Slurp(p.sys + "/block/" + disk + "/device/queue_depth");
  if (!depth.empty()) {
    facts->push_back(Detected("io.queue_depth", depth, "/sys/block/" + disk + "/device/queue_depth"));
  } else if (std::string nr = Slurp(q + "nr_requests"); !nr.empty()) {
    facts->push_back(Detected("io.queue_depth", nr,
                              q + "nr_requests (the block layer's queue; no device queue_depth)"));
  }
}

// The whole disk a member or partition name belongs to ("sda1" -> "sda").
std::string DiskOf(const HostPaths& p, const std::string& dev) {
  std::string real = Real(p.sys + "/class/block/" + dev);
  if (Slurp(real + "/partition").empty()) return dev;
  std::string parent = real.substr(0, real.rfind('/'));
  return parent.substr(parent.rfind('/') + 1);
}

void AddDiskType(const HostPaths& p, const std::string& disk, const std::string& why,
                 std::vector<Fact>* facts) {
  const std::string path = p.sys + "/block/" + disk + "/queue/rotational";
  std::string rot = Slurp(path);
  if (rot.empty()) {
    facts->push_back(Unknown("disks.type", path + " not readable"));
    return;
  }
  facts->push_back(Detected("disks.type", rot == "1" ? "hdd" : "ssd", path + " = " + rot + why));
}

void AddMd(const HostPaths& p, const std::string& md, std::vector<Fact>* facts) {
  const std::string dir = p.sys + "/block/" + md + "/md/";
  std::string level = Slurp(dir + "level");
  std::string chunk = Slurp(dir + "chunk_size");
  std::string disks = Slurp(dir + "raid_disks");
  std::string mdstat_level;
  std::vector<std::string> members;
  ParseMdstat(Slurp(p.proc + "/mdstat"), md, &mdstat_level, &members);
  if (level.empty()) level = mdstat_level;
  if (!level.empty()) facts->push_back(Detected("array.level", level, dir + "level"));
  if (!chunk.empty() && chunk != "0") facts->push_back(Detected("array.stripe", chunk, dir + "chunk_size"));
  if (!disks.empty()) facts->push_back(Detected("array.disks", disks, dir + "raid_disks"));
  std::string names;
  for (const std::string& m : members) names += (names.empty() ? "" : ",") + m;
  facts->push_back(Detected("array.members", names, p.proc + "/mdstat"));
  facts->push_back({"controller.kind", "hba", FactOrigin::kAssumed,
                    "Linux software RAID: the disks hang off a plain HBA"});
  if (!members.empty()) AddDiskType(p, DiskOf(p, members[0]), " (first member)", facts);
}

void AddDevice(const HostPaths& p, dev_t dev, std::vector<Fact>* facts) {
  const std::string devno = std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  const std::string link = p.sys + "/dev/block/" + devno;
  std::string real = Real(link);
  std::string name = real.substr(real.rfind('/') + 1);
  if (Slurp(link + "/dev").empty()) {
    for (const char* k : {"filesystem.partition_offset", "filesystem.os_readahead",
                          "io.scheduler", "io.queue_depth", "disks.type", "array.level"}) {
      facts->push_back(Unknown(k, "no block device behind the filesystem (device " + devno + ")"));
    }
    return;
  }
  std::string disk = name;
  std::string start = Slurp(link + "/start");
  if (!Slurp(link + "/partition").empty()) {
    std::string parent = real.substr(0, real.rfind('/'));
    disk = parent.substr(parent.rfind('/') + 1);
    facts->push_back(Detected("filesystem.partition_offset",
                              std::to_string(std::atoll(start.c_str()) * 512),
                              link + "/start = " + start + " sectors (" + name + " on " + disk + ")"));
  } else {
    facts->push_back(Detected("filesystem.partition_offset", "0", name + " is a whole disk"));
  }
  facts->push_back(Detected("device.name", disk, link));
  AddQueue(p, disk, facts);
  if (disk.rfind("md", 0) == 0 && !Slurp(p.sys + "/block/" + disk + "/md/level").empty()) {
    AddMd(p, disk, facts);
    return;
  }
  facts->push_back({"array.level", "jbod", FactOrigin::kAssumed,
                    disk + " is not an md array: one device (a hardware RAID behind it is not "
                           "visible from here)"});
  facts->push_back({"array.disks", "1", FactOrigin::kAssumed, "one device"});
  facts->push_back({"controller.kind", "hba", FactOrigin::kAssumed,
                    "no RAID controller visible from Linux"});
  AddDiskType(p, disk, "", facts);
}

}  // namespace

bool ParseMdstat(const std::string& mdstat, const std::string& md, std::string* level,
                 std::vector<std::string>* members) {
  std::istringstream in(mdstat);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string name, colon, state, word;
    if (!(f >> name >> colon) || name != md || colon != ":") continue;
    f >> state;  // active / inactive
    members->clear();
    while (f >> word) {
      if (word.rfind("raid", 0) == 0 || word == "linear") {
        *level = word;
        continue;
      }
      if (word[0] == '(') continue;  // (read-only), (auto-read-only)
      size_t bracket = word.find('[');
      if (bracket != std::string::npos) members->push_back(word.substr(0, bracket));
    }
    return true;
  }
  return false;
}

std::string SelectedScheduler(const std::string& text) {
  size_t open = text.find('[');
  size_t close = text.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return Trimmed(text);
  return text.substr(open + 1, close - open - 1);
}

bool ServerIsLocal(const std::string& data_directory, const HostPaths& paths) {
  if (data_directory.empty()) return false;
  std::string pid = Slurp(data_directory + "/postmaster.pid");
  pid = pid.substr(0, pid.find('\n'));
  if (pid.empty()) return false;
  struct stat st {};
  return stat((paths.proc + "/" + pid).c_str(), &st) == 0;
}

std::vector<Fact> ProbeHostFacts(const std::string& data_directory, const HostPaths& p) {
  std::vector<Fact> facts;
  AddMemoryAndCpus(p, &facts);
  AddDirtyThresholds(p, &facts);
  const std::string dir = Real(data_directory);
  Mount m;
  if (FindMount(Slurp(p.proc + "/self/mountinfo"), dir, &m)) {
    facts.push_back(Detected("filesystem.type", m.fstype,
                             "/proc/self/mountinfo: " + m.source + " on " + m.point));
  } else {
    facts.push_back(Unknown("filesystem.type", "no mount found for " + dir));
  }
  struct statfs fs {};
  if (statfs(dir.c_str(), &fs) == 0) {
    facts.push_back(Detected("filesystem.block_size", std::to_string(fs.f_bsize),
                             "statfs(" + dir + ").f_bsize"));
    facts.push_back(Detected("filesystem.fragment_size", std::to_string(fs.f_frsize),
                             "statfs(" + dir + ").f_frsize"));
  }
  struct stat data {}, wal {};
  if (stat(dir.c_str(), &data) != 0) return facts;
  std::string wal_dir = Real(dir + "/pg_wal");
  if (stat(wal_dir.c_str(), &wal) == 0) {
    facts.push_back(Detected("postgres.wal_on_data_volume", wal.st_dev == data.st_dev ? "on" : "off",
                             "pg_wal is " + wal_dir));
  }
  AddDevice(p, data.st_dev, &facts);
  return facts;
}

}  // namespace pgstorsim
