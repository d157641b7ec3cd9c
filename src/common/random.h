// Random: a small, fast, seeded generator (xoshiro256**, seeded through splitmix64)
// whose output is the same on every platform and standard library, so a seed fully
// determines a workload, a trace and a simulation. Derive independent streams with
// Fork(stream_id) instead of sharing one generator. Thread safety: none (one per thread).
#ifndef PGSTORSIM_COMMON_RANDOM_H_
#define PGSTORSIM_COMMON_RANDOM_H_

#include <cstdint>

namespace pgstorsim {

class Random {
 public:
  explicit Random(uint64_t seed);

  uint64_t Next();
  // Uniform integer in [lo, hi], inclusive, without modulo bias. REQUIRES: lo <= hi.
  int64_t UniformInt(int64_t lo, int64_t hi);
  // Uniform double in [0, 1).
  double UniformDouble();
  // Exponentially distributed with the given mean (for Poisson arrivals).
  double Exponential(double mean);
  // An independent generator for sub-stream `stream_id` of this generator's seed.
  Random Fork(uint64_t stream_id) const;

 private:
  uint64_t seed_;
  uint64_t s_[4];
};

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_RANDOM_H_
