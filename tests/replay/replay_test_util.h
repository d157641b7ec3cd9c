// Helpers shared by the replay tests: a temporary directory removed at the end.
#ifndef PGSTORSIM_TESTS_REPLAY_REPLAY_TEST_UTIL_H_
#define PGSTORSIM_TESTS_REPLAY_REPLAY_TEST_UTIL_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pgstorsim {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/pgstorsim-replay-XXXXXX";
    path_ = mkdtemp(tmpl) ? tmpl : "";
  }
  ~TempDir() {
    if (!path_.empty()) {
      const std::string cmd = "rm -rf '" + path_ + "'";
      if (system(cmd.c_str()) != 0) ADD_FAILURE() << "cannot remove " << path_;
    }
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline std::vector<uint8_t> ReadAll(const std::string& path) {
  std::vector<uint8_t> out;
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return out;
  uint8_t buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) out.insert(out.end(), buf, buf + n);
  close(fd);
  return out;
}

inline void WriteFile(const std::string& path, const std::vector<uint8_t>& data) {
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  close(fd);
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_REPLAY_REPLAY_TEST_UTIL_H_
