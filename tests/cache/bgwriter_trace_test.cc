// The background writer in the trace generator: its writes join the physical I/O
// stream as data writes of the background client, and the pg_stat_bgwriter-style
// counts in the summary add up to the data writes of the trace.
#include <gtest/gtest.h>

#include <vector>

#include "trace/trace_generator.h"

namespace pgstorsim {
namespace {

struct Generated {
  GeneratorSummary summary;
  std::vector<TraceRecord> records;
};

Generated Generate(int64_t maxpages) {
  GeneratorOptions o;
  o.host.scale = 5;
  o.transactions = 20000;  // 20 s at the nominal 1000 tps: 100 rounds.
  o.clients = 4;
  o.seed = 3;
  o.host.cache.shared_buffers_pages = 256;  // 2 MiB against ~9000 pages.
  o.host.cache.os_cache_pages = 2048;       // 16 MiB.
  o.host.checkpoint_timeout_ns = 8LL * 1000 * 1000 * 1000;
  o.host.cache.bgwriter_lru_maxpages = maxpages;
  Generated g;
  Status s = GenerateTrace(
      o,
      [&g](const TraceRecord& r) {
        g.records.push_back(r);
        return Status::Ok();
      },
      &g.summary);
  EXPECT_TRUE(s.ok()) << s.message();
  return g;
}

uint64_t DataWrites(const Generated& g, bool background) {
  uint64_t n = 0;
  for (const TraceRecord& r : g.records) {
    const bool bg = r.client == 4;  // The background client is `clients`.
    n += r.stream == IoStream::kData && r.op == IoOp::kWrite && bg == background;
  }
  return n;
}

TEST(BgwriterTraceTest, BgwriterWritesMoveFromBackendsToTheBackgroundClient) {
  const Generated off = Generate(0);
  const Generated on = Generate(100);
  EXPECT_EQ(off.summary.buffers_clean, 0u);
  EXPECT_GT(on.summary.buffers_clean, 1000u);
  EXPECT_LT(on.summary.buffers_backend, off.summary.buffers_backend);
  // Data writes by writer: backends issue dirty evictions and extensions; the
  // background client issues the checkpoint's and the bgwriter's writes.
  for (const Generated* g : {&off, &on}) {
    const GeneratorSummary& s = g->summary;
    EXPECT_EQ(DataWrites(*g, false), s.buffers_backend);
    EXPECT_EQ(DataWrites(*g, true), s.buffers_checkpoint + s.buffers_clean);
    EXPECT_EQ(s.data_writes, s.buffers_backend + s.buffers_checkpoint + s.buffers_clean);
  }
  // The bgwriter does not change what is read from shared buffers.
  EXPECT_EQ(on.summary.shared_hits, off.summary.shared_hits);
  for (size_t i = 1; i < on.records.size(); ++i) {
    ASSERT_LE(on.records[i - 1].time_ns, on.records[i].time_ns) << "record " << i;
  }
}

TEST(BgwriterTraceTest, RejectsNegativeMaxpages) {
  GeneratorOptions o;
  o.host.cache.bgwriter_lru_maxpages = -1;
  GeneratorSummary summary;
  Status s = GenerateTrace(
      o, [](const TraceRecord&) { return Status::Ok(); }, &summary);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--bgwriter-lru-maxpages"), std::string::npos);
}

}  // namespace
}  // namespace pgstorsim
