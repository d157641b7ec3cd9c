#include "driver/engine_recorder.h"

#include <gtest/gtest.h>

#include "common/histogram.h"

namespace pgstorsim {
namespace {

// Enough samples for several full batches and a partial one.
constexpr int kSamples = 5003;
constexpr uint64_t kTransactions = (kSamples + 2) / 3;  // Every third sample.

int64_t LatencyOf(int i) { return 1000 + (i * 7919) % 500000; }

TEST(EngineRecorderTest, BatchedLatenciesEqualRecordingOneByOne) {
  EngineInput input;
  EngineShared shared;
  shared.input = &input;
  shared.window_start_ns = 0;
  LiveCounters live;
  EngineOutput out;
  LatencyHistogram stmt0, stmt1, txn;  // The same samples recorded one by one.
  EngineClient client;
  {
    EngineRecorder recorder(&shared, &live, &out, /*statements=*/2, /*scripts=*/1,
                            /*txn_log=*/nullptr);
    for (int i = 0; i < kSamples; ++i) {
      recorder.Statement(i % 2, LatencyOf(i));
      (i % 2 ? stmt1 : stmt0).Record(LatencyOf(i));
      if (i % 3 == 0) {
        recorder.Transaction(client, i, /*origin_ns=*/i * 1000, i * 1000 + LatencyOf(i), true);
        txn.Record(LatencyOf(i));
      }
    }
    // The live counters are current before the histograms are.
    EXPECT_EQ(live.txns.load(), kTransactions);
  }
  EXPECT_EQ(out.stmt_latency[0].ToJson(), stmt0.ToJson());
  EXPECT_EQ(out.stmt_latency[1].ToJson(), stmt1.ToJson());
  EXPECT_EQ(out.txn_latency.ToJson(), txn.ToJson());
  EXPECT_EQ(out.stmt_latency[0].count() + out.stmt_latency[1].count(),
            static_cast<uint64_t>(kSamples));
  EXPECT_EQ(out.transactions, kTransactions);
}

TEST(EngineRecorderTest, FlushLatenciesMakesHistogramsCompleteMidRun) {
  EngineInput input;
  EngineShared shared;
  shared.input = &input;
  LiveCounters live;
  EngineOutput out;
  EngineRecorder recorder(&shared, &live, &out, 1, 1, nullptr);
  recorder.Statement(0, 1234);
  recorder.Statement(0, 5678);
  recorder.FlushLatencies();
  EXPECT_EQ(out.stmt_latency[0].count(), 2u);
  EXPECT_EQ(out.stmt_latency[0].max_ns(), 5678);
  recorder.FlushLatencies();  // Nothing pending: no double counting.
  EXPECT_EQ(out.stmt_latency[0].count(), 2u);
}

}  // namespace
}  // namespace pgstorsim
