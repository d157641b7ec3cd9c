#include "replay/signature.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

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

uint64_t Le64(const uint8_t* p) {
  return static_cast<uint64_t>(Le32(p)) | (static_cast<uint64_t>(Le32(p + 4)) << 32);
}

constexpr uint32_t kMdMagic = 0xa92b4efc;
constexpr uint64_t kZfsUberblockMagic = 0x00bab10c;
constexpr int64_t kZfsLabelBytes = 256 * 1024;
constexpr int64_t kZfsUberblockRingOffset = 128 * 1024;

uint64_t ByteSwap64(uint64_t v) {
  uint64_t out = 0;
  for (int i = 0; i < 8; ++i) out = (out << 8) | ((v >> (8 * i)) & 0xff);
  return out;
}

// A ZFS vdev label (256 KiB) whose uberblock ring (its second half, slots of 1 KiB or
// more) holds an uberblock magic, in either byte order. `label` is the label's offset
// in `data`; false when it is not wholly inside.
bool ZfsLabelAt(const uint8_t* data, size_t size, int64_t label) {
  if (label < 0 || label + kZfsLabelBytes > static_cast<int64_t>(size)) return false;
  for (int64_t slot = kZfsUberblockRingOffset; slot < kZfsLabelBytes; slot += 1024) {
    const uint64_t v = Le64(data + label + slot);
    if (v == kZfsUberblockMagic || ByteSwap64(v) == kZfsUberblockMagic) return true;
  }
  return false;
}

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
  if (ZfsLabelAt(data, size, 0) || ZfsLabelAt(data, size, kZfsLabelBytes)) {
    return "ZFS pool member";
  }
  if (size >= 512 && data[510] == 0x55 && data[511] == 0xAA) {
    return "MBR partition table / boot sector";
  }
  return "";
}

std::string DetectEndSignature(const uint8_t* tail, size_t tail_size, int64_t device_bytes) {
  // Offsets below are from the start of the device; `base` maps them into `tail`.
  const int64_t base = device_bytes - static_cast<int64_t>(tail_size);
  auto at = [&](int64_t device_offset) { return device_offset - base; };
  auto le32_at = [&](int64_t device_offset, uint32_t value) {
    const int64_t i = at(device_offset);
    return i >= 0 && Le32At(tail, tail_size, static_cast<size_t>(i), value);
  };
  // md 0.90: the last 64 KiB-aligned 64 KiB block (MD_NEW_SIZE_SECTORS).
  const int64_t md090 = (device_bytes & ~int64_t{65535}) - 65536;
  if (md090 >= 0 && le32_at(md090, kMdMagic)) return "Linux md RAID member (0.90 superblock)";
  // md 1.0: 8 KiB from the end, rounded down to 4 KiB.
  const int64_t md10 = (device_bytes - 8192) & ~int64_t{4095};
  if (md10 >= 0 && le32_at(md10, kMdMagic)) return "Linux md RAID member (1.0 superblock)";
  // ZFS labels L2 and L3: the last two 256 KiB labels of the 256 KiB-aligned size.
  const int64_t aligned = device_bytes & ~(kZfsLabelBytes - 1);
  for (int64_t label : {aligned - 2 * kZfsLabelBytes, aligned - kZfsLabelBytes}) {
    if (label >= 0 && ZfsLabelAt(tail, tail_size, at(label))) return "ZFS pool member (end label)";
  }
  return "";
}

StatusOr<std::string> ReadSignature(int fd, int64_t device_bytes, const std::string& path) {
  const size_t head_size =
      static_cast<size_t>(std::min<int64_t>(device_bytes, kSignatureHeadBytes));
  std::vector<uint8_t> buf(std::max(kSignatureHeadBytes, kSignatureTailBytes), 0);
  const ssize_t n = pread(fd, buf.data(), head_size, 0);
  if (n < 0) return Status::Error(path + ": cannot read its first sectors: " + strerror(errno));
  std::string sig = DetectSignature(buf.data(), static_cast<size_t>(n));
  if (!sig.empty()) return sig;
  const size_t tail_size =
      static_cast<size_t>(std::min<int64_t>(device_bytes, kSignatureTailBytes));
  std::fill(buf.begin(), buf.end(), 0);
  const int64_t from = device_bytes - static_cast<int64_t>(tail_size);
  const ssize_t t = pread(fd, buf.data(), tail_size, from);
  if (t < 0) return Status::Error(path + ": cannot read its last sectors: " + strerror(errno));
  // A short read (the file shrank): only what was read is examined.
  return DetectEndSignature(buf.data(), static_cast<size_t>(t), from + static_cast<int64_t>(t));
}

}  // namespace pgstorsim
