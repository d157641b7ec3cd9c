// Helpers shared by the replay tests: a temporary directory removed at the end, a
// synthetic pattern trace, file reads and writes, a parity check.
#ifndef PGSTORSIM_TESTS_REPLAY_REPLAY_TEST_UTIL_H_
#define PGSTORSIM_TESTS_REPLAY_REPLAY_TEST_UTIL_H_

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "replay/parity.h"
#include "replay/pattern.h"

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

struct Trace {
  TraceHeader header;
  std::vector<TraceRecord> records;
};

// MakePatternTrace of the named pattern (replay/pattern.h); a failure fails the test.
inline Trace Pattern(const std::string& name, int64_t file_bytes, int clients, int64_t ops,
                     uint64_t seed = 3) {
  Trace t;
  PatternOptions o;
  o.name = name;
  o.file_bytes = file_bytes;
  o.clients = clients;
  o.ops_per_client = ops;
  o.seed = seed;
  Status s = MakePatternTrace(o, &t.header, &t.records);
  EXPECT_TRUE(s.ok()) << s.message();
  return t;
}

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

// XOR of the data units of every stripe equals the parity unit (RAID 5), and the
// RAID 6 Q unit equals sum g^k D_k.
inline void CheckParity(const std::vector<std::vector<uint8_t>>& m, int64_t unit, bool raid6) {
  const int n = static_cast<int>(m.size());
  const int64_t rows = static_cast<int64_t>(m[0].size()) / unit;
  int64_t nonzero_rows = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const int p = n - 1 - static_cast<int>(row % n);
    const int q = raid6 ? (p + 1) % n : -1;
    const int data = raid6 ? n - 2 : n - 1;
    std::vector<uint8_t> xp(unit, 0), xq(unit, 0);
    for (int k = 0; k < data; ++k) {
      const int member = (p + (raid6 ? 2 : 1) + k) % n;
      const uint8_t* d = m[member].data() + row * unit;
      XorInto(xp.data(), d, unit);
      if (raid6) GfMulXorInto(xq.data(), d, unit, GfPow2(k));
    }
    ASSERT_EQ(0, memcmp(xp.data(), m[p].data() + row * unit, unit)) << "P of row " << row;
    if (raid6) {
      ASSERT_EQ(0, memcmp(xq.data(), m[q].data() + row * unit, unit)) << "Q of row " << row;
    }
    nonzero_rows += m[p][row * unit] != 0;
  }
  EXPECT_GT(nonzero_rows, 0);
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_TESTS_REPLAY_REPLAY_TEST_UTIL_H_
