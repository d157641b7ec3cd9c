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
  // Advances the stream exactly as UniformInt(lo, hi) does (the same draws, rejected
  // ones included), without computing the value. REQUIRES: lo <= hi.
  void SkipUniformInt(int64_t lo, int64_t hi);
  // Uniform double in [0, 1).
  double UniformDouble();
  // Exponentially distributed with the given mean (for Poisson arrivals).
  double Exponential(double mean);
  // An independent generator for sub-stream `stream_id` of this generator's seed.
  Random Fork(uint64_t stream_id) const;

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  // The first draw UniformInt over range + 1 values accepts (every draw when range is
  // the whole 64-bit range), the rejected draws consumed.
  uint64_t AcceptedDraw(uint64_t range);

  uint64_t seed_;
  uint64_t s_[4];
};

// Next and UniformInt are inline: a key generator draws four per transaction, and a
// constant range's modulo becomes a multiplication.
inline uint64_t Random::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

inline uint64_t Random::AcceptedDraw(uint64_t range) {
  uint64_t x = Next();
  if (range == UINT64_MAX) return x;
  const uint64_t span = range + 1;
  // Draws at or above limit = UINT64_MAX - UINT64_MAX % span are rejected (so every
  // value is equally likely); limit > UINT64_MAX - span, so a draw below that needs no
  // limit (one division fewer per call).
  if (x > UINT64_MAX - span) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    while (x >= limit) x = Next();
  }
  return x;
}

inline int64_t Random::UniformInt(int64_t lo, int64_t hi) {
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const uint64_t x = AcceptedDraw(range);
  if (range == UINT64_MAX) return static_cast<int64_t>(x);
  return lo + static_cast<int64_t>(x % (range + 1));
}

inline void Random::SkipUniformInt(int64_t lo, int64_t hi) {
  AcceptedDraw(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo));
}

}  // namespace pgstorsim

#endif  // PGSTORSIM_COMMON_RANDOM_H_
