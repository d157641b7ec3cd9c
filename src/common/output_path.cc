#include "common/output_path.h"

#include <sys/stat.h>

#include <filesystem>

namespace pgstorsim {
namespace {

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) {
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  }
  std::error_code ec;
  const auto na = std::filesystem::weakly_canonical(a, ec);
  if (ec) return false;
  const auto nb = std::filesystem::weakly_canonical(b, ec);
  return !ec && na == nb;
}

}  // namespace

Status CheckOutputPath(const std::string& option, const std::string& out,
                       const std::vector<std::string>& inputs, bool force) {
  for (const std::string& in : inputs) {
    if (!in.empty() && SameFile(out, in)) {
      return Status::Error(option + " " + out + " is also an input (" + in +
                           "); choose another output");
    }
  }
  struct stat st {};
  if (::stat(out.c_str(), &st) != 0) return Status::Ok();
  if (S_ISDIR(st.st_mode)) return Status::Error(option + " " + out + " is a directory");
  if (S_ISREG(st.st_mode) && !force) {
    return Status::Error(option + " " + out + " exists; add --force to replace it");
  }
  return Status::Ok();
}

}  // namespace pgstorsim
