#include "common/file_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pgstorsim {
namespace {

Status WriteAll(int fd, const std::string& contents, const std::string& path) {
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoError("cannot write " + path);
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

// An existing special file (/dev/null, /dev/stdout, a FIFO) is written in place:
// renaming a temporary file over it would replace the device node.
Status WriteSpecialFile(const std::string& path, const std::string& contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open " + path);
  Status st = WriteAll(fd, contents, path);
  if (::close(fd) != 0 && st.ok()) st = ErrnoError("cannot close " + path);
  return st;
}

}  // namespace

Status MakeDirectories(const std::string& path) {
  if (path.empty()) return Status::Ok();
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return Status::Error("cannot create directory " + path + ": " + ec.message());
  return Status::Ok();
}

std::string TemporaryPath(const std::string& path) {
  return path + ".tmp." + std::to_string(::getpid());
}

int RemoveStaleTemporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.size() > 9 || pid_text.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    if (pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    if (fs::is_regular_file(it->path(), rm) && fs::remove(it->path(), rm)) ++removed;
  }
  return removed;
}

Status RenameDurably(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return ErrnoError("cannot rename onto " + to);
  const std::string dir = std::filesystem::path(to).parent_path().string();
  int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, const std::string& contents) {
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    if (S_ISDIR(existing.st_mode))
      return Status::Error("cannot write " + path + ": is a directory");
    return WriteSpecialFile(path, contents);
  }
  std::filesystem::path target(path);
  std::string dir = target.parent_path().string();
  Status st = MakeDirectories(dir);
  if (!st.ok()) return st;
  RemoveStaleTemporaries(path);
  const std::string tmp = TemporaryPath(path);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create " + tmp);
  st = WriteAll(fd, contents, tmp);
  if (st.ok() && ::fsync(fd) != 0) st = ErrnoError("cannot fsync " + tmp);
  if (::close(fd) != 0 && st.ok()) st = ErrnoError("cannot close " + tmp);
  if (st.ok()) st = RenameDurably(tmp, path);
  if (!st.ok()) ::unlink(tmp.c_str());
  return st;
}

Status WriteJsonAtomically(const std::string& path, const nlohmann::json& doc) {
  return WriteFileAtomically(path, doc.dump(2) + "\n");
}

StatusOr<std::string> ReadFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return Status::Error("cannot read " + path + ": is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return ErrnoError("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::Error("cannot read " + path);
  return ss.str();
}

StatusOr<nlohmann::json> ReadJsonFile(const std::string& path) {
  StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  nlohmann::json doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::Error(path + ": not valid JSON");
  return doc;
}

}  // namespace pgstorsim
