// Checks that keep the replayer off regular files that belong to something live: a
// PostgreSQL data directory and an attached loop device's backing file (see target.h).
#include <glob.h>
#include <sys/stat.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>

#include "replay/target.h"

namespace pgstorsim {
namespace {

bool AllDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// "16399", "16399.1", "16399_fsm", "16399_vm.2", "16399_init": a relation file name.
bool RelationFileName(const std::string& name) {
  std::string base = name.substr(0, name.find('.'));
  if (base.size() < name.size() && !AllDigits(name.substr(base.size() + 1))) return false;
  for (const char* fork : {"_fsm", "_vm", "_init"}) {
    const std::string f = fork;
    if (base.size() > f.size() && base.compare(base.size() - f.size(), f.size(), f) == 0) {
      base.resize(base.size() - f.size());
      break;
    }
  }
  return AllDigits(base);
}

}  // namespace

std::string PostgresFileReason(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(path, ec);
  if (ec) return "";
  for (fs::path dir = real.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "PG_VERSION", ec)) {
      return "it is inside a PostgreSQL data directory (" + (dir / "PG_VERSION").string() + ")";
    }
    if (dir == dir.root_path()) break;
  }
  // Tablespaces hold no PG_VERSION: <location>/PG_<v>_<catversion>/<db oid>/<relfilenode>.
  const std::string parent = real.parent_path().filename().string();
  const std::string grand = real.parent_path().parent_path().filename().string();
  if (RelationFileName(real.filename().string()) &&
      (parent == "global" || (AllDigits(parent) && grand.rfind("PG_", 0) == 0))) {
    return "it looks like a PostgreSQL relation file (" + real.string() + ")";
  }
  return "";
}

std::string LoopBackingFileReason(const struct stat& st) {
  glob_t g;
  std::string why;
  if (glob("/sys/block/loop*/loop/backing_file", 0, nullptr, &g) != 0) return "";
  for (size_t i = 0; i < g.gl_pathc && why.empty(); ++i) {
    std::ifstream in(g.gl_pathv[i]);
    std::string backing;
    std::getline(in, backing);
    struct stat bst;
    if (backing.empty() || stat(backing.c_str(), &bst) != 0) continue;
    if (bst.st_dev == st.st_dev && bst.st_ino == st.st_ino) {
      const std::string dev = std::string(g.gl_pathv[i]).substr(11);  // After "/sys/block/".
      why = "it is the backing file of /dev/" + dev.substr(0, dev.find('/'));
    }
  }
  globfree(&g);
  return why;
}

}  // namespace pgstorsim
