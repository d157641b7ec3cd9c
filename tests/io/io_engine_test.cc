#include "io/io_engine.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "io/io_core.h"

namespace pgstorsim {
namespace {

class IoEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/pgstorsim-io-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/target";
    const int fd = open(path_.c_str(), O_CREAT | O_RDWR, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, 1 << 20), 0);
    close(fd);
  }
  void TearDown() override {
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }

  // Writes 16 distinct pages in one batch, fsyncs, reads them back in another batch
  // and checks content, timestamps and counters.
  void WriteReadBack(IoEngine* engine, bool direct) {
    ASSERT_TRUE(engine->Open({{path_, true, direct}}).ok());
    DeviceStats stats(1);
    IoCore core(engine, &stats);
    constexpr int kPages = 16;
    AlignedBuffer out(kPages * 8192), in(kPages * 8192);
    std::vector<IoRequest> reqs(kPages);
    std::vector<IoRequest*> batch;
    for (int i = 0; i < kPages; ++i) {
      memset(out.data() + i * 8192, 'a' + i, 8192);
      reqs[i] = IoRequest{0, IoDirection::kWrite, (kPages - 1 - i) * 8192LL * 3, 8192,
                          out.data() + i * 8192};
      batch.push_back(&reqs[i]);
    }
    const int64_t start = MonotonicNowNs();
    ASSERT_TRUE(core.RunBatch(batch).ok());
    IoRequest sync{0, IoDirection::kFsync};
    ASSERT_TRUE(core.RunOne(&sync).ok());
    EXPECT_EQ(sync.result, 0);
    for (int i = 0; i < kPages; ++i) {
      EXPECT_EQ(reqs[i].result, 8192);
      EXPECT_GE(reqs[i].issue_ns, start);
      EXPECT_GE(reqs[i].complete_ns, reqs[i].issue_ns);
      reqs[i].direction = IoDirection::kRead;
      reqs[i].buffer = in.data() + i * 8192;
    }
    ASSERT_TRUE(core.RunBatch(batch).ok());
    for (int i = 0; i < kPages; ++i) {
      EXPECT_EQ(reqs[i].result, 8192);
      EXPECT_EQ(in.data()[i * 8192], 'a' + i);
      EXPECT_EQ(in.data()[i * 8192 + 8191], 'a' + i);
    }
    const DeviceCounters c = stats.Get(0);
    EXPECT_EQ(c.writes, static_cast<uint64_t>(kPages));
    EXPECT_EQ(c.reads, static_cast<uint64_t>(kPages));
    EXPECT_EQ(c.fsyncs, 1u);
    EXPECT_EQ(c.bytes_written, kPages * 8192u);
    EXPECT_EQ(c.errors, 0u);
    EXPECT_EQ(c.in_flight, 0);
    EXPECT_GT(c.busy_ns, 0);
    EXPECT_LE(c.busy_ns, MonotonicNowNs() - start);
  }

  // Runs `body` once per real engine (psync, and io_uring where available) opened on
  // the target with O_DIRECT, with fresh counters.
  void ForEachEngine(bool writable, const std::function<void(IoCore&, DeviceStats&)>& body) {
    for (const char* name : {"psync", "io_uring"}) {
      auto engine = CreateIoEngine(name, 4);
      if (!engine.ok()) continue;
      SCOPED_TRACE(name);
      ASSERT_TRUE((*engine)->Open({{path_, writable, true}}).ok());
      DeviceStats stats(1);
      IoCore core(engine->get(), &stats);
      body(core, stats);
    }
  }

  std::string dir_;
  std::string path_;
};

TEST_F(IoEngineTest, PsyncWritesAndReadsBack) {
  auto engine = CreateIoEngine("psync", 1);
  ASSERT_TRUE(engine.ok());
  WriteReadBack(engine->get(), true);
}

TEST_F(IoEngineTest, UringWritesAndReadsBack) {
  auto engine = CreateIoEngine("io_uring", 8);
  if (!engine.ok()) GTEST_SKIP() << "io_uring not available here: " << engine.status().message();
  WriteReadBack(engine->get(), true);
}

TEST_F(IoEngineTest, NullEngineCompletesWithoutIo) {
  auto engine = CreateIoEngine("null", 1);
  ASSERT_TRUE(engine.ok());
  ASSERT_TRUE((*engine)->Open({{path_, true, true}}).ok());
  DeviceStats stats(1);
  IoCore core(engine->get(), &stats);
  AlignedBuffer buf(8192);
  memset(buf.data(), 'z', 8192);
  IoRequest w{0, IoDirection::kWrite, 0, 8192, buf.data()};
  ASSERT_TRUE(core.RunOne(&w).ok());
  EXPECT_EQ(w.result, 8192);
  // Nothing reached the file.
  char first = 1;
  const int fd = open(path_.c_str(), O_RDONLY);
  ASSERT_EQ(pread(fd, &first, 1, 0), 1);
  close(fd);
  EXPECT_EQ(first, 0);
  EXPECT_EQ(stats.Get(0).writes, 1u);
}

TEST_F(IoEngineTest, ErrorsAndShortTransfersAreCounted) {
  ForEachEngine(false, [](IoCore& core, DeviceStats& stats) {
    AlignedBuffer buf(16384);
    IoRequest write_on_readonly{0, IoDirection::kWrite, 0, 8192, buf.data()};
    IoRequest past_end{0, IoDirection::kRead, (1 << 20) - 8192, 16384, buf.data()};
    IoRequest bad_target{3, IoDirection::kRead, 0, 8192, buf.data()};
    ASSERT_TRUE(core.RunBatch({&write_on_readonly, &past_end}).ok());
    ASSERT_TRUE(core.RunOne(&bad_target).ok());
    EXPECT_LT(write_on_readonly.result, 0);
    EXPECT_EQ(past_end.result, 8192);
    EXPECT_LT(bad_target.result, 0);
    EXPECT_EQ(stats.Get(0).errors, 1u);  // The bad target is not a device.
    EXPECT_EQ(stats.Get(0).short_transfers, 1u);
  });
}

// One request over scattered buffers (preadv/pwritev, io_uring readv/writev): the
// segments are transferred in order as one contiguous range of the file, O_DIRECT.
TEST_F(IoEngineTest, ScatterGatherRequestsMoveSegmentsInOrder) {
  ForEachEngine(true, [](IoCore& core, DeviceStats& stats) {
    AlignedBuffer out(5 * 4096), in(5 * 4096);
    memset(out.data(), 'a', 4096);             // Segment 1: 4096 B at buffer 0.
    memset(out.data() + 3 * 4096, 'b', 1024);  // Segment 2: 1024 B at buffer 12288.
    memset(in.data(), 0, 5 * 4096);
    iovec w_segments[] = {{out.data(), 4096}, {out.data() + 3 * 4096, 1024}};
    IoRequest w{0, IoDirection::kWrite, 8192, 5120, nullptr};
    w.segments = w_segments;
    w.segment_count = 2;
    ASSERT_TRUE(core.RunOne(&w).ok());
    EXPECT_EQ(w.result, 5120);
    // Read back scattered the other way round: 1024 B, then 4096 B at other places.
    iovec r_segments[] = {{in.data() + 4096, 1024}, {in.data() + 2 * 4096, 4096}};
    IoRequest r{0, IoDirection::kRead, 8192, 5120, nullptr};
    r.segments = r_segments;
    r.segment_count = 2;
    ASSERT_TRUE(core.RunOne(&r).ok());
    EXPECT_EQ(r.result, 5120);
    EXPECT_EQ(in.data()[4096], 'a');
    EXPECT_EQ(in.data()[4096 + 1023], 'a');
    EXPECT_EQ(in.data()[2 * 4096], 'a');  // Bytes 1024..4095 of the write.
    EXPECT_EQ(in.data()[2 * 4096 + 3071], 'a');
    EXPECT_EQ(in.data()[2 * 4096 + 3072], 'b');  // Then segment 2.
    EXPECT_EQ(in.data()[2 * 4096 + 4095], 'b');
    EXPECT_EQ(in.data()[0], 0);
    const DeviceCounters c = stats.Get(0);
    EXPECT_EQ(c.writes, 1u);
    EXPECT_EQ(c.bytes_written, 5120u);
    EXPECT_EQ(c.short_transfers, 0u);
  });
}

TEST(IoEngineFactoryTest, RefusesUnknownEngineAndMissingFile) {
  auto bad = CreateIoEngine("libaio", 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("libaio"), std::string::npos);
  auto engine = CreateIoEngine("psync", 1);
  Status s = (*engine)->Open({{"/nonexistent/pgstorsim-target", false, false}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/pgstorsim-target"), std::string::npos);
}

TEST(AlignedBufferTest, IsPageAligned) {
  AlignedBuffer b(100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 4096, 0u);
  EXPECT_GE(b.size_bytes(), 100);
  b.Reserve(70000);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 4096, 0u);
  EXPECT_GE(b.size_bytes(), 70000);
}

}  // namespace
}  // namespace pgstorsim
