#include "common/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/json_integer.h"

namespace pgstorsim {
namespace {

constexpr int kSubBits = 7;
constexpr int kSubBuckets = 1 << kSubBits;  // 128

}  // namespace

LatencyHistogram::LatencyHistogram() = default;

void LatencyHistogram::CountsUpTo(int bucket) {
  if (static_cast<size_t>(bucket) >= counts_.size()) counts_.resize(bucket + 1, 0);
}

int LatencyHistogram::BucketOf(int64_t value_ns) {
  uint64_t v = value_ns < 0 ? 0 : static_cast<uint64_t>(value_ns);
  if (v < static_cast<uint64_t>(kSubBuckets)) return static_cast<int>(v);
  int msb = 63 - __builtin_clzll(v);
  int shift = msb - kSubBits;
  int mantissa = static_cast<int>(v >> shift);  // in [128, 256)
  return (shift + 1) * kSubBuckets + (mantissa - kSubBuckets);
}

int64_t LatencyHistogram::BucketLowerNs(int bucket) {
  if (bucket < kSubBuckets) return bucket;
  int shift = bucket / kSubBuckets - 1;
  int64_t mantissa = bucket % kSubBuckets + kSubBuckets;
  return mantissa << shift;
}

int64_t LatencyHistogram::BucketUpperNs(int bucket) {
  if (bucket < kSubBuckets) return bucket + 1;
  int shift = bucket / kSubBuckets - 1;
  int64_t mantissa = bucket % kSubBuckets + kSubBuckets;
  if (shift >= 55) return std::numeric_limits<int64_t>::max();
  return (mantissa + 1) << shift;
}

void LatencyHistogram::Record(int64_t value_ns) {
  if (value_ns < 0) value_ns = 0;
  const int bucket = BucketOf(value_ns);
  CountsUpTo(bucket);
  ++counts_[bucket];
  if (count_ == 0 || value_ns < min_ns_) min_ns_ = value_ns;
  if (count_ == 0 || value_ns > max_ns_) max_ns_ = value_ns;
  ++count_;
  const double v = static_cast<double>(value_ns);
  sum_ns_ += v;
  sum_sq_ns2_ += v * v;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  CountsUpTo(static_cast<int>(other.counts_.size()) - 1);
  for (size_t i = 0; i < other.counts_.size(); ++i) counts_[i] += other.counts_[i];
  if (count_ == 0 || other.min_ns_ < min_ns_) min_ns_ = other.min_ns_;
  if (count_ == 0 || other.max_ns_ > max_ns_) max_ns_ = other.max_ns_;
  count_ += other.count_;
  sum_ns_ += other.sum_ns_;
  sum_sq_ns2_ += other.sum_sq_ns2_;
}

void LatencyHistogram::Clear() { *this = LatencyHistogram(); }

double LatencyHistogram::mean_ns() const { return count_ ? sum_ns_ / count_ : 0.0; }

double LatencyHistogram::stddev_ns() const {
  if (count_ == 0) return 0.0;
  double mean = mean_ns();
  double var = sum_sq_ns2_ / count_ - mean * mean;
  return var > 0 ? std::sqrt(var) : 0.0;
}

int64_t LatencyHistogram::PercentileNs(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::max<uint64_t>(rank, 1);
  uint64_t seen = 0;
  for (int i = 0; i < static_cast<int>(counts_.size()); ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      int64_t lo = BucketLowerNs(i);
      int64_t hi = BucketUpperNs(i) - 1;
      int64_t mid = lo + (hi - lo) / 2;
      return std::clamp(mid, min_ns_, max_ns_);
    }
  }
  return max_ns_;
}

nlohmann::json LatencyHistogram::ToJson() const {
  nlohmann::json buckets = nlohmann::json::array();
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i]) buckets.push_back({BucketLowerNs(static_cast<int>(i)), counts_[i]});
  }
  return {{"count", count_},   {"sum_ns", sum_ns_},   {"sum_sq_ns2", sum_sq_ns2_},
          {"min_ns", min_ns()}, {"max_ns", max_ns()}, {"buckets", buckets}};
}

StatusOr<LatencyHistogram> LatencyHistogram::FromJson(const nlohmann::json& j) {
  LatencyHistogram h;
  try {
    h.count_ = JsonInteger<uint64_t>(j.at("count"), "count");
    h.sum_ns_ = j.at("sum_ns").get<double>();
    h.sum_sq_ns2_ = j.at("sum_sq_ns2").get<double>();
    h.min_ns_ = JsonInteger<int64_t>(j.at("min_ns"), "min_ns");
    h.max_ns_ = JsonInteger<int64_t>(j.at("max_ns"), "max_ns");
    uint64_t total = 0;
    for (const auto& b : j.at("buckets")) {
      int64_t lower = JsonInteger<int64_t>(b.at(0), "bucket bound");
      uint64_t n = JsonInteger<uint64_t>(b.at(1), "bucket count");
      int bucket = BucketOf(lower);
      if (BucketLowerNs(bucket) != lower) {
        return Status::Error("histogram bucket bound " + std::to_string(lower) + " is not valid");
      }
      h.CountsUpTo(bucket);
      h.counts_[bucket] += n;
      total += n;
    }
    if (total != h.count_) return Status::Error("histogram bucket counts do not add up to count");
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("malformed histogram: ") + e.what());
  } catch (const std::out_of_range& e) {
    return Status::Error(std::string("malformed histogram: ") + e.what());
  }
  return h;
}

}  // namespace pgstorsim
