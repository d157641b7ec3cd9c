// Atomic writes: a regular file is replaced whole; special files are written in place.
#include "common/file_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace pgstorsim {
namespace {

namespace fs = std::filesystem;

fs::path TempDir() {
  fs::path dir = fs::temp_directory_path() / ("file_util_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(FileUtil, ReplacesARegularFileAndCreatesParents) {
  const fs::path dir = TempDir();
  const std::string path = (dir / "a" / "b.json").string();
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new contents").ok());
  auto text = ReadFile(path);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "new contents");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir / "a")) entries += e.is_regular_file();
  EXPECT_EQ(entries, 1);  // No temporary file left behind.
  fs::remove_all(dir);
}

TEST(FileUtil, DevNullStaysACharacterDevice) {
  ASSERT_TRUE(WriteFileAtomically("/dev/null", "results nobody wants\n").ok());
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(FileUtil, FifoIsWrittenInPlace) {
  const fs::path dir = TempDir();
  const std::string fifo = (dir / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader on the other end (opened non-blocking so the writer's open succeeds).
  int rfd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rfd, 0);
  ASSERT_TRUE(WriteFileAtomically(fifo, "through the pipe").ok());
  char buf[64] = {};
  ssize_t n = ::read(rfd, buf, sizeof buf - 1);
  ::close(rfd);
  EXPECT_EQ(std::string(buf, n > 0 ? n : 0), "through the pipe");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  fs::remove_all(dir);
}

TEST(FileUtil, DirectoryIsAnErrorNamingIt) {
  const fs::path dir = TempDir();
  Status st = WriteFileAtomically(dir.string(), "x");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find(dir.string()), std::string::npos) << st.message();
  fs::remove_all(dir);
}

// "<path>.tmp.<pid>" files of killed processes are removed by the next write of <path>.
TEST(FileUtil, StaleTemporariesOfDeadProcessesAreRemoved) {
  const fs::path dir = TempDir();
  const std::string path = (dir / "r.json").string();
  // A pid that cannot exist (above pid_max's ceiling of 2^22) and this live process.
  const std::string dead = path + ".tmp.99999999";
  const std::string live = path + ".tmp." + std::to_string(getppid());
  const std::string other = path + ".tmp.notapid";
  for (const std::string& p : {dead, live, other}) ASSERT_TRUE(WriteFileAtomically(p, "x").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));   // Its process (our parent) is alive.
  EXPECT_TRUE(fs::exists(other));  // Not ours to judge.
  EXPECT_EQ(*ReadFile(path), "new");
  fs::remove_all(dir);
}

TEST(FileUtil, ReadingADirectoryIsAnError) {
  auto text = ReadFile(TempDir().string());
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("directory"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
