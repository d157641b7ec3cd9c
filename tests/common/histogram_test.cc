#include "common/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/random.h"

namespace pgstorsim {
namespace {

TEST(Histogram, BucketsCoverValuesWithBoundedError) {
  for (int64_t v : {0LL, 1LL, 127LL, 128LL, 129LL, 1000LL, 123456789LL, 1LL << 40}) {
    int b = LatencyHistogram::BucketOf(v);
    EXPECT_LE(LatencyHistogram::BucketLowerNs(b), v);
    EXPECT_GT(LatencyHistogram::BucketUpperNs(b), v);
    double width = LatencyHistogram::BucketUpperNs(b) - LatencyHistogram::BucketLowerNs(b);
    if (v < 128) {
      EXPECT_EQ(width, 1) << v;  // exact below 128 ns
    } else {
      EXPECT_LE(width / v, 1.0 / 128 + 1e-12) << v;
    }
  }
}

TEST(Histogram, PercentilesMatchExactOrderStatistics) {
  Random rng(42);
  LatencyHistogram h;
  std::vector<int64_t> values;
  for (int i = 0; i < 20000; ++i) {
    int64_t v = static_cast<int64_t>(rng.Exponential(5e6));  // mean 5 ms
    values.push_back(v);
    h.Record(v);
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.5, 0.9, 0.95, 0.99, 0.999}) {
    int64_t exact = values[static_cast<size_t>(std::ceil(q * values.size())) - 1];
    EXPECT_NEAR(h.PercentileNs(q), exact, exact / 128.0 + 1) << q;
  }
  EXPECT_EQ(h.max_ns(), values.back());
  EXPECT_EQ(h.min_ns(), values.front());
  double sum = 0, sq = 0;
  for (int64_t v : values) sum += v, sq += double(v) * v;
  double mean = sum / values.size();
  EXPECT_NEAR(h.mean_ns(), mean, 1e-6 * mean);
  EXPECT_NEAR(h.stddev_ns(), std::sqrt(sq / values.size() - mean * mean), 1e-3 * mean);
}

TEST(Histogram, MergeEqualsRecordingEverything) {
  LatencyHistogram a, b, all;
  for (int i = 1; i <= 1000; ++i) {
    (i % 3 ? a : b).Record(i * 1000);
    all.Record(i * 1000);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.PercentileNs(0.99), all.PercentileNs(0.99));
  EXPECT_EQ(a.min_ns(), 1000);
  EXPECT_EQ(a.max_ns(), 1000000);
  EXPECT_DOUBLE_EQ(a.mean_ns(), all.mean_ns());
}

TEST(Histogram, JsonRoundTripAndValidation) {
  LatencyHistogram h;
  for (int i = 0; i < 100; ++i) h.Record(i * 7919);
  auto back = LatencyHistogram::FromJson(h.ToJson());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->count(), 100u);
  EXPECT_EQ(back->PercentileNs(0.5), h.PercentileNs(0.5));
  nlohmann::json bad = h.ToJson();
  bad["count"] = 7;
  EXPECT_FALSE(LatencyHistogram::FromJson(bad).ok());
  EXPECT_FALSE(LatencyHistogram::FromJson(nlohmann::json::object()).ok());
}

TEST(Histogram, EmptyIsZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.PercentileNs(0.99), 0);
  EXPECT_EQ(h.mean_ns(), 0);
}

// An empty histogram (no bucket counts held yet) serializes, round-trips, merges into a
// filled one and takes a filled one's values, as a filled one does.
TEST(Histogram, EmptyMergesAndSerializesLikeAFilledOne) {
  LatencyHistogram empty, filled;
  for (int i = 1; i <= 50; ++i) filled.Record(i * 1000);
  const nlohmann::json empty_json = empty.ToJson();
  EXPECT_EQ(empty_json["count"], 0);
  EXPECT_TRUE(empty_json["buckets"].empty());
  auto back = LatencyHistogram::FromJson(empty_json);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->ToJson(), empty_json);

  LatencyHistogram a = filled;
  a.Merge(empty);
  EXPECT_EQ(a.ToJson(), filled.ToJson());
  LatencyHistogram b;
  b.Merge(filled);
  EXPECT_EQ(b.ToJson(), filled.ToJson());
  EXPECT_EQ(b.PercentileNs(0.9), filled.PercentileNs(0.9));
  b.Clear();
  EXPECT_EQ(b.ToJson(), empty_json);
  b.Record(5);
  EXPECT_EQ(b.PercentileNs(1.0), 5);
}

// Merging a histogram of larger values into one of small values (and the reverse)
// gives what recording all of them gives.
TEST(Histogram, MergeOfDifferentRangesEqualsRecordingEverything) {
  LatencyHistogram small, large, all;
  for (int i = 1; i <= 100; ++i) {
    small.Record(i);
    large.Record(int64_t{1000000000} * i);
    all.Record(i);
    all.Record(int64_t{1000000000} * i);
  }
  LatencyHistogram a = small, b = large;
  a.Merge(large);
  b.Merge(small);
  EXPECT_EQ(a.ToJson(), all.ToJson());
  EXPECT_EQ(b.ToJson(), all.ToJson());
  for (double q : {0.1, 0.5, 0.51, 0.99, 1.0}) {
    EXPECT_EQ(a.PercentileNs(q), all.PercentileNs(q));
    EXPECT_EQ(b.PercentileNs(q), all.PercentileNs(q));
  }
}

}  // namespace
}  // namespace pgstorsim
