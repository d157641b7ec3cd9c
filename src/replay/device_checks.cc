// In-use checks for block devices (see target.h).
#include <dirent.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "replay/target.h"

namespace pgstorsim {
namespace {

std::string DevNumber(unsigned major_id, unsigned minor_id) {
  return std::to_string(major_id) + ":" + std::to_string(minor_id);
}

bool IsMounted(const std::string& dev) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, majmin;
    fields >> id >> parent >> majmin;
    if (majmin == dev) return true;
  }
  return false;
}

bool HasHolders(const std::string& sys_dir) {
  DIR* d = opendir((sys_dir + "/holders").c_str());
  if (d == nullptr) return false;
  bool any = false;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') any = true;
  }
  closedir(d);
  return any;
}

std::string ReadDevFile(const std::string& path) {
  std::ifstream in(path);
  std::string value;
  in >> value;
  return value;
}

std::string CheckOne(const std::string& dev, const std::string& sys_dir) {
  if (IsMounted(dev)) return "device " + dev + " is mounted";
  if (HasHolders(sys_dir))
    return "device " + dev + " is held by another device (" + sys_dir + "/holders)";
  return "";
}

}  // namespace

std::string DeviceInUseReason(unsigned major_id, unsigned minor_id) {
  const std::string dev = DevNumber(major_id, minor_id);
  const std::string sys_dir = "/sys/dev/block/" + dev;
  std::string why = CheckOne(dev, sys_dir);
  if (!why.empty()) return why;
  // Partitions are subdirectories that contain a "partition" file.
  DIR* d = opendir(sys_dir.c_str());
  if (d == nullptr) return "";
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string sub = sys_dir + "/" + e->d_name;
    struct stat st;
    if (stat((sub + "/partition").c_str(), &st) != 0) continue;
    const std::string part_dev = ReadDevFile(sub + "/dev");
    why = CheckOne(part_dev, sub);
    if (!why.empty()) {
      why = "partition " + std::string(e->d_name) + " of it: " + why;
      break;
    }
  }
  closedir(d);
  return why;
}

}  // namespace pgstorsim
