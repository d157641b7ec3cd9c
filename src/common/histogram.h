// LatencyHistogram: a mergeable log-linear histogram of non-negative durations in
// nanoseconds, with bounded relative error.
//
// Values below 128 ns are kept exactly; above, each power of two is split into 128
// buckets, so any percentile is reported within 1/128 (0.8 %) of a recorded value,
// which is well inside microsecond resolution for latencies above 128 us and exact
// below. Count, sum, sum of squares, min and max are exact, so mean and stddev are
// exact. Two histograms merge by adding counts, so shards (threads, hosts, runs)
// combine without loss. Thread safety: none; give each thread its own and Merge.
#ifndef PGSTORSIM_COMMON_HISTOGRAM_H_
#define PGSTORSIM_COMMON_HISTOGRAM_H_

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/status.h"

namespace pgstorsim {

class LatencyHistogram {
 public:
  LatencyHistogram();

  // REQUIRES: value_ns >= 0 (negative values are clamped to 0).
  void Record(int64_t value_ns);
  void Merge(const LatencyHistogram& other);
  void Clear();

  uint64_t count() const { return count_; }
  int64_t min_ns() const { return count_ ? min_ns_ : 0; }
  int64_t max_ns() const { return count_ ? max_ns_ : 0; }
  double mean_ns() const;
  double stddev_ns() const;  // Population standard deviation, as pgbench prints.
  // The value at quantile q in [0, 1] (0.5 = median); 0 when empty. The result lies
  // in the bucket holding the ceil(q * count)-th smallest value, clamped to [min, max].
  int64_t PercentileNs(double q) const;

  // JSON form: {"count":..,"sum_ns":..,"sum_sq_ns2":..,"min_ns":..,"max_ns":..,
  //             "buckets":[[lower_bound_ns, count], ...]} (non-empty buckets only).
  nlohmann::json ToJson() const;
  static StatusOr<LatencyHistogram> FromJson(const nlohmann::json& j);

  // Bucket arithmetic, exposed for tests.
  static int BucketOf(int64_t value_ns);
  static int64_t BucketLowerNs(int bucket);
  static int64_t BucketUpperNs(int bucket);  // Exclusive.

 private:
  void CountsUpTo(int bucket);  // Extends counts_ with zeros to hold `bucket`.

  // Per bucket, up to the highest bucket counted so far (the rest are 0): a histogram
  // that stays empty holds none, one of latencies up to a second at most 2944 (not all
  // 7296 buckets: 58 KB of zeros to allocate and copy).
  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  double sum_ns_ = 0;
  double sum_sq_ns2_ = 0;
  int64_t min_ns_ = 0;
  int64_t max_ns_ = 0;
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_HISTOGRAM_H_
