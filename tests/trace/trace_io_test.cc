#include "trace/trace_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/random.h"
#include "trace/trace_format.h"

namespace pgstorsim {
namespace {

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/trace_io_test_" + std::to_string(::getpid()) + "_" + name;
}

TraceHeader SampleHeader() {
  TraceHeader h;
  h.files = {{0, "pgbench_accounts", IoStream::kData, 1 << 30},
             {1, "wal", IoStream::kWal, 1 << 24}};
  h.meta = {{"scale", 7}, {"statements", {"BEGIN", "END"}}};
  return h;
}

std::vector<TraceRecord> SampleRecords(int n) {
  Random random(42);
  std::vector<TraceRecord> out;
  for (int i = 0; i < n; ++i) {
    TraceRecord r;
    r.time_ns = i * 1000 + random.UniformInt(0, 999);
    r.client = static_cast<uint32_t>(random.UniformInt(0, 63));
    r.transaction = static_cast<uint64_t>(i / 3);
    r.statement = static_cast<uint8_t>(random.UniformInt(0, 6));
    if (i % 5 == 4) {
      r.stream = IoStream::kWal;
      r.file = 1;
      r.op = IoOp::kFsync;
    } else {
      r.stream = i % 5 == 3 ? IoStream::kWal : IoStream::kData;
      r.file = r.stream == IoStream::kWal ? 1 : 0;
      r.op = i % 2 ? IoOp::kWrite : IoOp::kRead;
      r.offset_bytes = random.UniformInt(0, 1000) * 8192;
      r.length_bytes = 8192 * random.UniformInt(1, 4);
    }
    out.push_back(r);
  }
  return out;
}

void WriteTrace(const std::string& path, TraceFormat format,
                const std::vector<TraceRecord>& records) {
  auto writer = TraceWriter::Open(path, SampleHeader(), format);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  for (const TraceRecord& r : records) ASSERT_TRUE((*writer)->Append(r).ok());
  ASSERT_TRUE((*writer)->Close().ok());
}

StatusOr<std::vector<TraceRecord>> ReadAll(const std::string& path) {
  auto reader = TraceReader::Open(path);
  if (!reader.ok()) return reader.status();
  std::vector<TraceRecord> out;
  TraceRecord r;
  while (true) {
    StatusOr<bool> more = (*reader)->Next(&r);
    if (!more.ok()) return more.status();
    if (!*more) break;
    out.push_back(r);
  }
  return out;
}

void RoundTrip(TraceFormat format) {
  const std::string path = TempPath(format == TraceFormat::kText ? "rt.txt" : "rt.bin");
  const std::vector<TraceRecord> records = SampleRecords(5000);
  WriteTrace(path, format, records);
  auto reader = TraceReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ((*reader)->header().files.size(), 2u);
  EXPECT_EQ((*reader)->header().files[1].name, "wal");
  EXPECT_EQ((*reader)->header().files[1].stream, IoStream::kWal);
  EXPECT_EQ((*reader)->header().meta["scale"], 7);
  auto back = ReadAll(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, records);
  std::remove(path.c_str());
}

TEST(TraceIoTest, BinaryRoundTrip) { RoundTrip(TraceFormat::kBinary); }
TEST(TraceIoTest, TextRoundTrip) { RoundTrip(TraceFormat::kText); }

TEST(TraceIoTest, BinaryLayoutIsFixedSizeAfterTwoLines) {
  const std::string path = TempPath("layout.bin");
  WriteTrace(path, TraceFormat::kBinary, SampleRecords(10));
  std::ifstream in(path, std::ios::binary);
  std::string magic, header;
  std::getline(in, magic);
  std::getline(in, header);
  EXPECT_EQ(magic, "pgstorsim trace 1");
  std::string rest((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(rest.size(), 10 * kBinaryRecordBytes);
  std::remove(path.c_str());
}

TEST(TraceIoTest, TextFormIsReadable) {
  const std::string path = TempPath("readable.txt");
  TraceRecord r;
  r.time_ns = 1500;
  r.client = 2;
  r.transaction = 9;
  r.statement = 1;
  r.op = IoOp::kRead;
  r.offset_bytes = 16384;
  r.length_bytes = 8192;
  WriteTrace(path, TraceFormat::kText, {r});
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "pgstorsim trace 1 text");
  std::getline(in, line);
  std::getline(in, line);
  EXPECT_EQ(line, "1500 2 9 1 data read 0 16384 8192");
  std::remove(path.c_str());
}

TEST(TraceIoTest, UnclosedWriterLeavesNothing) {
  const std::string path = TempPath("unclosed.bin");
  {
    auto writer = TraceWriter::Open(path, SampleHeader(), TraceFormat::kBinary);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append(SampleRecords(1)[0]).ok());
  }
  EXPECT_FALSE(TraceReader::Open(path).ok());
}

void WriteRaw(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

TEST(TraceIoTest, TruncatedBinaryNamesFileAndRecord) {
  const std::string path = TempPath("trunc.bin");
  WriteTrace(path, TraceFormat::kBinary, SampleRecords(3));
  ASSERT_EQ(
      ::truncate(
          path.c_str(),
          static_cast<off_t>(std::ifstream(path, std::ios::ate | std::ios::binary).tellg()) - 10),
      0);
  auto back = ReadAll(path);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find(path), std::string::npos);
  EXPECT_NE(back.status().message().find("record 3"), std::string::npos) << back.status().message();
  std::remove(path.c_str());
}

TEST(TraceIoTest, CorruptBinaryRecordIsRejected) {
  const std::string path = TempPath("corrupt.bin");
  WriteTrace(path, TraceFormat::kBinary, SampleRecords(4));
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  std::string magic, header;
  std::getline(f, magic);
  std::getline(f, header);
  const std::streamoff base = f.tellg();
  f.seekp(base + static_cast<std::streamoff>(kBinaryRecordBytes + 42));  // Record 2's op.
  f.put(static_cast<char>(9));
  f.close();
  auto back = ReadAll(path);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("record 2"), std::string::npos) << back.status().message();
  std::remove(path.c_str());
}

TEST(TraceIoTest, CorruptTextNamesLine) {
  const std::string path = TempPath("corrupt.txt");
  const std::string header = HeaderToJson(SampleHeader(), TraceFormat::kText).dump();
  WriteRaw(path, "pgstorsim trace 1 text\n" + header +
                     "\n0 0 0 0 data read 0 0 8192\n# comment\n5 0 0 0 data jump 0 0 8192\n");
  auto back = ReadAll(path);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find(path + ": line 5"), std::string::npos)
      << back.status().message();
  EXPECT_NE(back.status().message().find("jump"), std::string::npos);
  // A record beyond the file's size is caught too.
  WriteRaw(path, "pgstorsim trace 1 text\n" + header + "\n0 0 0 0 wal write 1 16777216 8192\n");
  back = ReadAll(path);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("line 3"), std::string::npos);
  std::remove(path.c_str());
}

TEST(TraceIoTest, BadMagicAndHeader) {
  const std::string path = TempPath("magic.txt");
  WriteRaw(path, "fio version 3 iolog\n");
  auto r = TraceReader::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a pgstorsim trace"), std::string::npos);
  WriteRaw(path, "pgstorsim trace 2\n{}\n");
  r = TraceReader::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unsupported"), std::string::npos);
  WriteRaw(path, "pgstorsim trace 1\n{\"version\":1,\"files\":[{\"id\":0}]}\n");
  r = TraceReader::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line 2"), std::string::npos);
  EXPECT_NE(r.status().message().find("files[0]"), std::string::npos);
  std::remove(path.c_str());
  EXPECT_FALSE(TraceReader::Open(path).ok());  // Missing file.
}

// A record whose offset + length overflows int64, or whose length no buffer can hold,
// is refused by the reader (never handed to a replay worker).
TEST(TraceFormatTest, ExtentOverflowAndHugeLengthsAreRefused) {
  const TraceHeader h = SampleHeader();
  TraceRecord r;
  r.op = IoOp::kWrite;
  r.offset_bytes = INT64_MAX - 4096;
  r.length_bytes = 8192;
  Status s = CheckRecord(h, r);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("beyond"), std::string::npos) << s.message();
  r.offset_bytes = 0;
  r.length_bytes = INT64_MAX;
  EXPECT_FALSE(CheckRecord(h, r).ok());
  r.length_bytes = kMaxRecordBytes + 8192;  // Inside the 1 GiB file, but one record.
  s = CheckRecord(h, r);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("limit"), std::string::npos) << s.message();
  r.length_bytes = 8192;
  EXPECT_TRUE(CheckRecord(h, r).ok());
}

TEST(TraceFormatTest, FileSizesThatWouldOverflowAreRefused) {
  TraceHeader h = SampleHeader();
  h.files[0].size_bytes = INT64_MAX;
  EXPECT_FALSE(ValidateHeader(h).ok());
  h.files[0].size_bytes = kMaxTraceBytes;
  h.files[1].size_bytes = kMaxTraceBytes;
  Status s = ValidateHeader(h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("1 PiB"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace pgstorsim
