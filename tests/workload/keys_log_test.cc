#include "workload/keys_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

namespace pgstorsim {
namespace {

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/" + name + "-" + std::to_string(getpid());
}

TEST(KeysLogTest, RoundTripThroughFile) {
  std::string path = TempPath("keys.log");
  std::vector<KeysLogRecord> records = {
      {0, 0, 1, 1, 1, -5000, 0, 1500000, true},
      {3, 41, 9999999, 99, 10, 5000, 123456789012, 123456999999, false},
      {1, 7, 500, 0, 0, 0, -20, 30, true},
  };
  {
    auto w = OpenKeysLogWriter(path);
    ASSERT_TRUE(w.ok()) << w.status().message();
    std::string block;
    for (const auto& r : records) block += FormatKeysLogRecord(r) + "\n";
    ASSERT_TRUE((*w)->Append(block).ok());
    ASSERT_TRUE((*w)->Close().ok());
    EXPECT_FALSE((*w)->Append("x\n").ok());
  }
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "pgstorsim keys-log 1");
  auto back = ReadKeysLog(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, records);
  unlink(path.c_str());
}

TEST(KeysLogTest, FormatIsNineSpaceSeparatedIntegers) {
  EXPECT_EQ(FormatKeysLogRecord({2, 5, 77, 8, 1, -3, 10, 20, true}), "2 5 77 8 1 -3 10 20 1");
}

TEST(KeysLogTest, ParseRejectsMalformedLinesWithLineNumber) {
  auto short_line = ParseKeysLogLine("1 2 3", 7);
  ASSERT_FALSE(short_line.ok());
  EXPECT_NE(short_line.status().message().find("line 7"), std::string::npos);
  EXPECT_FALSE(ParseKeysLogLine("1 2 3 4 5 6 7 8 2", 2).ok());    // committed not 0|1
  EXPECT_FALSE(ParseKeysLogLine("1 2 3 4 5 6 7 8 1 9", 2).ok());  // extra field
  EXPECT_FALSE(ParseKeysLogLine("1 2 x 4 5 6 7 8 1", 2).ok());
}

TEST(KeysLogTest, WrongHeaderAndBadLineNameFileAndLine) {
  std::string path = TempPath("bad.log");
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 2\n";
  }
  auto r = ReadKeysLog(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(path), std::string::npos);
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 1\n0 0 1 1 1 1 0 1 1\n0 1 oops\n";
  }
  r = ReadKeysLog(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(path + ":3"), std::string::npos) << r.status().message();
  unlink(path.c_str());
}

TEST(KeysLogTest, CallbackErrorStopsStreaming) {
  std::string path = TempPath("cb.log");
  {
    std::ofstream out(path);
    out << "pgstorsim keys-log 1\n0 0 1 1 1 1 0 1 1\n0 1 1 1 1 1 0 1 1\n";
  }
  int seen = 0;
  Status s = ForEachKeysLogRecord(path, [&](const KeysLogRecord&) {
    ++seen;
    return Status::Error("stop");
  });
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(seen, 1);
  unlink(path.c_str());
}

TEST(KeysLogTest, ParsesTextSkippingBlankAndCommentLines) {
  auto ok = ParseKeysLog("pgstorsim keys-log 1\r\n# note\n3 9 1 2 1 -5 10 20 1\r\n\n", "k.log");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  ASSERT_EQ(ok->size(), 1u);
  EXPECT_EQ((*ok)[0].client, 3);
  EXPECT_EQ((*ok)[0].delta, -5);
  EXPECT_TRUE((*ok)[0].committed);
  auto bad = ParseKeysLog("pgstorsim keys-log 1\n3 9 1 2 1 -5 10 20 7\n", "k.log");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("k.log:2"), std::string::npos);
  EXPECT_FALSE(ParseKeysLog("something else\n", "k.log").ok());
  EXPECT_FALSE(ParseKeysLog("", "k.log").ok());
}

TEST(KeysLogTest, RejectsNegativeClientsAndKeys) {
  EXPECT_FALSE(ParseKeysLogLine("-1 0 1 1 1 0 0 1 1", 2).ok());
  EXPECT_FALSE(ParseKeysLogLine("0 0 -1 1 1 0 0 1 1", 2).ok());
  EXPECT_FALSE(ParseKeysLogLine("0 0 1 1 -1 0 0 1 1", 2).ok());
  EXPECT_TRUE(ParseKeysLogLine("0 0 1 0 0 0 0 1 1", 2).ok());  // select-only: tid, bid 0.
}

// The keys log is written under a temporary name: the path keeps its old content until
// the log is closed (no loss at start, no torn log after kill -9), and a log closed as
// partial says so in a comment line readers skip.
TEST(KeysLogTest, WrittenUnderATemporaryNameAndRenamedAtTheEnd) {
  const std::string path = TempPath("renamed.log");
  { std::ofstream(path) << "previous log\n"; }
  auto w = OpenKeysLogWriter(path);
  ASSERT_TRUE(w.ok()) << w.status().message();
  ASSERT_TRUE((*w)->Append(FormatKeysLogRecord({0, 0, 1, 1, 1, 5, 0, 10, true}) + "\n").ok());
  std::ifstream before(path);
  std::string line;
  std::getline(before, line);
  EXPECT_EQ(line, "previous log");  // Untouched while the run goes on.
  EXPECT_EQ(access((path + ".tmp." + std::to_string(getpid())).c_str(), F_OK), 0);
  ASSERT_TRUE((*w)->CloseAsPartial("interrupted").ok());
  EXPECT_EQ(access((path + ".tmp." + std::to_string(getpid())).c_str(), F_OK), -1);
  std::ifstream after(path);
  std::string all((std::istreambuf_iterator<char>(after)), std::istreambuf_iterator<char>());
  EXPECT_NE(all.find("\n# partial: interrupted\n"), std::string::npos) << all;
  auto back = ReadKeysLog(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->size(), 1u);
  unlink(path.c_str());
}

TEST(KeysLogTest, DestroyedWithoutCloseKeepsWhatWasLogged) {
  const std::string path = TempPath("dropped.log");
  {
    auto w = OpenKeysLogWriter(path);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Append(FormatKeysLogRecord({2, 3, 4, 5, 6, 7, 8, 9, false}) + "\n").ok());
  }
  auto back = ReadKeysLog(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->size(), 1u);
  unlink(path.c_str());
}

}  // namespace
}  // namespace pgstorsim
