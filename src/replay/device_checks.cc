// Signature detection and in-use checks for block devices (see target.h).
#include <dirent.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "replay/target.h"

namespace pgstorsim {
namespace {

bool BytesAt(const uint8_t* data, size_t size, size_t offset, const void* magic, size_t len) {
  return offset + len <= size && memcmp(data + offset, magic, len) == 0;
}

uint32_t Le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

bool Le32At(const uint8_t* data, size_t size, size_t offset, uint32_t value) {
  return offset + 4 <= size && Le32(data + offset) == value;
}

struct Magic {
  const char* name;
  size_t offset;
  const char* bytes;
  size_t len;
};

// Byte-string signatures (offsets from the start of the device).
const Magic kMagics[] = {
    {"GPT partition table", 512, "EFI PART", 8},
    {"GPT partition table (4K sectors)", 4096, "EFI PART", 8},
    {"ext2/3/4 filesystem", 1080, "\x53\xEF", 2},
    {"XFS filesystem", 0, "XFSB", 4},
    {"btrfs filesystem", 65600, "_BHRfS_M", 8},
    {"LVM physical volume", 512, "LABELONE", 8},
    {"LVM physical volume", 0, "LABELONE", 8},
    {"LVM physical volume", 1024, "LABELONE", 8},
    {"LVM physical volume", 1536, "LABELONE", 8},
    {"swap space", 4086, "SWAPSPACE2", 10},
    {"swap space", 4086, "SWAP-SPACE", 10},
    {"LUKS encrypted volume", 0, "LUKS\xba\xbe", 6},
    {"NTFS filesystem", 3, "NTFS    ", 8},
    {"FAT filesystem", 54, "FAT1", 4},
    {"FAT32 filesystem", 82, "FAT32", 5},
    {"ISO 9660 filesystem", 32769, "CD001", 5},
};

}  // namespace

std::string DetectSignature(const uint8_t* data, size_t size) {
  for (const Magic& m : kMagics) {
    if (BytesAt(data, size, m.offset, m.bytes, m.len)) return m.name;
  }
  // UFS1 superblock at 8 KiB, UFS2 at 64 KiB; fs_magic is at offset 1372 in it.
  if (Le32At(data, size, 8192 + 1372, 0x00011954)) return "UFS1 filesystem";
  if (Le32At(data, size, 65536 + 1372, 0x19540119)) return "UFS2 filesystem";
  // Linux md RAID superblock v1.1 (at 0) and v1.2 (at 4 KiB).
  if (Le32At(data, size, 0, 0xa92b4efc) || Le32At(data, size, 4096, 0xa92b4efc)) {
    return "Linux md RAID member";
  }
  if (size >= 512 && data[510] == 0x55 && data[511] == 0xAA) {
    return "MBR partition table / boot sector";
  }
  return "";
}

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
